/*
 * A map pragma names arrays by C's scopes: before the doall of main, 'a'
 * is the global a, not the local a of f that shadows it there (a map
 * pragma used to bind to the first array of that name in the file).  On
 * the 3-cube, every array of exactly 8 elements:
 *
 *   f:    b[i] = a[reverse(i, 3)]   f's local a, unmapped: the bit
 *                                   reversal, A rows 001, 010, 100;
 *   main: b[i] = b[i] + a[rotl(i, 1, 3)] under map(a : rows(2, 4, 1)):
 *         the global a's element rotl(i) = (i2, i0, i1) lives on
 *         F rotl(i) = (i0, i1, i2) = i, where b[i] does: local, no entry.
 *         Bound to f's a instead, it would stay the rotation, an LCP.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(3)

#define N 8

double a[N], b[N];

static void f(void)
{
    double a[N];
    for (int k = 0; k < N; k++)
        a[k] = 100 + k;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[reverse(i, 3)];
}

int main(void)
{
    for (int k = 0; k < N; k++)
        a[k] = k;
    f();
#pragma hyperdo map(a : rows(2, 4, 1))
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = b[i] + a[rotl(i, 1, 3)];
    printf("%g %g %g\n", b[0], b[1], b[6]);
    return 0;
}
