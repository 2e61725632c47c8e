/*
 * Three doalls whose best communication is known (issue 15): a block ->
 * cyclic redistribution (an all-to-all: COMPLETE EXCHANGE), a broadcast
 * of one element (BROADCAST), an inversion of long messages (INVERSION)
 * and the transposition of the 2 x 2 processor grid's blocks (L.C.
 * INVERSION when the processors are not renamed; PERMUTED SEND after the
 * optimal mapping has made it another permutation).  tests/coll/choice.sh reads what `hyperdo analyze --json`
 * chooses on the link-bound and the nCUBE-2 cost models.
 */
#include <stdio.h>

#define N 65536

double a[N], b[N], c[N], d[N], e[N];
#pragma hyperdo distribute(a, c, d, e : block)
#pragma hyperdo distribute(b : cyclic)
#pragma hyperdo cube(4)

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[5];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = a[i ^ (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        e[i] = a[(i & 0x0fff) | ((i & 0x3000) << 2) | ((i >> 2) & 0x3000)];
    printf("%g %g %g %g\n", b[3], c[3], d[3], e[3]);
    return 0;
}
