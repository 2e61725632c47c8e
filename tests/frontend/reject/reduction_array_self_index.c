// expect: 12:14: error: 'hist' is an array this doall reduces into (line 12) and is named here too
// rejected: the bin's index reads the histogram itself, which each
// processor holds only as its private partial copy
#pragma hyperdo cube(3)
unsigned key[256];
long hist[64];
#pragma hyperdo distribute(key, hist : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        hist[hist[key[i] & 63] & 63] += 1;
    return 0;
}
