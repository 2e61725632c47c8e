// e2e: dims 1-8
/*
 * Indirection through a distributed array: a[q[i]] and
 * a[q[(i + 17) & (N - 1)]] with q distributed, so only the processor that
 * runs iteration i can learn which element of a it needs (it asks a's
 * owner: docs/codegen.md), next to the general indices of general.c.
 */
#include <stdio.h>

#define N 256

unsigned a[N], q[N];
#pragma hyperdo distribute(a, q : cyclic)
unsigned r[8][N];
#pragma hyperdo distribute(r : cyclic)

int main(void)
{
    for (int e = 0; e < N; e++) {
        a[e] = 40503u * (unsigned)e + 12345u;
        q[e] = (unsigned)(e * 97 + 31) % N;
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[0][i] = a[(i + 1) & (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[1][i] = a[(i - 3) & (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[2][i] = a[(i * 3) & (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[3][i] = a[(i * 5 + 7) & (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[4][i] = a[(i * i) & (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[5][i] = a[i % 100];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[6][i] = a[q[i]];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[7][i] = a[q[(i + 17) & (N - 1)]] ^ r[6][(i * 7) & (N - 1)];

    for (int f = 0; f < 8; f++) {
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
