// e2e-error: dims 1-6
// stderr: extent_short.c:20:9: 'x[i]' (i = 0 .. n - 1): element 14 is outside the array's 10 elements
/*
 * A pointer named with an extent smaller than the loop's range: the
 * sequential program writes past the 10 elements the pragma says x has
 * (into memory it owns: the buffer is larger), which the translation
 * cannot follow, so the translated program must stop before the doall,
 * naming the write and the first element outside.
 */
#include <stdio.h>
#include <stdlib.h>

static void scale(int n, int m, double *x)
{
    if (m < 0)
        return;
#pragma hyperdo distribute(x : cyclic) extent(m)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        x[i] = 3 * x[i];
}

int main(void)
{
    double *x = calloc(20, sizeof *x);
    for (int e = 0; e < 20; e++)
        x[e] = e;
    scale(10, 10, x);
    printf("%g %g\n", x[1], x[9]);
    fflush(stdout);
    scale(15, 10, x);
    printf("%g %g\n", x[1], x[14]);
    free(x);
    return 0;
}
