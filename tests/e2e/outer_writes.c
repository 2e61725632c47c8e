// e2e: dims 1-4
/*
 * Writes whose element depends on outer variables (unknown when
 * translating, the same at every iteration), as the tools/difftest
 * campaigns of 2026-11-25 generated them: a member of an outer structure
 * in the index, one element written twice, two arrays laid out alike
 * written at the same index, and an element read before and after the
 * same iteration writes it.  Each was refused before (false refusals):
 * "its owner cannot run the iteration", "written by the same iteration but
 * live on different processors", "cannot check that ... reads no element
 * ... that an earlier iteration writes".
 */
#include <stdio.h>

#define N 32

struct params { int s; double w; };

int a[N], b[N], x[N], y[N];
struct params PR = { 5, 0.5 };
#pragma hyperdo distribute(a, b, x, y : block)

static void run(int r)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i ^ PR.s] = b[i] * 2 + i;
#pragma hyperdo doall
    for (int j = 0; j < N; j++) {
        x[j ^ r] = a[j] + 1;
        y[j ^ r] = x[j ^ r] * 3;     /* reads what this iteration wrote */
        x[j ^ r] = y[j ^ r] - a[j ^ 1];
    }
#pragma hyperdo doall
    for (int j = 0; j < N; j++) {
        int old = b[(j + PR.s) & (N - 1)];
        b[(j + PR.s) & (N - 1)] = old + x[j];
        b[(j + PR.s) & (N - 1)] += y[j ^ 2];
    }
}

int main(void)
{
    for (int e = 0; e < N; e++)
        b[e] = e * 7 % 11;
    run(3);
    PR.s = 12;
    run(17);
    long s = 0;
    for (int e = 0; e < N; e++)
        s += (long)(a[e] + 2 * b[e] + 3 * x[e] - y[e]) * (e + 1);
    printf("%ld\n", s);
    return 0;
}
