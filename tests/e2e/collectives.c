// e2e: dims 1-6
/*
 * Doalls whose communication is a permutation of the processors, with
 * messages long enough that on the link-bound cost model (translate
 * --cost linkbound) a collective of Stout and Wagar 1990 is cheaper than
 * the direct messages: INVERSION for x -> x + (2^n - 1), PERMUTED SEND for
 * x -> x + b, whatever the plan's mapping makes of a bit permutation, and
 * COMPLETE EXCHANGE for a block -> cyclic redistribution (f, guarded, so
 * that the pairs' messages differ in size).
 * The ctest e2e.collectives translates it with --cost linkbound (the
 * collectives are written), e2e.collectives with the default cost model
 * too (direct messages): both must print what the sequential program
 * prints.  A guard makes the processors' messages differ in size.
 */
#include <stdio.h>

#define N 16384

double a[N], b[N], c[N], d[N], e[N], f[N];
#pragma hyperdo distribute(a, b, c, d, e : block)
#pragma hyperdo distribute(f : cyclic)

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = (i * 7) % 1000;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ (N - 1)] + 1;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[i ^ (N / 2 + N / 8)] * 2;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = (i & 3) != 1 ? b[i ^ (N - 1)] - a[i] : -1;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        e[i] = c[((i & 127) << 7) | (i >> 7)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f[i] = (i & 7) != 3 ? a[i] + b[i] : 0;
    double sb = 0, sc = 0, sd = 0, se = 0, sf = 0;
    for (int i = 0; i < N; i++) {
        sb += b[i] * (i % 13);
        sc += c[i] * (i % 11);
        sd += d[i] * (i % 7);
        se += e[i] * (i % 5);
        sf += f[i] * (i % 3);
    }
    printf("%.17g %.17g %.17g %.17g %.17g\n", sb, sc, sd, se, sf);
    return 0;
}
