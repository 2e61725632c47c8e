/*
 * The binary reflected Gray code on an 8-cube, read and written.
 *   b[i] = a[i ^ (i >> 1)] and a[gray(i)]: the source is G i with
 *   G = I + (shift), so i = G^-1 x: the LCP y = A x with A = G^-1, the
 *   upper triangle of ones (y_t = x_t + x_{t+1} + ... + x_7);
 *   d[gray(i)] = a[i]: the iteration runs on the owner of d[gray(i)], so
 *   y = G x: row t has ones in columns t and t+1.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double a[256], b[256], c[256], d[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i ^ (i >> 1)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[gray(i)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d[gray(i)] = a[i];
    printf("%g %g %g\n", b[2], c[3], d[3]);
    return b[2] == 3 && c[3] == 2 && d[3] == 2 ? 0 : 1;
}
