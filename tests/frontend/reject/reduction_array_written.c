// expect: 13:9: error: 'hist' is an array this doall reduces into (line 14) and is named here too
// rejected: the histogram is also written by an ordinary statement of the
// body (each iteration its own element), which the private copies would
// lose
#pragma hyperdo cube(3)
unsigned key[256];
long hist[256];
#pragma hyperdo distribute(key, hist : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        hist[i] = 0;
        hist[key[i]] += 1;
    }
    return 0;
}
