// e2e: dims 1-6
/*
 * Doalls whose communication is one processor to all or all to one, the
 * collectives of Stout and Wagar 1990 that translate --cost linkbound
 * writes for them (docs/collectives.md):
 *   g: a broadcast (every reader reads the same 256 elements of the last
 *      processor: BROADCAST);
 *   h: distributes from processor 0 and from the last one (two slot
 *      groups in one doall: direct messages, and translate's warning);
 *   d: a distribute alone (each reader its own elements: DISTRIBUTE);
 *   k: a collect (a doall of 256 iterations, all on processor 0, reading
 *      every processor's elements: COLLECT);
 *   m: an all-gather (every processor reads the same 256 elements spread
 *      over all of them: COMPLETE BROADCAST);
 *   q, r: a broadcast and a distribute in every coset of the subcube of
 *      index bits 10 and 11 (processor bits from n = 4 on, bit 11 alone at
 *      n = 3): each processor reads from the one with those bits clear;
 *   u: a collect in the same cosets (the doall's iterations live on the
 *      processors with those bits clear, each reading its coset's).
 * Translated with the link-bound and the default cost model, it must
 * print what the sequential program prints.
 */
#include <stdio.h>

#define N 16384

double a[N], d[N], g[N], h[N], k[N], m[N], q[N], r[N], u[N];
#pragma hyperdo distribute(a, d, g, h, k, m, q, r, u : block)

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
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        q[i] = a[i & ~(3 * (N / 16))] * 0.5;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[i] = a[(i & ~(3 * (N / 16)) & ~3) | ((i >> 10) & 3)] + 2;
#pragma hyperdo doall
    for (int i = 0; i < N / 4; i++)
        u[((i >> 10) << 12) | (i & 1023)] = a[((i >> 10) << 12) | ((i & 3) << 10) | (i & 1020)];
    double sd = 0, sg = 0, sh = 0, sk = 0, sm = 0, sq = 0, sr = 0, su = 0;
    for (int i = 0; i < N; i++) {
        sd += d[i] * (i % 3);
        sg += g[i] * (i % 13);
        sh += h[i] * (i % 11);
        sk += k[i] * (i % 7);
        sm += m[i] * (i % 5);
        sq += q[i] * (i % 17);
        sr += r[i] * (i % 19);
        su += u[i] * (i % 23);
    }
    printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", sd, sg, sh, sk, sm, sq, sr, su);
    return 0;
}
