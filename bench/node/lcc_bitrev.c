/*
 * lcc_bitrev.c — the bit reversal of 2^20 doubles (block layout) ten
 * times, each a doall b[i] = a[reverse(i, 20)] (Hou et al. 2001, Fig. 1): the
 * translated program against the hand-written MPI program mpi_hand.c
 * (bench/bench_node.sh).  Both print the same checksum.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define LOGN 20
#define N (1 << LOGN)

double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = (i % 1000) * 0.5;
    for (int r = 0; r < 5; r++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            b[i] = a[reverse(i, LOGN)] * 0.5 + 1.0;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            a[i] = b[reverse(i, LOGN)] * 0.5 + 1.0;
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += a[i] * (i % 7 + 1);
    printf("%.17g\n", s);
    return 0;
}
