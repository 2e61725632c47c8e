// e2e: dims 1-6
/*
 * exit(3) called from a function after a doall, with output still in the
 * stdio buffer (no newline at the end): exit flushes it, and the
 * translated program must stop all its processors and exit with 3 too.
 * The code after the call never runs.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 64

double a[N], b[N];
#pragma hyperdo distribute(a, b : cyclic)

static void finish(const double *v)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e + 1) * v[e];
    printf("weighted sum %.17g, exiting", sum);
    exit(3);
}

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = 1.0 / (e + 2);

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ 5] * a[(N - 1) ^ i];

    for (int e = 0; e < N; e++)
        printf("%2d %.17g\n", e, b[e]);
    finish(b);

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[i];
    printf("not reached\n");
    return 0;
}
