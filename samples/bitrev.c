// e2e: dims 2-8
/*
 * bitrev.c: the parallel loop of Hou et al. 2001, Section 3, Fig. 1a, as an
 * ordinary C11 program.
 *
 *     real b[2^n], r[2^n]
 *     doall i = 0 to 2^n - 1 do  b[i] = r[reverse(i, n)]  enddo
 *
 * 256 elements on the 8-cube (cube(8)): b[i] and r[i] live on processor
 * P_i (exactly 2^8 elements each, not named in a distribute pragma), and
 * iteration i runs there too.  The read r[reverse(i, 8)] is the bit-reverse
 * y = A x of Example 1 (A the 8 x 8 anti-diagonal, an LCP and a BPC):
 * channel contention T = (1,2,4,8,8,4,2,1) under e-cube routing, 1 after
 * the reordering mapping of Fig. 3 (Corollary 1).  See docs/samples.md.
 *
 * The arrays are also named in a cyclic distribute pragma so that the same
 * file translates for smaller cubes (--dim 2..8, several elements per
 * processor); on the 8-cube cyclic and exact are the same layout.
 *
 * Build and run sequentially:
 *     cc -std=c11 -Wno-unknown-pragmas -I../runtime/include bitrev.c -o bitrev
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(8)

#define N 8

double b[1 << N], r[1 << N];
#pragma hyperdo distribute(b, r : cyclic)

int main(void)
{
    /* r[e] = 1000 + e, so b[i] shows which element it received. */
    for (int e = 0; e < 1 << N; e++)
        r[e] = 1000 + e;

#pragma hyperdo doall
    for (int i = 0; i < 1 << N; i++)
        b[i] = r[reverse(i, N)];

    /* Every element, 16 per line, and a position-weighted checksum. */
    unsigned long sum = 0;
    for (int i = 0; i < 1 << N; i++) {
        printf("%s%4.0f", i % 16 ? " " : "", b[i]);
        if (i % 16 == 15)
            printf("\n");
        sum += (unsigned long)(i + 1) * (unsigned long)b[i];
    }
    int bad = 0;
    for (int i = 0; i < 1 << N; i++)
        bad += b[reverse((unsigned long)i, N)] != 1000 + i;
    printf("checksum %lu, %d misplaced\n", sum, bad);
    return bad != 0;
}
