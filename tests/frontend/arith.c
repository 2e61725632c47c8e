/*
 * Arithmetic that stays GF(2)-affine (docs/annotations.md): / and % by
 * powers of two on non-negative values, * by a power of two and + where no
 * carry can occur, casts to integer types, ?: with a constant condition.
 *   a[i / 2]                  = i >> 1: the LCS x_t = y_{t+1};
 *   a[i / 16 % 4]             = (i >> 4) & 3: the LCS x_0 = y_4, x_1 = y_5;
 *   a[(i & 7) * 32 + (i >> 3)] the source is i rotated right by 3:
 *                             y_t = x_{(t-3) mod 8};
 *   a[(unsigned char)(i << 1)] the cast keeps the low 8 bits: the LCS
 *                             x_0 = 0, x_t = y_{t-1};
 *   a[(int)((unsigned)i ^ 0x55u)]  y = x + 10101010;
 *   a[1 ? i ^ 64 : 0]         y = x + 00000010.
 */
#include <stdio.h>

double a[256], b[256], c[256], d[256], e[256], f[256], g[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i / 2];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[i / 16 % 4];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d[i] = a[(i & 7) * 32 + (i >> 3)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        e[i] = a[(unsigned char)(i << 1)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        f[i] = a[(int)((unsigned)i ^ 0x55u)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        g[i] = a[1 ? i ^ 64 : 0];
    printf("%g %g %g %g %g %g\n", b[9], c[0x35], d[1], e[200], f[0], g[0]);
    return b[9] == 4 && c[0x35] == 3 && d[1] == 32 && e[200] == 144
           && f[0] == 0x55 && g[0] == 64 ? 0 : 1;
}
