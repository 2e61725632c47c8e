/*
 * Multi-dimensional arrays with power-of-two extents, flattened row-major
 * (C order) onto an 8-cube: element [r][c] of a 16 x 16 array is element
 * 16 r + c, i.e. on processor 16 r + c (Hou et al. 2001, Example 5's layout).
 *   t[i >> 4][i & 15] = m[i & 15][i >> 4]   Example 3's transpose;
 *   u[i & 15][i >> 4] = m[i >> 4][i & 15]   the same with the transposed
 *                                           element written: iteration i
 *                                           runs on its owner;
 *   w[i >> 6][i & 63] = r[i & 3][i >> 2]    a 4 x 64 array: the source is
 *                                           i rotated right by 2, so
 *                                           y_t = x_{(t-2) mod 8};
 *   a 4 x 8 x 8 array read with a bit permutation.
 */
#include <stdio.h>

double m[16][16], t[16][16], u[16][16];
double r[4][64], w[4][64];
double c3[4][8][8], d3[4][8][8];

int main(void)
{
    for (int i = 0; i < 256; i++) {
        m[i >> 4][i & 15] = i;
        r[i >> 6][i & 63] = i;
        c3[i >> 6][(i >> 3) & 7][i & 7] = i;
    }
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t[i >> 4][i & 15] = m[i & 15][i >> 4];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        u[i & 15][i >> 4] = m[i >> 4][i & 15];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        w[i >> 6][i & 63] = r[i & 3][i >> 2];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d3[i >> 6][(i >> 3) & 7][i & 7] = c3[i & 3][(i >> 2) & 7][i >> 5];
    printf("%g %g %g %g\n", t[1][2], u[2][1], w[0][1], d3[0][0][1]);
    return t[1][2] == 0x21 && u[2][1] == 0x12 && w[0][1] == 64
           && d3[0][0][1] == 64 ? 0 : 1;
}
