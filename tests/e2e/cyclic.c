// e2e: dims 1-8
/*
 * Cyclic layout with several elements per processor: 256 elements, element
 * e on processor e mod 2^n (so 2^(8-n) each).  Loops of 256 iterations
 * with affine reads of every kind of owner relation: local (i ^ 2^n
 * multiples change only local bits for small n), neighbour exchanges, a
 * bit-reverse and a complement, and a doall that reads and writes the
 * same array at the same element (a[i] += ...).
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 256

double a[N], b[N], c[N];
#pragma hyperdo distribute(a, b, c : cyclic)

static void dump(const char *name, const double *v)
{
    double sum = 0.0;
    printf("%s:", name);
    for (int e = 0; e < N; e++) {
        printf("%s%g", e % 16 ? " " : "\n  ", v[e]);
        sum += (e + 1) * v[e];
    }
    printf("\n  weighted sum %.17g\n", sum);
}

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = e * 0.25 - 7;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ 1] + a[i ^ 128];

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = b[reverse(i, 8)] - b[255 - i];

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] += c[i ^ 0x55] * 2;

    dump("a", a);
    dump("b", b);
    dump("c", c);
    return 0;
}
