/*
 * Linear-complement gathers (Definition 3).  Under owner computes an
 * iteration runs on the owner of what it writes, so when every processor
 * writes (the home map is onto) the gather's A has full rank; an LCG needs
 * a loop in which only some processors write.  Here the 3-cube's 8
 * processors each send one value and processors 0..3 each receive two:
 *   packed (16 elements, block: element e on processor e >> 1) gets
 *   packed[i] = v[i] for i < 8, v with exactly 8 elements:
 *   source x = i, destination y = i >> 1 = (x1, x2, 0): y = A x with rows
 *   010, 001, 000, rank 2;
 *   the same with more iterations than processors (k = 4 > n = 3):
 *   big (32, block: bits 2..4) gets big[i] = w[i], w (16, block: bits
 *   1..3): x = (i1, i2, i3), y = (i2, i3, 0), the same A.
 */
#include <stdio.h>

double v[8];
double packed[16];
double w[16];
double big[32];
#pragma hyperdo distribute(packed, w : block)
#pragma hyperdo distribute(big : block)

int main(void)
{
    for (int i = 0; i < 8; i++)
        v[i] = i;
    for (int i = 0; i < 16; i++)
        w[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        packed[i] = v[i];
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        big[i] = w[i];
    printf("%g %g\n", packed[7], big[15]);
    return packed[7] == 7 && big[15] == 15 ? 0 : 1;
}
