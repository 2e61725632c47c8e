/*
 * Every helper of hyperdo/bits.h as an index on an 8-cube:
 *   reverse(i, 8)    Example 1's bit-reverse;
 *   rotl(i, 3, 8)    y_t = x_{(t+3) mod 8} (the source is i rotated left);
 *   rotr(i, 2, 8)    y_t = x_{(t-2) mod 8};
 *   shuffle(i, 8)    = rotl(i, 1, 8);
 *   unshuffle(i, 8)  = rotr(i, 1, 8);
 *   transpose(i, 8)  Example 3's transpose;
 *   bit(i, 3)        elements 0 and 1 only: the LCS x_0 = y_3, rank 1;
 *   reverse(i, 4)    the bits above 4 are dropped: the LCS x_t = y_{3-t}
 *                    for t < 4, rank 4;
 *   (bit(i, 7) | (i << 1)) & 255  a shuffle built from bit().
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double a[256], h1[256], h2[256], h3[256], h4[256], h5[256], h6[256],
    h7[256], h8[256], h9[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h1[i] = a[reverse(i, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h2[i] = a[rotl(i, 3, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h3[i] = a[rotr(i, 2, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h4[i] = a[shuffle(i, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h5[i] = a[unshuffle(i, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h6[i] = a[transpose(i, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h7[i] = a[bit(i, 3)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h8[i] = a[reverse(i, 4)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        h9[i] = a[(bit(i, 7) | (i << 1)) & 255];
    for (int i = 0; i < 256; i++)
        if (h4[i] != h9[i])
            return 1;
    printf("%g %g %g %g %g %g %g %g\n", h1[1], h2[1], h3[1], h4[128], h5[1],
           h6[1], h7[8], h8[0x31]);
    return h1[1] == 128 && h2[1] == 8 && h3[1] == 64 && h4[128] == 1
           && h5[1] == 128 && h6[1] == 16 && h7[8] == 1 && h8[0x31] == 8
           ? 0 : 1;
}
