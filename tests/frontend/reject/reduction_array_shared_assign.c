// expect: 11:9: error: iterations i = 0 and i = 64 both write element 0 of 'hist' (a doall loop may not write an element twice; only a reduction into a one-dimensional array, 'h[e] op= x', may
// rejected: an assignment to an element four iterations share, known
// when translating, is no reduction either
#pragma hyperdo cube(3)
long hist[64], a[256];
#pragma hyperdo distribute(hist, a : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        hist[i & 63] = a[i];
    return 0;
}
