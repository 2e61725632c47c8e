/*
 * Object-like macros that expand to constant expressions, used inside
 * index expressions: they are constants like any literal.
 *   a[i ^ MASK]   MASK = N - 1: the complement, y = x + 11111111;
 *   a[i ^ HALF]   HALF = N >> 1: y = x + 00000001;
 *   a[(i >> SHIFT) | ((i & LOW) << SHIFT)]  Example 3's transpose with
 *                 SHIFT = 4 and LOW = (1 << SHIFT) - 1.
 */
#include <stdio.h>

#define N 256
#define MASK (N - 1)
#define HALF (N >> 1)
#define SHIFT 4
#define LOW ((1 << SHIFT) - 1)

double a[N], b[N], c[N], d[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ MASK];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[i ^ HALF];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = a[(i >> SHIFT) | ((i & LOW) << SHIFT)];
    printf("%g %g %g\n", b[0], c[0], d[1]);
    return b[0] == 255 && c[0] == 128 && d[1] == 16 ? 0 : 1;
}
