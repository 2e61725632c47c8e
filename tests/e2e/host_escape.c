// e2e: dims 1-6
/*
 * The host's copies of distributed arrays where the sequential code uses
 * them in ways a statement-by-statement view cannot see (docs/codegen.md,
 * "Arrays whose address escapes"): a pointer into x kept across doalls, x
 * passed to a function, y in the condition of a loop that holds a doall,
 * an if/else without braces around a doall, and a goto to a label whose
 * statement reads z.
 */
#include <stdio.h>

#define N 64

double x[N], y[N], z[N], w[N];
#pragma hyperdo distribute(x, y, z, w : cyclic)

static double total(const double *v)
{
    double s = 0;
    for (int e = 0; e < N; e++)
        s += v[e] * (e + 1);
    return s;
}

static void bump(double *v, int e)
{
    v[e] += 1000;
}

int main(void)
{
    double *p = x + 3;              /* x's address escapes */
    for (int e = 0; e < N; e++) {
        x[e] = e;
        y[e] = 0;
        z[e] = 2 * e;
        w[e] = 0;
    }
    int rounds = 0;
    while (y[5] < 40) {             /* y read between doalls */
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            y[i] = y[i] + x[i ^ 1] + 1;
        *p += 1;                    /* through the pointer: x[3] */
        rounds++;
    }
    printf("rounds %d, y[5] %g, x[3] %g\n", rounds, y[5], x[3]);
    bump(x, 7);
    if (rounds > 2)
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            w[i] = x[(i + 3) & (N - 1)] * 2;
    else
        w[0] = -1;
    printf("w: %g %g %g\n", w[0], w[4], total(w));
    int tries = 0;
again:
    z[tries] += w[tries];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        z[i] = z[i] + y[N - 1 - i];
    if (++tries < 3)
        goto again;
    printf("z: %g %g %g\n", z[0], z[1], total(z));
    printf("x: %g y: %g\n", total(x), total(y));
    return 0;
}
