/*
 * Shifts by constants on an 8-cube.
 *   a[i >> 1]            destinations 2j and 2j+1 both read element j: the
 *                        scatter of Definition 4, x = A y with x_t = y_{t+1}
 *                        (A has rank 7: an LCS);
 *   a[(i << 1) & 255]    x_0 = 0, x_t = y_{t-1}: an LCS of rank 7;
 *   a[(i >> 2) | ((i << 6) & 255)]  a rotation right by two: the LCP
 *                        y = A x with y_t = x_{(t-2) mod 8}.
 */
#include <stdio.h>

double a[256], b[256], c[256], d[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i >> 1];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[(i << 1) & 255];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d[i] = a[(i >> 2) | ((i << 6) & 255)];
    printf("%g %g %g\n", b[7], c[200], d[1]);
    return b[7] == 3 && c[200] == 144 && d[1] == 64 ? 0 : 1;
}
