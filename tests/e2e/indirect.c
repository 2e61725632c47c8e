// e2e: dims 1-8
/*
 * Indirection through distributed arrays: a[q[i]], a[q[(i + 17) & (N-1)]]
 * (q[...] itself remote), and two references of one doall asking two
 * arrays, with q and a in different layouts.  Only the processor that runs
 * iteration i can learn which element it needs: it asks the element's
 * owner (docs/codegen.md, "Indices through distributed arrays").
 */
#include <stdio.h>

#define N 256

unsigned a[N], q[N], r[4][N];
#pragma hyperdo distribute(a, r : cyclic)
#pragma hyperdo distribute(q : block)
double w[4 * N];
#pragma hyperdo distribute(w : block_cyclic(4))

int main(void)
{
    for (int e = 0; e < N; e++) {
        a[e] = 40503u * (unsigned)e + 12345u;
        q[e] = (unsigned)(e * 97 + 31) % N;
    }
    for (int e = 0; e < 4 * N; e++)
        w[e] = e * 0.5;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[0][i] = a[q[i]];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[1][i] = a[q[(i + 17) & (N - 1)]] ^ r[0][(i * 7) & (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[2][i] = a[q[i ^ 5]] + (unsigned)w[q[i]] + q[i];

    for (int f = 0; f < 3; f++) {
        unsigned long sum = 0;
        printf("r[%d]:", f);
        for (int e = 0; e < N; e++) {
            if (e < 8 || e >= N - 4)
                printf(" %u", r[f][e]);
            sum += (unsigned long)(e + 1) * r[f][e];
        }
        printf("  sum %lu\n", sum);
    }
    return 0;
}
