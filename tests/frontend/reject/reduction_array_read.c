// expect: 14:16: error: 'hist' is an array this doall reduces into (line 13) and is named here too
// rejected: a histogram read elsewhere in the body: during the loop each
// processor holds a private copy of the whole array, not the sequential
// loop's values
#pragma hyperdo cube(3)
unsigned key[256];
long hist[64], b[256];
#pragma hyperdo distribute(key, hist, b : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        hist[key[i] & 63] += 1;
        b[i] = hist[i & 63];
    }
    return 0;
}
