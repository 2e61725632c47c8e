/*
 * Seed 000, Section 3, Fig. 1a: the parallel loop b[i] = r[reverse(i, n)]
 * on an 8-cube, with b[i] and r[i] on (virtual) processor i and iteration
 * i on the owner of b[i].  The communication is the bit-reverse of
 * Example 1: y = A x with A the anti-diagonal permutation, contention
 * T = (1,2,4,8,8,4,2,1) before mapping (Section 6.1).
 * Worked by hand in docs/annotations.md.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 8

double b[1 << N], r[1 << N];

int main(void)
{
    for (int i = 0; i < 1 << N; i++)
        r[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 1 << N; i++)
        b[i] = r[reverse(i, N)];
    printf("b[1] = %g, b[128] = %g\n", b[1], b[128]);
    return b[1] == 128 && b[128] == 1 ? 0 : 1;
}
