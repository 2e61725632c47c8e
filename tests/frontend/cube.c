/*
 * #pragma hyperdo cube(3): a 3-cube although the loops have 16 and 8
 * iterations.  a and b have 16 > 2^3 elements and are distributed
 * cyclically (element e on processor e mod 8, the low 3 bits); v and w
 * have exactly 2^3 elements (element e on processor e).
 *   b[i] = a[i ^ 8]         only bit 3 changes, which no owner sees: local,
 *                           no message;
 *   b[i] = a[i ^ 1]         y = I x + 100;
 *   b[i] = a[reverse(i, 4)] source bits (i3, i2, i1), destination bits
 *                           (i0, i1, i2): neither determines the other, and
 *                           both cover all processors: general;
 *   b[i] = v[i & 7]         v's owner is i & 7 too: local;
 *   w[i] = v[reverse(i, 3)] on the exactly-2^3 arrays: the 3-bit
 *                           bit-reverse, T = (1,0,1) (dimension 1 is fixed).
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(3)

double a[16], b[16];
#pragma hyperdo distribute(a, b : cyclic)
double v[8], w[8];

int main(void)
{
    for (int i = 0; i < 16; i++)
        a[i] = i;
    for (int i = 0; i < 8; i++)
        v[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[i ^ 8];
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] += a[i ^ 1];
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] += a[reverse(i, 4)];
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] += v[i & 7];
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        w[i] = v[reverse(i, 3)];
    printf("%g %g\n", b[1], w[1]);
    return b[1] == 9 + 0 + 8 + 1 && w[1] == 4 ? 0 : 1;
}
