// e2e: dims 1-3
/*
 * A read i + c whose c reads a distributed array: A[q[5]][j] after a doall
 * wrote q.  A stream's c is computed before anything is fetched, from
 * constants and outer scalars only, so this one must be a request, whose
 * second round reads row q[5] = 3 (found by an adversarial campaign: it
 * was a stream reading the host's stale q, row 0, and its fetched q[5]
 * went unused, which -Werror refused).  Expected: the sequential output.
 */
#include <stdio.h>
#define N 16
long A[N][N];
long v[N];
int q[N];
#pragma hyperdo distribute(A : block)
#pragma hyperdo distribute(v, q : cyclic)
int main(void)
{
    for (int k = 0; k < N * N; k++)
        A[k / N][k % N] = k;
#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        q[j] = (j * 7) & 15;
#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        v[j] = A[q[5]][j];
    long s = 0;
    for (int j = 0; j < N; j++)
        s += v[j] * (j + 1);
    printf("%ld\n", s);
    return 0;
}
