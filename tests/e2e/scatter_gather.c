// e2e: dims 1-7
/*
 * Scatters (several destinations read one source element, Definition 4:
 * an LCS x = A y + b) and gathers (several sources send to one destination,
 * an LCG: the home is not onto, some processors write nothing; see
 * docs/annotations.md, "Scatters and gathers under owner computes").
 *   b[i] = a[i >> 1]      each a[j] read by 2 iterations
 *   b[i] = a[i >> 4]      by 16
 *   b[i] = a[i & ~7]      the first of each group of 8, to its group
 *   b[i] = a[5]           a broadcast
 *   packed[i] = v[i]      128 iterations writing the lower half of a block-
 *                         distributed 256-element array from a cyclic one
 *   top[i << 1] = v[i]    every second element of a cyclic array
 */
#include <stdio.h>

#define N 128

int a[N], b[N], c[N], d[N], e5[N], v[N];
#pragma hyperdo distribute(a, b, c, d, e5, v : cyclic)
int packed[2 * N];
#pragma hyperdo distribute(packed : block)
int top[2 * N];
#pragma hyperdo distribute(top : cyclic)

static long dump(const char *name, const int *w, int len)
{
    long sum = 0;
    printf("%s:", name);
    for (int e = 0; e < len; e++) {
        printf("%s%d", e % 32 ? " " : "\n  ", w[e]);
        sum += (e + 1) * (long)w[e];
    }
    printf("\n  weighted sum %ld\n", sum);
    return sum;
}

int main(void)
{
    for (int e = 0; e < N; e++) {
        a[e] = 3 * e + 1;
        v[e] = 1000 - e;
    }
    for (int e = 0; e < 2 * N; e++)
        packed[e] = top[e] = -1;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i >> 1];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[i >> 4] + b[i >> 1];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = a[i & ~7] - c[i | 7];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        e5[i] = a[5] * (i & 3) + d[N - 1];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        packed[i] = v[i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        top[i << 1] = v[i] + packed[i >> 2];

    dump("b", b, N);
    dump("c", c, N);
    dump("d", d, N);
    dump("e5", e5, N);
    dump("packed", packed, 2 * N);
    dump("top", top, 2 * N);
    return 0;
}
