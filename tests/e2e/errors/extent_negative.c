// e2e-error: dims 1-4
// stderr: extent_negative.c:15: 'v' (extent(n - 8)): the extent of 'v' is -3
/*
 * An extent that comes out negative when the doall runs: the program
 * means a vector of n - 8 elements, which for n = 5 is none, and the
 * loop runs no iteration, but no array has -3 elements: the translated
 * program stops before the doall, naming the pragma and the value.
 */
#include <stdio.h>

static double buf[16];

static void fill(int n, double *v)
{
#pragma hyperdo distribute(v : block) extent(n - 8)
#pragma hyperdo doall
    for (int i = 0; i < n - 8; i++)
        v[i] = i;
}

int main(void)
{
    fill(16, buf);
    printf("%g\n", buf[7]);
    fflush(stdout);
    fill(5, buf);
    printf("%g\n", buf[0]);
    return 0;
}
