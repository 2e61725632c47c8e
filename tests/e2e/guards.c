// e2e: dims 1-8
/*
 * Guarded reads (docs/annotations.md, "Guarded reads"): a read in the arm
 * of ?: that C does not evaluate, or after a && or || that decides the
 * value, must not be computed, requested or sent.  Each doall below is a
 * valid sequential program only because of that: the unevaluated reads
 * are out of bounds, or through a "no neighbour" sentinel.
 *
 *   - the Hillis-Steele prefix sum y[i] = i >= d ? x[i] + x[i - d] : x[i]
 *     (d an outer scalar, doubling each step; block layout);
 *   - an indirect gather with a sentinel: nbr[i] >= 0 ? val[nbr[i]] : 0;
 *   - a 1-D stencil with fixed ends: (i > 0 && i < N - 1) ? ... : b[i];
 *   - guards on distributed data on both sides of && and ||, nested ?:,
 *     guards through replicated arrays and outer scalars, and a guard that
 *     is false at run time around an index that would be out of bounds.
 */
#include <stdio.h>

#define N 4096

double x[N], y[N];
#pragma hyperdo distribute(x, y : block)
int nbr[N];
double val[N], out[N];
#pragma hyperdo distribute(nbr, out : block)
#pragma hyperdo distribute(val : cyclic)
double a[N], b[N];
#pragma hyperdo distribute(a, b : block_cyclic(4))
int c[N], p[N], q[N];
double w[N];
#pragma hyperdo distribute(c, p, q, w : cyclic)
int mask[64];   /* replicated */

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = (i * 37) % 101 - 50;
        nbr[i] = (i % 7 == 3) ? -1 : (i * 29 + 11) % N;
        val[i] = (i * 13) % 17 + 0.25;
        b[i] = (i * i) % 23;
        c[i] = (i * 7) % 11 - 5;
        p[i] = (i * 5 + 3) % N;
        q[i] = (i % 5 == 0) ? -1 : (i * 3 + 1) % N;
    }
    for (int k = 0; k < 64; k++)
        mask[k] = (k * 11) % 3 == 0;

    /* The prefix sum: log2 N doalls, each reading x[i - d] only where
     * i >= d; copying y back is a second doall. */
    for (int d = 1; d < N; d *= 2) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            y[i] = i >= d ? x[i] + x[i - d] : x[i];
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            x[i] = y[i];
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        out[i] = nbr[i] >= 0 ? val[nbr[i]] : 0.0;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = (i > 0 && i < N - 1) ? (b[i - 1] + b[i + 1]) / 2 : b[i];

    /* Guards on distributed data, on both sides of && and ||, nested. */
    int big = 1000000;
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double s = 0;
        s += (c[i] > 0 && q[i] >= 0) ? val[q[i]] + c[q[i]] : -1;
        s += (c[i] < -3 || q[i] < 0) ? 2 : c[q[i]] * 0.5;
        s += c[i ^ 1] > 0 ? (c[i ^ 2] > 0 ? c[p[i]] : c[i ^ 3]) : (i & 1 ? c[i ^ 5] : 0);
        s += mask[i & 63] ? c[(i + 17) & (N - 1)] : c[(i * 3) & (N - 1)];
        s += i > big ? c[i ^ 8192] : 0;   /* never read: out of bounds */
        s += (i & 4) && c[p[i]] > 2 ? 100 : 0;
        w[i] = s;
    }

    double sum = 0, osum = 0, asum = 0, wsum = 0;
    for (int i = 0; i < N; i++) {
        sum += x[i] * (i % 13 + 1);
        osum += out[i] * (i % 7 + 1);
        asum += a[i] * (i % 5 + 1);
        wsum += w[i] * (i % 3 + 1);
    }
    printf("prefix %.17g  last %.17g\n", sum, x[N - 1]);
    printf("gather %.17g  stencil %.17g  guards %.17g\n", osum, asum, wsum);
    for (int i = 0; i < N; i += 511)
        printf("%d: %g %g %g %g\n", i, x[i], out[i], a[i], w[i]);
    return 0;
}
