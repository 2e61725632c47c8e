/*
 * Affine indices whose owner maps are not an LCC (n = 3):
 *   packed[i] = v[i & 3]   only processors 0..3 send (src = (i0, i1, 0))
 *                          and only 0..3 receive (dst = (i1, i2, 0)):
 *                          "only part of the processors send and only part
 *                          receive";
 *   y[i] = x[i >> 2]       (cyclic, 32 elements) every processor sends and
 *                          receives, but src = (i2, i3, i4) and
 *                          dst = (i0, i1, i2) do not determine each other:
 *                          "a processor exchanges elements with several
 *                          partners";
 *   packed[i] = v[i >> 1]  both owners are i >> 1: local, not listed.
 */
#include <stdio.h>

double v[8];
double packed[16];
double x[32], y[32];
#pragma hyperdo distribute(packed : block)
#pragma hyperdo distribute(x, y : cyclic)

int main(void)
{
    for (int i = 0; i < 8; i++)
        v[i] = i;
    for (int i = 0; i < 32; i++)
        x[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        packed[i] = v[i & 3];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        y[i] = x[i >> 2];
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        packed[i] += v[i >> 1];
    printf("%g %g\n", packed[5], y[9]);
    return packed[5] == 1 + 2 && y[9] == 2 ? 0 : 1;
}
