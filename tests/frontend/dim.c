// args: --dim 6
/*
 * --dim 6 on the command line wins over #pragma hyperdo cube(5): a 6-cube.
 * a and b (256 elements) are distributed by blocks: element e on the
 * processor given by its high 6 bits, bits 2..7.
 *   b[i] = a[i ^ 3]     stays inside a block of 4: local;
 *   b[i] = a[i ^ 0x80]  bit 7 is owner bit 5: y = I x + 000001;
 *   b[i] = a[(i & 3) | (reverse(i >> 2, 6) << 2)]  the 6-bit bit-reverse
 *                       of the owners;
 *   b[i] = a[reverse(i, 8)]  owner bits (i5 .. i0) against (i2 .. i7):
 *                       general.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(5)

double a[256], b[256];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i ^ 3];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] += a[i ^ 0x80];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] += a[(i & 3) | (reverse(i >> 2, 6) << 2)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] += a[reverse(i, 8)];
    printf("%g\n", b[0]);
    return b[0] == 3 + 128 + 0 + 0 ? 0 : 1;
}
