// e2e: dims 1-8
/*
 * A program mapped for the omega network (Wu 1984): the permutations of
 * Wu's Table I and Section 2.2 read through owner computes, one element
 * per processor (the cube is the loops' 2^k iterations, or --dim).  The
 * pragma below makes translate choose the linear processor mapping F with
 * the fewest passes (docs/omega.md), so every communication runs between
 * processors renamed by a matrix, not by a reordering of address bits:
 * the program must still print what it prints sequentially.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo network(omega)

#define LOGN 8
#define N (1 << LOGN)

double a[N], b[N], c[N], d[N];
#pragma hyperdo distribute(a, b, c, d : cyclic)

static void dump(const char *name, const double *v)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e + 1) * v[e];
    printf("%s: %g %g %g ... weighted sum %.17g\n", name, v[0], v[1], v[N - 1], sum);
}

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = e * 0.5 - 3;

    /* Perfect shuffle (Definition 2.1): a cyclic rotation of the bits. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[rotl(i, 1, LOGN)];

    /* Bit reversal (Definition 2.2) and the complement (vector reversal). */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = b[reverse(i, LOGN)] - a[i ^ (N - 1)];

    /* Matrix transpose of a 16 x 16 matrix stored by rows (Table I). */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = c[rotl(i, LOGN / 2, LOGN)] + b[i];

    /* A linear map that is no bit permutation: i XOR (i >> 1), the Gray
     * code, reads its element from another processor for every i > 0. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = d[i ^ (i >> 1)] * 0.5;

    dump("b", b);
    dump("c", c);
    dump("d", d);
    dump("a", a);
    return 0;
}
