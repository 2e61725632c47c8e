// e2e: dims 2-8
/*
 * transpose.c: the matrix transpose of Hou et al. 2001, Example 3 and Section 6.1,
 * on a 16 x 16 matrix flattened row-major into 256 elements on the 8-cube:
 * element 16 r + c lives on processor 16 r + c, so node
 * x = [x_0 .. x_7]^t (column in the low half, row in the high half) sends
 * to y = [x_4 x_5 x_6 x_7 x_0 x_1 x_2 x_3]^t.  An LCP and a BPC with
 * T = (1,2,4,8,8,4,2,1) before mapping and 1 after (Corollary 1).
 *
 * Two loops: the transpose written with shifts and masks, and back with
 * the transpose() helper of <hyperdo/bits.h>; both are the same LCC, and
 * the second must give the original matrix back.  Named cyclic so that
 * the file also translates for --dim 2..7.  See docs/samples.md.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(8)

#define R 16 /* rows = columns */

double m[R * R], t[R * R], back[R * R];
#pragma hyperdo distribute(m, t, back : cyclic)

int main(void)
{
    /* m[16 r + c] = 100 r + c shows the row and the column. */
    for (int r = 0; r < R; r++)
        for (int c = 0; c < R; c++)
            m[R * r + c] = 100 * r + c;

    /* t[r][c] = m[c][r]: iteration i = 16 r + c reads element 16 c + r. */
#pragma hyperdo doall
    for (int i = 0; i < R * R; i++)
        t[i] = m[(i & (R - 1)) * R + (i >> 4)];

    /* And back again. */
#pragma hyperdo doall
    for (int i = 0; i < R * R; i++)
        back[i] = t[transpose(i, 8)];

    unsigned long sum = 0;
    int bad = 0;
    for (int i = 0; i < R * R; i++) {
        printf("%s%4.0f", i % R ? " " : "", t[i]);
        if (i % R == R - 1)
            printf("\n");
        sum += (unsigned long)(i + 1) * (unsigned long)t[i];
        bad += back[i] != m[i];
    }
    printf("checksum %lu, %d elements differ after transposing twice\n", sum, bad);
    return bad != 0;
}
