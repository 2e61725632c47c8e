/*
 * The accepted loop headers and bounds (docs/annotations.md): a bound
 * spelled as a macro, 1 << N, an enum constant, an expression on sizeof; the
 * increments i++, ++i, i += 1, i = i + 1; a loop variable declared before
 * the loop; loop variables of any name.  Each loop reads a[v ^ 2^j]: the
 * LCP y = x + e_j, one dimension used.
 */
#include <stdio.h>

#define LOG 8
#define SIZE (1 << LOG)

enum { COUNT = 256, HALF = COUNT / 2 };

double a[SIZE], b[SIZE], c[SIZE], d[SIZE], e[SIZE], f[SIZE];

int main(void)
{
    int i;
    for (i = 0; i < SIZE; i++)
        a[i] = i;
#pragma hyperdo doall
    for (i = 0; i < SIZE; i++)
        b[i] = a[i ^ 1];
#pragma hyperdo doall
    for (int j = 0; j < COUNT; ++j)
        c[j] = a[j ^ 2];
#pragma hyperdo doall
    for (int k = 0; k < 1 << LOG; k += 1)
        d[k] = a[k ^ 4];
#pragma hyperdo doall
    for (i = 0; i < 2 * HALF; i = i + 1)
        e[i] = a[i ^ 8];
#pragma hyperdo doall
    for (int idx = 0; idx < (int)(sizeof a / sizeof a[0]); idx++)
        f[idx] = a[idx ^ 16];
    printf("%g %g %g %g %g\n", b[0], c[0], d[0], e[0], f[0]);
    return b[0] == 1 && c[0] == 2 && d[0] == 4 && e[0] == 8 && f[0] == 16
           ? 0 : 1;
}
