/*
 * Seed 000, Example 5: a 16 x 16 image on an 8-cube, pixel (px, py) on node
 * py * 16 + px, i.e. img[py][px] flattened row-major.  Iteration i computes
 * the output pixel (px, py) = (i & 15, i >> 4) on its own node and reads
 * the input pixel it comes from:
 *   1. reflect on the diagonal        y = A1 x             (A1 = Example 3)
 *      reflect on py = 15 - px        y = A1 x + 11111111
 *      rotate 90 degrees clockwise    y = A1 x + 11110000
 *      rotate 90 degrees counter      y = A1 x + 00001111
 *   2. reflect on a vertical line     y = I x + 11110000
 *      reflect on a horizontal line   y = I x + 00001111
 *      rotate 180 degrees             y = I x + 11111111
 *   3. scale the lower-left 8 x 8 subimage by 2: each input pixel goes to
 *      four outputs, the LCS x = A y printed in the paper (rank 6);
 *   4. bit-reverse of the 256 pixels  y = A3 x             (Example 1)
 *   5. bit-reverse of each row, of each column: the two matrices printed.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double img[16][16];
double diag[16][16], anti[16][16], cw[16][16], ccw[16][16];
double vert[16][16], horiz[16][16], r180[16][16], scale[16][16];
double fft[16][16], rows[16][16], cols[16][16];

int main(void)
{
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++)
            img[py][px] = py * 16 + px;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        diag[i >> 4][i & 15] = img[i & 15][i >> 4];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        anti[i >> 4][i & 15] = img[15 - (i & 15)][15 - (i >> 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        cw[i >> 4][i & 15] = img[15 - (i & 15)][i >> 4];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        ccw[i >> 4][i & 15] = img[i & 15][15 - (i >> 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        vert[i >> 4][i & 15] = img[i >> 4][15 - (i & 15)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        horiz[i >> 4][i & 15] = img[15 - (i >> 4)][i & 15];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        r180[i >> 4][i & 15] = img[15 - (i >> 4)][15 - (i & 15)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        scale[i >> 4][i & 15] = img[(i >> 4) >> 1][(i & 15) >> 1];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        fft[i >> 4][i & 15] = img[reverse(i, 8) >> 4][reverse(i, 8) & 15];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        rows[i >> 4][i & 15] = img[i >> 4][reverse(i & 15, 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        cols[i >> 4][i & 15] = img[reverse(i >> 4, 4)][i & 15];
    /* Pixel (px, py) = (1, 2) is 33; check where each operation put it. */
    printf("%g %g %g %g %g %g %g %g\n", diag[1][2], anti[14][13], cw[1][13],
           ccw[14][2], vert[2][14], horiz[13][1], r180[13][14], scale[4][3]);
    return diag[1][2] == 33 && anti[14][13] == 33 && cw[1][13] == 33
           && ccw[14][2] == 33 && vert[2][14] == 33 && horiz[13][1] == 33
           && r180[13][14] == 33 && scale[4][3] == 33 && fft[8][4] == 33
           && rows[2][8] == 33 && cols[4][1] == 33 ? 0 : 1;
}
