/*
 * remaps.c — remaps between data mappings (Wu 1984, Section 1.2 and
 * Chapter 3) whose messages tests/codegen/node/node_test.c counts through
 * the simulation back end's report and HYPERDO_STATS, against a count made
 * from the mappings alone.  2^10 elements, the 2-, 3- or 4-cube (DIM, the
 * mappings depending on it).
 *
 *   array  layout  mappings, doall by doall (the remaps that move: *)
 *   x      block   F0 from the start, then identity (*)
 *   y      block   identity, F1 (*), F2 (*), identity (the doall writes
 *                  every element and reads none: only the layout changes)
 *   z      cyclic  identity, then F3 (*)
 *
 * The node test's copies of F0 .. F3 must be these.
 */
#include <stdio.h>

#define N 1024

double x[N], y[N], z[N], c[N];
#pragma hyperdo distribute(x, y : block)
#pragma hyperdo distribute(z, c : cyclic)
#if DIM == 2
#pragma hyperdo map(x : rows(3, 2) xor(1))
#elif DIM == 3
#pragma hyperdo map(x : rows(3, 6, 4) xor(2))
#else
#pragma hyperdo map(x : rows(3, 2, 12, 8) xor(5))
#endif

static double sum_of(int which)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e % 13 + 1) * (which == 0 ? y[e] : c[e]);
    return sum;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = i;
        z[i] = 3 * i + 1;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        y[i] = x[i] + 1;

#if DIM == 2
#pragma hyperdo map(y : rows(1, 3))
#elif DIM == 3
#pragma hyperdo map(y : rows(7, 2, 4) xor(5))
#else
#pragma hyperdo map(y : rows(15, 2, 4, 8) xor(9))
#endif
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = y[i] * 2;

#pragma hyperdo map(x : identity)
#if DIM == 2
#pragma hyperdo map(y : identity xor(2))
#elif DIM == 3
#pragma hyperdo map(y : rows(1, 3, 7) xor(1))
#else
#pragma hyperdo map(y : rows(1, 3, 7, 15))
#endif
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = x[i] + y[N - 1 - i];

#pragma hyperdo map(y : identity)
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        y[i] = z[i];
    printf("%.17g %.17g\n", sum_of(0), sum_of(1));

#if DIM == 2
#pragma hyperdo map(z : rows(2, 1) xor(3))
#elif DIM == 3
#pragma hyperdo map(z : rows(6, 3, 1))
#else
#pragma hyperdo map(z : rows(2, 1, 8, 4) xor(15))
#endif
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = z[i ^ 5];
    printf("%.17g\n", sum_of(1));
    return 0;
}
