/*
 * + and - are GF(2)-affine when no carry or borrow can occur for any i
 * (docs/annotations.md): then x + y = x ^ y and x - y = x ^ y.
 *   i - (i & 1)                 (i & 1) only has bits that i has: = i & ~1,
 *                               the LCS x_0 = 0, x_t = y_t, rank 7;
 *   (i & 0x0F) + 0xF0 - (i & 0xF0)  the + joins disjoint bits and the -
 *                               takes away bits of 0xF0 only: = i ^ 0xF0,
 *                               y = x + 00001111;
 *   (i | 1) - 1                 = i & ~1 again;
 *   (i & 0xF0) + 8 + (i & 7)    bit 3 set, the others from i: the LCS with
 *                               x_3 = 1, rank 7.
 */
#include <stdio.h>

double a[256], b[256], c[256], d[256], e[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i - (i & 1)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[(i & 0x0F) + 0xF0 - (i & 0xF0)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d[i] = a[(i | 1) - 1];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        e[i] = a[(i & 0xF0) + 8 + (i & 7)];
    printf("%g %g %g %g\n", b[5], c[0], d[5], e[0x21]);
    return b[5] == 4 && c[0] == 0xF0 && d[5] == 4 && e[0x21] == 0x29 ? 0 : 1;
}
