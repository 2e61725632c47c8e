/*
 * Doalls whose best communication is known (issue 15): a block ->
 * cyclic redistribution (an all-to-all: COMPLETE EXCHANGE), a broadcast
 * of one element (BROADCAST), an inversion of long messages (INVERSION)
 * and the transposition of the 2 x 2 processor grid's blocks (L.C.
 * INVERSION when the processors are not renamed; PERMUTED SEND after the
 * optimal mapping has made it another permutation); a distribute (each
 * processor reads its own 16 elements of processor 0), a collect (a doall
 * of 256 iterations, all on processor 0, reading 16 elements of each
 * processor) and an all-gather (every processor reads the same 16
 * elements of each).  tests/coll/choice.sh reads what `hyperdo analyze
 * --json` chooses on the link-bound and the nCUBE-2 cost models.
 */
#include <stdio.h>

#define N 65536

double a[N], b[N], c[N], d[N], e[N], f[N], g[N], h[N];
#pragma hyperdo distribute(a, c, d, e, f, g, h : block)
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
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f[i] = a[i >> 8];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        g[i] = a[i * 256];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        h[i] = a[(i & 255) << 8];
    printf("%g %g %g %g %g %g %g\n", b[3], c[3], d[3], e[3], f[3], g[3], h[3]);
    return 0;
}
