#include <hyperdo/bits.h>
#pragma hyperdo cube(8)

float x[256], y[256];

void helpers(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        y[i] = x[reverse(i, 8)] + x[gray(i)] + x[rotl(i, 3, 8)] + x[rotr(i, 1, 8)];

    #pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = y[shuffle(i, 8)] - y[unshuffle(i, 8)] * y[transpose(i, 8)] + y[bit(i, 3)];
}
