// expect: 10:36: error: 'hist' is named in reduction(*: ...) but the statement on line 12 combines with '+'
// rejected: the clause names the histogram with another operator than
// its statement's
#pragma hyperdo cube(3)
unsigned key[256];
long hist[64];
#pragma hyperdo distribute(key, hist : block)
int main(void)
{
#pragma hyperdo doall reduction(*: hist)
    for (int i = 0; i < 256; i++)
        hist[key[i] & 63] += 1;
    return 0;
}
