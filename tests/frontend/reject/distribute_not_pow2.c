// expect: 11:9: error: 'a' is distributed by cyclic (of any extent): only a doall that writes element i of an array distributed by a table or spread (and so runs over its owners) may write it
// rejected: an array of 1000 elements is spread (no GF(2) owner): a doall over a power-of-two array may read it, not write it
double a[1000], b[1024];
#pragma hyperdo distribute(a, b : cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = 1;
        a[i] = b[i];
    }
    return 0;
}
