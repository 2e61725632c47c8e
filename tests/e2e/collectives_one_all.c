// e2e: dims 1-6
/*
 * Doalls whose communication is one processor to all or all to one, the
 * collectives of Stout and Wagar 1990 that translate --cost linkbound
 * writes for them (docs/collectives.md): a broadcast (every reader reads
 * the same 256 elements of the last processor: BROADCAST), distributes
 * (each reader its own elements of processor 0 and of the last one: two
 * slot groups, so direct messages and a warning), a distribute alone
 * (DISTRIBUTE), a collect (a doall
 * of 256 iterations, all on processor 0, reading every processor's
 * elements: COLLECT) and an all-gather (every processor reads the same
 * 256 elements spread over all of them: COMPLETE BROADCAST).  Translated
 * with the link-bound and the default cost model, it must print what the
 * sequential program prints.
 */
#include <stdio.h>

#define N 16384

double a[N], d[N], g[N], h[N], k[N], m[N];
#pragma hyperdo distribute(a, d, g, h, k, m : block)

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = (i * 7) % 1000 + 0.25;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        g[i] = a[(N - 1) ^ (i & (N / 64 - 1))] * 2 + i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        h[i] = a[i >> 6] - a[(N - 1) ^ (i >> 6)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = a[(N - 1) ^ (i >> 6)] + h[i];
#pragma hyperdo doall
    for (int i = 0; i < N / 64; i++)
        k[i] = a[i * 64] * 3;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        m[i] = a[(i & 255) << 6] + 0.5 * i;
    double sd = 0, sg = 0, sh = 0, sk = 0, sm = 0;
    for (int i = 0; i < N; i++) {
        sd += d[i] * (i % 3);
        sg += g[i] * (i % 13);
        sh += h[i] * (i % 11);
        sk += k[i] * (i % 7);
        sm += m[i] * (i % 5);
    }
    printf("%.17g %.17g %.17g %.17g %.17g\n", sd, sg, sh, sk, sm);
    return 0;
}
