// e2e: dims 4-4
/*
 * Exact layout: arrays of exactly 2^4 elements named in no distribute
 * pragma live element e on processor e, so they are distributed only on
 * the 4-cube (on any other cube they would be replicated, and writing one
 * in a doall an error).  One element per processor; an LCP, a complement,
 * a broadcast (a constant index) and a local read.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(4)

int a[16], b[16], c[16], d[16];

int main(void)
{
    for (int e = 0; e < 16; e++)
        a[e] = 10 * e + 1;

#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[reverse(i, 4)];

#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        c[i] = b[15 - i] + a[i];

#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        d[i] = c[i] * a[5];

    for (int e = 0; e < 16; e++)
        printf("%2d: a %3d  b %3d  c %3d  d %6d\n", e, a[e], b[e], c[e], d[e]);
    return 0;
}
