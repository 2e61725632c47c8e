/*
 * Seed 000, Example 3: the transpose of a 16 x 16 matrix stored one
 * element per processor of an 8-cube (element (row, col) at row * 16 +
 * col).  Four spellings of the same index, each the LCP y = A x of
 * Example 3, T = (1,2,4,8,8,4,2,1):
 *   bit fields joined by |, the same joined by + (no carry can occur),
 *   % / * by powers of two, and the transpose() helper of hyperdo/bits.h.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define ROWS 16

double a[ROWS * ROWS], t1[256], t2[256], t3[256], t4[256];

int main(void)
{
    for (int i = 0; i < ROWS * ROWS; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < ROWS * ROWS; i++)
        t1[i] = a[(i >> 4) | ((i & 15) << 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t2[i] = a[(i >> 4) + ((i & 15) << 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t3[i] = a[i % 16 * 16 + i / 16];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t4[i] = a[transpose(i, 8)];
    for (int i = 0; i < 256; i++)
        if (t1[i] != t2[i] || t1[i] != t3[i] || t1[i] != t4[i])
            return 1;
    printf("t[0x12] = %g\n", t1[0x12]);
    return t1[0x12] == 0x21 ? 0 : 1;
}
