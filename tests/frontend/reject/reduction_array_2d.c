// expect: 11:9: error: the element written by 'hist[key[i] & 7][i & 7]' is not known at compile time (the index depends on the contents of 'key'), so its owner cannot run the iteration (only a reduction into a one-dimensional array
// rejected: reductions into arrays are into one-dimensional arrays only
#pragma hyperdo cube(3)
unsigned key[256];
long hist[8][8];
#pragma hyperdo distribute(key, hist : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        hist[key[i] & 7][i & 7] += 1;
    return 0;
}
