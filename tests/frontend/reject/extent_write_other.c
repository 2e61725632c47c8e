// expect: 12:9: error: 'h[key[i]]' writes an array distributed by block (of any extent) at an element other than i
// rejected: a pointer's elements are written at element i only (a histogram into a pointer's elements is no reduction the translator supports)
#pragma hyperdo cube(2)

void histogram(int n, int bins, const int *key, long *h, long *seen)
{
#pragma hyperdo distribute(h : block) extent(bins)
#pragma hyperdo distribute(key, seen : block) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++) {
        seen[i] = key[i];
        h[key[i]] += 1;
    }
}
