// e2e: dims 1-6
/*
 * stencil_range.c: doall loops that do not run over exactly 0 .. 2^k - 1
 * (issue 17, item 4): a stencil over the interior 1 .. N - 2, a bound of
 * 100 (not a power of two) over arrays of 128, a start other than 0, and
 * bounds read at run time.  The iterations are those of 0 .. 2^k - 1
 * where lo <= i < hi holds, a guard like any other: a[i - 1] is never
 * read at i = 0, and elements outside the range keep their values.
 */
#include <stdio.h>

#define N 64
double a[N], b[N];
double u[128], v[128];
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo distribute(u, v : cyclic)

int main(void)
{
    int lo = 7, hi = 120;
    for (int i = 0; i < N; i++) {
        a[i] = i * i % 17;
        b[i] = -1;
    }
    for (int i = 0; i < 128; i++) {
        u[i] = i % 9;
        v[i] = -2;
    }
    for (int t = 0; t < 3; t++) {
#pragma hyperdo doall
        for (int i = 1; i < N - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
#pragma hyperdo doall
        for (int i = 1; i < N - 1; i++)
            a[i] = b[i];
    }
#pragma hyperdo doall
    for (int i = 0; i < 100; i++)
        v[i] = u[i] + u[i ^ 1];
    int i;
#pragma hyperdo doall
    for (i = lo; i < hi; i++)
        u[i] = v[i] * 2 + (i > 50 ? v[i ^ 64] : 0);
    /* A doall whose only effect is a reduction, over part of u: it runs
     * on the owners of u[k], the range its guard. */
    double total = 0;
#pragma hyperdo doall
    for (int k = 5; k < 50; k++)
        total += u[k] * (k & 3);
    printf("i = %d, total %g\n", i, total);
    for (int k = 0; k < N; k++)
        printf("%.4f ", a[k]);
    printf("\n");
    for (int k = 0; k < 128; k++)
        printf("%g ", u[k]);
    printf("\n");
    return 0;
}
