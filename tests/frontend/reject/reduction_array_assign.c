// expect: 12:9: error: the element written by 'hist[key[i] & 63]' is not known at compile time (the index depends on the contents of 'key'), so its owner cannot run the iteration (only a reduction into a one-dimensional array, 'h[e] op= x', may write an element that depends on data
// rejected: a plain assignment to a data-dependent element is no
// reduction: which iteration's value is left depends on the order
#pragma hyperdo cube(3)
unsigned key[256];
long hist[64];
#pragma hyperdo distribute(key, hist : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        hist[key[i] & 63] = i;
    return 0;
}
