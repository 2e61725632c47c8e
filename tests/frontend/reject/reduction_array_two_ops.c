// expect: 13:9: error: 'hist' is combined with '+' on line 12 and with '*' here: a reduction has one operator
// rejected: two statements combine into one histogram with different
// operators, which do not commute with each other
#pragma hyperdo cube(3)
unsigned key[256];
long hist[64];
#pragma hyperdo distribute(key, hist : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        hist[key[i] & 63] += 1;
        hist[key[i] >> 2] *= 2;
    }
    return 0;
}
