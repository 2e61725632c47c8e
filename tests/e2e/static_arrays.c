// e2e: dims 1-4
/*
 * Static arrays, at file scope and in a function, that only doalls use: the
 * translation's own code no longer names them (the node code uses their
 * slices), so it must not leave them unused under -Werror (found by
 * tools/difftest).  A local array beside them.
 */
#include <stdio.h>
#define N 16
static double a[N], b[N];
#pragma hyperdo distribute(a, b : block)
static void f(void)
{
    static int c[N];
    int d[N];
#pragma hyperdo distribute(c, d : cyclic)
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = i * 2;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = c[i ^ 3] + 1;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = d[i] * 0.5;
}
int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = i;
    f();
    printf("%g\n", b[5]);
    return 0;
}
