// e2e: dims 1-6
/*
 * cshift.c: a cyclic shift, b[i] = a[(i + 1) & (N - 1)] -- the general,
 * non-affine communication of docs/annotations.md: '+' may carry between
 * the bits of i, so the index is not GF(2)-affine and the analyzer keeps
 * it as a general communication (a processor exchanges elements with
 * several partners) that the mapping optimizer of Hou et al. 2001, Section 5,
 * does not weigh.  Linear-complement communications are the paper's
 * subject; a shift is the everyday stencil that is not one.
 *
 * 64 elements on the 3-cube (cube(3)), 8 per processor: a and b cyclic
 * (element e on processor e mod 8, so every element moves, to processor
 * p - 1 mod 8), c and d block (element e on processor e / 8, so only the
 * first element of each block moves).  A sequential loop shifts a and b
 * back and forth (15 shifts by one), then c is shifted by 5 into
 * d: b[i] must then hold the original a[(i + 15) mod 64].
 */
#include <stdio.h>

#pragma hyperdo cube(3)

#define N 64

long a[N], b[N];
#pragma hyperdo distribute(a, b : cyclic)
long c[N], d[N];
#pragma hyperdo distribute(c, d : block)

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = c[e] = 1000 + e * e;

    for (int round = 0; round < 8; round++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            b[i] = a[(i + 1) & (N - 1)];
        if (round < 7) {
#pragma hyperdo doall
            for (int i = 0; i < N; i++)
                a[i] = b[(i + 1) & (N - 1)];
        }
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d[i] = c[(i + 5) & (N - 1)];

    long sum = 0;
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        printf("%s%5ld", i % 8 ? " " : "", b[i]);
        if (i % 8 == 7)
            printf("\n");
        sum += (i + 1) * b[i] + 3 * (i + 1) * d[i];
        wrong += b[i] != c[(i + 15) % N] || d[i] != c[(i + 5) % N];
    }
    printf("checksum %ld, %d wrong\n", sum, wrong);
    return wrong != 0;
}
