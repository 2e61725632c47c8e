// expect: 12:9: error: this doall reduces into the elements of 'hist', which is not distributed: give it 2^k elements, k >= 3
// rejected: the bins are a replicated array (fewer elements than the
// cube's processors), which has no slices for the result to go to
#pragma hyperdo cube(3)
unsigned key[256];
long hist[4], b[256];
#pragma hyperdo distribute(key, b : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        hist[key[i] & 3] += 1;
        b[i] = 1;
    }
    return 0;
}
