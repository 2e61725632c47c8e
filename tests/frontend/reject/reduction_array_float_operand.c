// expect: 13:9: error: this reduction of 'hist' cannot be translated: its operand is not an integer
// rejected: an integer histogram summing doubles: C converts each step's
// sum back to long, which partial sums would truncate differently
#pragma hyperdo cube(3)
unsigned key[256];
double x[256];
long hist[64];
#pragma hyperdo distribute(key, x, hist : block)
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        hist[key[i] & 63] += x[i];
    return 0;
}
