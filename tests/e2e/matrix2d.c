// e2e: dims 2-8
/*
 * Two- and three-dimensional arrays, flattened row-major: m[r][c] of a
 * 16 x 16 matrix is element 16 r + c (Hou et al. 2001, Example 3's transpose,
 * Example 5's image).  The transpose with two subscripts, a row reversal,
 * a column rotation, the 2 x 2 blocks' swap, and a 4 x 8 x 8 array read
 * with three subscripts.  m and t cyclic, s block.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double m[16][16], t[16][16];
#pragma hyperdo distribute(m, t : cyclic)
int s[16][16];
#pragma hyperdo distribute(s : block)
short cube3[4][8][8], out3[4][8][8];
#pragma hyperdo distribute(cube3, out3 : cyclic)

int main(void)
{
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            m[r][c] = r * 100 + c + 0.5;
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 8; y++)
            for (int z = 0; z < 8; z++)
                cube3[x][y][z] = (short)(x * 1000 - y * 10 + z);

#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t[i >> 4][i & 15] = m[i & 15][i >> 4];

#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        s[i >> 4][i & 15] = (int)t[i >> 4][15 - (i & 15)] + (int)m[(i >> 4) ^ 8][i & 15];

#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        m[i >> 4][i & 15] = t[rotl(i >> 4, 1, 4)][i & 15] - s[(i >> 4) ^ 1][(i & 15) ^ 1];

#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        out3[i >> 6][(i >> 3) & 7][i & 7] = (short)(cube3[3 - (i >> 6)][i & 7][(i >> 3) & 7] + 1);

    long sum = 0;
    for (int r = 0; r < 16; r++) {
        for (int c = 0; c < 16; c++) {
            printf("%s%g|%g|%d", c ? " " : "", m[r][c], t[r][c], s[r][c]);
            sum += (16 * r + c + 1) * (long)(m[r][c] * 2 + t[r][c] * 4 + s[r][c]);
        }
        printf("\n");
    }
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 8; y++) {
            for (int z = 0; z < 8; z++) {
                printf("%s%d", z ? " " : "", out3[x][y][z]);
                sum += (64 * x + 8 * y + z + 1) * (long)out3[x][y][z];
            }
            printf("\n");
        }
    printf("weighted sum %ld\n", sum);
    return 0;
}
