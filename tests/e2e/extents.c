// e2e: dims 1-8
/*
 * Arrays of any extent under block, cyclic and block_cyclic (HPF's BLOCK
 * and CYCLIC, ScaLAPACK's block-cyclic; docs/annotations.md, "Arrays of
 * any extent"): 37 elements under block, 5 under cyclic (fewer than the
 * processors from the 3-cube on), a 6 x 10 matrix under block (its 60
 * elements, flattened; written as m[i / C][i % C], element i), 30
 * elements in blocks of 4 dealt out in turn, and a local array of 21
 * elements in a function called twice.  Reads cross the arrays (one
 * spread read from another's doall) and go through an index array; the
 * loops run over all of an array, or over its first elements only.  A
 * doall over a power-of-two block array (64 elements: a GF(2) layout up
 * to the 6-cube) reads spreads, and a doall over a spread reads it.
 * Every array is printed whole.
 */
#include <stdio.h>

#define N 37
#define R 6
#define C 10

double a[N], b[N], q[5];
long m[R][C], w[R][C];
int z[30], y2[30];
double big[64];
int perm[N];   /* replicated: read by every processor */
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo distribute(q : cyclic)
#pragma hyperdo distribute(m, w : block)
#pragma hyperdo distribute(z, y2 : block_cyclic(4))
#pragma hyperdo distribute(big : block)

static double local_pass(int seed)
{
    double t[21], s[21];
#pragma hyperdo distribute(t, s : cyclic)
    for (int e = 0; e < 21; e++)
        s[e] = (e * seed) % 23 - 11;
#pragma hyperdo doall
    for (int i = 0; i < 21; i++)
        t[i] = s[20 - i] * 2 + s[(i + seed) % 21] + a[i + 10];
    double sum = 0;
    for (int e = 0; e < 21; e++)
        sum += t[e] * (e + 1);
    return sum;
}

int main(void)
{
    for (int e = 0; e < N; e++) {
        b[e] = e * 1.5 - (e % 5);
        perm[e] = (e * 11 + 3) % N;
    }
    for (int e = 0; e < R * C; e++)
        w[e / C][e % C] = e * 3 % 11;
    for (int e = 0; e < 30; e++)
        y2[e] = e * e % 13;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[perm[i]] + b[i] * 0.5;
#pragma hyperdo doall
    for (int i = 0; i < 5; i++)
        q[i] = a[i * 7] + a[N - 1 - i];
#pragma hyperdo doall
    for (int i = 0; i < R * C; i++)
        m[i / C][i % C] = w[(i / C + 1) % R][i % C] - w[i / C][(i + 3) % C];
#pragma hyperdo doall
    for (int i = 0; i < 27; i++)
        z[i] = y2[29 - i] + y2[i] * 2 + (int)m[i % R][i % C];
    b[4] = -100;
#pragma hyperdo doall
    for (int i = 0; i < 11; i++)
        b[i] = a[i] + q[i % 5] + z[i * 2];
    double l1 = local_pass(3), l2 = local_pass(8);
#pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        big[i] = a[i % N] * 2 + (i < 30 ? z[i] : -1);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = big[63 - i] + big[i];

    for (int e = 0; e < N; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n" : "a: ", a[e]);
    for (int e = 0; e < N; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n" : "\nb: ", b[e]);
    printf("\nq:");
    for (int e = 0; e < 5; e++)
        printf(" %g", q[e]);
    for (int r = 0; r < R; r++) {
        printf("\nm[%d]:", r);
        for (int c = 0; c < C; c++)
            printf(" %ld", m[r][c]);
    }
    printf("\nz:");
    for (int e = 0; e < 30; e++)
        printf(" %d", z[e]);
    for (int e = 0; e < 64; e++)
        printf("%s%g", e % 16 ? " " : "\nbig: ", big[e]);
    printf("\nlocal passes %.17g %.17g\n", l1, l2);
    return 0;
}
