// e2e: dims 1-7
/*
 * A doall inside a function called several times, with different
 * arguments (read in the body as outer scalars) and from a loop; a second
 * function with a doall calls nothing but is called from the first's
 * caller between calls.  The doall must run once per call, with that
 * call's values.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 128

double u[N], w[N];
#pragma hyperdo distribute(u, w : block)

static void axpy(double alpha, double beta)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        w[i] = alpha * u[i ^ 64] + beta * w[i];
}

static void swap_halves(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        u[i] = w[reverse(i, 7)];
}

int main(void)
{
    for (int e = 0; e < N; e++) {
        u[e] = e % 13;
        w[e] = 1.0 / (e + 1);
    }
    axpy(2.0, 1.0);
    axpy(-0.5, 3.0);
    for (int round = 1; round <= 4; round++) {
        swap_halves();
        axpy(round, 1.0 / round);
    }
    double sum = 0.0;
    for (int e = 0; e < N; e++) {
        printf("%3d %.17g %.17g\n", e, u[e], w[e]);
        sum += (e + 1) * (u[e] + 2 * w[e]);
    }
    printf("weighted sum %.17g\n", sum);
    return 0;
}
