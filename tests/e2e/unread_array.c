// e2e: dims 1-4
/*
 * Distributed arrays that the body names only under a guard that never
 * holds (c > 2 with c = 1, known when translating), one of them inside
 * the index of another: no iteration reads them, so the node function must
 * not leave their slice pointers unused (a translation that did failed
 * under -Werror; found by tools/difftest).
 */
#include <stdio.h>

#define N 32

int a[N], b[N], q[N], r[N];
#pragma hyperdo distribute(a, b, q, r : block)

int main(void)
{
    const int c = 1;
    int hi = 10;   /* not a constant: clang would call the test tautological */
    for (int e = 0; e < N; e++)
        q[e] = e % 5, r[e] = e;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = c > 2 ? r[q[(i * 7) & (N - 1)]] : i * 3;
    /* A read under a guard that no iteration satisfies, whose second
     * operand reads distributed data. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = ((i > 20 && i < hi) && q[i ^ 3] > 0) ? r[(i * 5) & (N - 1)] : a[i] + q[i ^ 3];
    long s = 0;
    for (int e = 0; e < N; e++)
        s += (long)(a[e] + 2 * b[e]) * (e + 1);
    printf("%ld\n", s);
    return 0;
}
