// e2e: dims 1-7
/*
 * Sequential code between doalls that reads and writes the distributed
 * arrays: single elements set by the host, a whole array rewritten by a
 * host loop, an array passed by pointer to a host function that changes
 * it, memcpy and memset on distributed arrays, and a doall result read by
 * the host and fed back through an outer scalar.  Each doall must see the
 * host's latest writes and the host each doall's results.
 */
#include <stdio.h>
#include <string.h>

#include <hyperdo/bits.h>

#define N 128

long a[N], b[N], c[N];
#pragma hyperdo distribute(a, b, c : cyclic)

static void negate_odd(long *v, int len)
{
    for (int e = 1; e < len; e += 2)
        v[e] = -v[e];
}

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = e;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[reverse(i, 7)] * 2;

    /* Host reads a doall's result and writes single elements. */
    long bias = b[1] + b[N - 1];
    a[0] = 1000;
    a[N - 1] = -1000;
    b[5] = 55555;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[i ^ 1] + b[i ^ 4] + bias;

    /* Host rewrites a whole array, then changes one through a pointer. */
    for (int e = 0; e < N; e++)
        a[e] = c[e] % 1000;
    negate_odd(b, N);

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[N - 1 - i] - b[i];

    /* memcpy and memset on distributed arrays. */
    memcpy(b, c, sizeof b);
    memset(a, 0, sizeof a / 2);
    long *p = &c[N / 2];
    p[0] = 77;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] += b[i ^ 64] + c[i];

    long sum = 0;
    for (int e = 0; e < N; e++) {
        printf("%3d %ld %ld %ld\n", e, a[e], b[e], c[e]);
        sum += (e + 1) * (a[e] + 3 * b[e] + 7 * c[e]);
    }
    printf("bias %ld, weighted sum %ld\n", bias, sum);
    return 0;
}
