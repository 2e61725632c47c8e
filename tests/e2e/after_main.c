// e2e: dims 1-4
/*
 * Code that runs when main is done: an atexit handler that reads a
 * distributed array after main returns (the processors have stopped by
 * then, so the array must have come home before), and a main that calls
 * itself (through its prototype), running the doall at each depth.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 32

double a[N], b[N];
#pragma hyperdo distribute(a, b : cyclic)

int main(void);

static int depth;

static void report(void)
{
    double s = 0;
    for (int e = 0; e < N; e++)
        s += a[e] * (e + 1);
    printf("at exit: %.17g\n", s);
}

int main(void)
{
    if (depth == 0) {
        atexit(report);
        for (int e = 0; e < N; e++)
            b[e] = e * 0.5;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[i ^ 3] + b[(N - 1) ^ i] * 0.25;
    for (int e = 0; e < N; e++)
        b[e] = a[e] - depth;
    if (++depth < 4) {
        int inner = main();
        printf("depth %d returned %d\n", depth, inner);
        return inner + 1;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[i] * 2.0;
    printf("main done at depth %d\n", depth);
    return 0;
}
