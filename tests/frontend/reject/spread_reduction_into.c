// expect: 14:9: error: this doall reduces into the elements of 'h', which is spread or distributed by a table: reductions into arrays of any extent, a table's or a pointer's are not supported yet
// rejected: HISTOGRAM (Stout and Wagar 1990) combines into blocks of a GF(2) layout, which a spread of 100 elements is not
#pragma hyperdo cube(2)

long h[100];
int key[64], seen[64];
#pragma hyperdo distribute(h : block)
#pragma hyperdo distribute(key, seen : block)

int main(void)
{
#pragma hyperdo doall reduction(+: h)
    for (int i = 0; i < 64; i++) {
        h[key[i]] += 1;
        seen[i] = key[i];
    }
    return 0;
}
