// e2e: dims 1-6
/*
 * Floating-point reductions (docs/annotations.md, "Reductions").  A sum
 * is reassociated: the processors' partial sums (each over its own
 * iterations, in order) are combined in the order of the collective, so
 * the result may differ in the last bits from the sequential loop's.
 * The program therefore compares the doall's sum with a sequential sum
 * it computes itself and prints whether they agree within a relative
 * tolerance of 1e-12 (256 terms of magnitude at most 1 lose at most about
 * 256 * 2^-53 relative to their absolute sum); the sequential program
 * prints "agrees" trivially.  Minimum and maximum are exact in any order
 * and are printed exactly (%a), by ?: and by fmin/fmax, as are the sum and
 * the product of values whose partial results are all exact.
 */
#include <math.h>
#include <stdio.h>

#define N 256
double x[N];
float y[N];
#pragma hyperdo distribute(x, y : cyclic)

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = sin(i * 0.37) * cos(i * 1.3);
        y[i] = (float)((i * 7) % 19) - 6.0f;
    }
    double sum = 0, lo = INFINITY, hi = -INFINITY, lo2 = INFINITY, hi2 = -INFINITY;
    double halves = 0, pow2 = 1;
    float fsum = 0, fmx = -1000;
    long double lsum = 0;
#pragma hyperdo doall reduction(+: sum) reduction(min: lo) reduction(max: hi)
    for (int i = 0; i < N; i++) {
        sum += x[i] * x[i] - 0.25;
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
        lo2 = fmin(lo2, x[i] * 3);
        hi2 = fmax(x[i] * 3, hi2);
        halves += (double)y[i] * 0.5;                    /* exact: multiples of 1/2 */
        pow2 *= y[i] > 0 ? 2.0 : y[i] < 0 ? 0.5 : 1.0;  /* exact: powers of two */
        fsum += y[i];                                    /* exact: small integers */
        fmx = fmaxf(fmx, y[i]);
        lsum += (long double)y[i] / 4;                   /* exact: quarters */
    }
    double seq = 0;
    for (int i = 0; i < N; i++)
        seq += x[i] * x[i] - 0.25;
    double err = fabs(sum - seq), scale = 0;
    for (int i = 0; i < N; i++)
        scale += fabs(x[i] * x[i] - 0.25);
    printf("sum %.6f %s\n", seq, err <= 1e-12 * scale ? "agrees within 1e-12" : "DIFFERS");
    printf("min %a max %a\n", lo, hi);
    printf("fmin %a fmax %a\n", lo2, hi2);
    printf("halves %.1f pow2 %a fsum %.1f fmax %.1f lsum %.2Lf\n", halves, pow2, (double)fsum,
           (double)fmx, lsum);
    return 0;
}
