/*
 * Seed 000, Section 6.2: the parallel FFT's data layout with n = 3, d = 1:
 * m = 2^(n+2d) = 32 points, point e on processor [e_d .. e_{n+d-1}] =
 * bits 1..3 of e, i.e. block_cyclic(2^d) with blocks of 2 points.
 *   y[i] = x[reverse(i, 5)]   the bit-reverse of 32 points is the
 *                             bit-reverse of the 3 processor bits: y = A x,
 *                             A the 3 x 3 anti-diagonal, T = (1,0,1);
 *   stage s butterflies read x[i ^ (1 << s)]: stage 0 (and 4) stay inside a
 *   processor (the first and last d stages need no communication); stages
 *   1, 2, 3 are neighbour exchanges at dimensions 0, 1, 2 (y = x + e_{s-1}).
 * Also cyclic and block layouts of 32 elements on the same 3-cube.
 */
#include <math.h>
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(3)

double x[32], y[32];
#pragma hyperdo distribute(x, y : block_cyclic(2))
double cx[32], cy[32];
#pragma hyperdo distribute(cx, cy : cyclic)
double kx[32], ky[32];
#pragma hyperdo distribute(kx, ky : block)

int main(void)
{
    for (int i = 0; i < 32; i++)
        x[i] = cx[i] = kx[i] = sin(i);
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        y[i] = x[reverse(i, 5)];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        x[i] = y[i] + y[i ^ 1];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        y[i] = x[i] - x[i ^ 2];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        x[i] = y[i] + y[i ^ 4];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        y[i] = x[i] - x[i ^ 8];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        x[i] = y[i] + y[i ^ 16];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        cy[i] = cx[(i & 24) | reverse(i & 7, 3)];
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        ky[i] = kx[i ^ 16];
    printf("%g %g %g\n", x[0], cy[1], ky[0]);
    return cy[1] == cx[4] && ky[0] == kx[16] ? 0 : 1;
}
