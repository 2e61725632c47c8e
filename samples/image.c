// e2e: dims 2-8
/*
 * image.c: Hou et al. 2001, Example 5 -- the image-processing subroutines whose
 * communications are a set of LCCs.  A 16 x 16 image of 8-bit pixels on
 * the 8-cube, pixel (px, py) on node py * 16 + px: img[py][px] flattened
 * row-major.  Iteration i computes output pixel (px, py) = (i & 15, i >> 4)
 * on its own node and reads the input pixel it comes from:
 *
 *   1. reflect on the diagonal       y = A1 x             (Example 3)
 *      reflect on py = 15 - px       y = A1 x + 11111111
 *      rotate 90 degrees clockwise   y = A1 x + 11110000
 *      rotate 90 degrees counter     y = A1 x + 00001111
 *   2. reflect on a vertical line    y = I x + 11110000
 *      reflect on a horizontal line  y = I x + 00001111
 *      rotate 180 degrees            y = I x + 11111111
 *   3. scale the lower-left 8 x 8 subimage by 2 along both axes: each of
 *      its pixels goes to four positions, the LCS x = A y of rank 6
 *      printed in the paper (a scatter, Definition 4);
 *   4. the bit-reverse of the 256 pixels (1-D FFT)  y = A3 x (Example 1)
 *   5. the bit-reverse of each row and of each column (2-D FFT).
 *
 * Each input pixel holds its own node number, so every output pixel shows
 * (in hex: row digit, column digit) where it came from.  Section 5
 * (Example 6) maps all of them at once.  The images are named block so
 * that the file also translates for --dim 2..7 (rows of pixels per
 * processor); on the 8-cube block and exact are the same layout.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(8)

typedef unsigned char pixel;

pixel img[16][16];
pixel diag[16][16], anti[16][16], cw[16][16], ccw[16][16];
pixel vert[16][16], horiz[16][16], r180[16][16], scale[16][16];
pixel fft[16][16], rows[16][16], cols[16][16];
#pragma hyperdo distribute(img, diag, anti, cw, ccw, vert, horiz, r180 : block)
#pragma hyperdo distribute(scale, fft, rows, cols : block)

static void show(const char *name, pixel m[16][16])
{
    unsigned long sum = 0;
    printf("%s\n", name);
    for (int py = 0; py < 16; py++) {
        for (int px = 0; px < 16; px++) {
            printf("%s%02x", px ? " " : "  ", m[py][px]);
            sum += (unsigned long)(py * 16 + px + 1) * m[py][px];
        }
        printf("\n");
    }
    printf("  checksum %lu\n", sum);
}

int main(void)
{
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++)
            img[py][px] = (pixel)(py * 16 + px);

    /* 1. Reflections on the diagonals and rotations by 90 degrees. */
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

    /* 2. Reflections on a vertical and a horizontal line, rotation by 180. */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        vert[i >> 4][i & 15] = img[i >> 4][15 - (i & 15)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        horiz[i >> 4][i & 15] = img[15 - (i >> 4)][i & 15];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        r180[i >> 4][i & 15] = img[15 - (i >> 4)][15 - (i & 15)];

    /* 3. Output pixel (px, py) takes input pixel (px / 2, py / 2). */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        scale[i >> 4][i & 15] = img[(i >> 4) >> 1][(i & 15) >> 1];

    /* 4. and 5. The bit-reverses of a 1-D and a 2-D FFT. */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        fft[i >> 4][i & 15] = img[reverse(i, 8) >> 4][reverse(i, 8) & 15];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        rows[i >> 4][i & 15] = img[i >> 4][reverse(i & 15, 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        cols[i >> 4][i & 15] = img[reverse(i >> 4, 4)][i & 15];

    show("reflect on the diagonal", diag);
    show("reflect on py = 15 - px", anti);
    show("rotate 90 degrees clockwise", cw);
    show("rotate 90 degrees counterclockwise", ccw);
    show("reflect on a vertical line", vert);
    show("reflect on a horizontal line", horiz);
    show("rotate 180 degrees", r180);
    show("scale the lower-left 8 x 8 by 2", scale);
    show("bit-reverse (1-D FFT)", fft);
    show("bit-reverse of each row", rows);
    show("bit-reverse of each column", cols);

    /* Pixel (px, py) = (1, 2) is 0x21: where each operation put it. */
    int ok = diag[1][2] == 0x21 && anti[14][13] == 0x21 && cw[1][13] == 0x21
             && ccw[14][2] == 0x21 && vert[2][14] == 0x21
             && horiz[13][1] == 0x21 && r180[13][14] == 0x21
             && scale[4][3] == 0x21 && scale[5][2] == 0x21
             && fft[8][4] == 0x21 && rows[2][8] == 0x21 && cols[4][1] == 0x21;
    printf("pixel (1, 2) %s\n", ok ? "in place everywhere" : "MISPLACED");
    return !ok;
}
