/*
 * Indices with ^, & and | by constants, and constant indices, on an
 * 8-cube (arrays of exactly 256 elements: element e on processor e).
 *   a[i ^ 5]            every processor sends one element: the LCP
 *                       y = I x + 10100000, only dimensions 0 and 2 used;
 *   a[i & 0xF0]         several iterations read one element: the LCS
 *                       x = A y with A = diag(0,0,0,0,1,1,1,1), rank 4;
 *   a[i | 3]            the LCS x = A y + 11000000, rank 6;
 *   a[(i & 0x0F) | 0xA0] the LCS x = A y + 00000101, rank 4;
 *   a[7], a[0]          a broadcast from one processor: the LCS x = 0 y + b
 *                       of rank 0 (Definition 4 allows any rank below n).
 */
#include <stdio.h>

double a[256], b[256], c[256], d[256], e[256], f[256], g[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i ^ 5];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[i & 0xF0];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d[i] = a[i | 3];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        e[i] = a[(i & 0x0F) | 0xA0];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        f[i] = a[7] + a[0];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        g[i] = a[i];
    printf("%g %g %g %g %g\n", b[0], c[0x37], d[4], e[0x13], f[9]);
    return b[0] == 5 && c[0x37] == 0x30 && d[4] == 7 && e[0x13] == 0xA3
           && f[9] == 7 ? 0 : 1;
}
