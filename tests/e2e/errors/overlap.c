// e2e-error: dims 1-6
// stderr: overlap.c:22:5: the doall writes 'y', whose 10 elements overlap the 10 of 'x' in memory (element 0 of 'y' is element 1 of 'x')
/*
 * axpy over pointer parameters, called with x and x + 1 (item 7 of issue
 * 17: overlapping parameter arrays at run time).  Sequentially y[i] = a
 * x[i] + y[i] then reads, at i + 1, the x[i + 1] that iteration i wrote:
 * a recurrence, not a doall.  The translation gives x and y copies of
 * their own on the processors, as the analysis assumes of distinct
 * arrays, so the translated program must stop at the call, naming the
 * loop and the two arrays, after the calls before it printed their
 * results.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 11

static void axpy(int n, double a, const double *x, double *y)
{
#pragma hyperdo distribute(x, y : block) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(void)
{
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int e = 0; e < N; e++) {
        x[e] = e;
        y[e] = 1;
    }
    axpy(N, 2.0, x, y);          /* apart: fine */
    axpy(5, 1.0, x + 6, x);      /* x[0 .. 4] and x[6 .. 10]: apart */
    for (int e = 0; e < N; e++)
        printf("%g %g\n", x[e], y[e]);
    fflush(stdout);
    axpy(N - 1, 1.0, x, x + 1);  /* overlapping: stops */
    for (int e = 0; e < N; e++)
        printf("%g\n", x[e]);
    free(x);
    free(y);
    return 0;
}
