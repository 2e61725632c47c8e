// e2e: dims 1-8
/*
 * Streams (docs/codegen.md): reads at i + c with c fixed during the loop
 * (a constant, or outer scalars), whose owners send them in increasing
 * order: positive and negative shifts, c + i, shifts through outer
 * variables that change between doalls (and are negative), under guards
 * every processor can compute, in block, cyclic and block-cyclic layouts,
 * two streams of two arrays in one doall, a stream and a slot group of
 * other arrays together, and a stream read in a guard.
 */
#include <stdio.h>

#define N 2048

double a[N], b[N], c[N], d[N];
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo distribute(c : cyclic)
#pragma hyperdo distribute(d : block_cyclic(8))
long w[N];
#pragma hyperdo distribute(w : block)

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (i * 13) % 31 - 7.5;
        c[i] = (i * 7) % 19;
        d[i] = (i % 23) * 0.5;
    }
    long total = 0;
    for (int s = -5; s <= 300; s += 61) {
        int off = s * 3;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            b[i] = (i + off >= 0 && i + off < N) ? a[i + off] : -1.0;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            w[i] = (long)((i >= s && i - s < N) ? c[i - s] + d[(i * 5) & (N - 1)] : 0) +
                   (i + 7 < N ? (long)d[7 + i] : 3) + (long)b[i];
        for (int i = 0; i < N; i += 37)
            total += w[i] * (i + 1);
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = i > 0 && a[i - 1] > 0 ? a[i - 1] * 2 : a[i];

    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += b[i] * (i % 9 + 1);
    printf("%ld %.17g\n", total, sum);
    return 0;
}
