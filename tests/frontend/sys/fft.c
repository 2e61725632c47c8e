/*
 * A complete radix-2 FFT in the layout of Hou et al. 2001, Section 6.2: 2^(n+2d)
 * points with n = 3, d = 1 on a 3-cube, block-cyclic with blocks of 2^d
 * points.  The bit-reverse is one doall; each butterfly stage is a doall
 * inside the sequential stage loop (its partner i ^ (1 << s) depends on
 * the stage, so Hyperdo reports it as a general communication).  Complex
 * arithmetic is done on pairs of doubles; the twiddles come from a
 * replicated table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <hyperdo/bits.h>

#define PI 3.14159265358979323846

#pragma hyperdo cube(3)

#define LOGM 5
#define M (1 << LOGM)

static double xr[M], xi[M], yr[M], yi[M];
#pragma hyperdo distribute(xr, xi, yr, yi : block_cyclic(2))
static double twr[M / 2], twi[M / 2];

int main(void)
{
    for (int k = 0; k < M / 2; k++) {
        twr[k] = cos(-2.0 * PI * k / M);
        twi[k] = sin(-2.0 * PI * k / M);
    }
    for (int i = 0; i < M; i++) {
        xr[i] = i % 4 == 0 ? 1.0 : 0.0;
        xi[i] = 0.0;
    }
#pragma hyperdo doall
    for (int i = 0; i < M; i++) {
        yr[i] = xr[reverse(i, LOGM)];
        yi[i] = xi[reverse(i, LOGM)];
    }
    for (int s = 0; s < LOGM; s++) {
        int h = 1 << s;
#pragma hyperdo doall
        for (int i = 0; i < M; i++) {
            int upper = (i & h) != 0;
            int j = i & (h - 1);
            double wr = twr[j * (M / (2 * h))], wi = twi[j * (M / (2 * h))];
            double lr = yr[i & ~h], li = yi[i & ~h];
            double ur = yr[i | h], ui = yi[i | h];
            double tr = wr * ur - wi * ui, ti = wr * ui + wi * ur;
            xr[i] = upper ? lr - tr : lr + tr;
            xi[i] = upper ? li - ti : li + ti;
        }
        memcpy(yr, xr, sizeof yr);
        memcpy(yi, xi, sizeof yi);
    }
    for (int k = 0; k < M; k++)
        printf("%2d: %6.3f %6.3f\n", k, yr[k], yi[k]);
    return 0;
}
