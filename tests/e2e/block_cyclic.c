// e2e: dims 1-6
/*
 * Block-cyclic layouts (Hou et al. 2001, Section 6.2): block_cyclic(2) on 128
 * elements (processor = bits 1 .. n of e) and block_cyclic(4) on 256
 * elements (bits 2 .. n+1), so up to the 6-cube.  Butterfly partners
 * inside a block (local), across blocks (neighbour exchanges), the
 * bit-reverse of the FFT, and copies between the two layouts.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double x[128], y[128];
#pragma hyperdo distribute(x, y : block_cyclic(2))
double u[256], v[256];
#pragma hyperdo distribute(u, v : block_cyclic(4))

static void dump(const char *name, const double *w, int len)
{
    double sum = 0.0;
    printf("%s:", name);
    for (int e = 0; e < len; e++) {
        printf("%s%.6g", e % 16 ? " " : "\n  ", w[e]);
        sum += (e + 1) * w[e];
    }
    printf("\n  weighted sum %.17g\n", sum);
}

int main(void)
{
    for (int e = 0; e < 128; e++)
        x[e] = (e * 37) % 101;
    for (int e = 0; e < 256; e++)
        u[e] = (e * 53) % 97 - 40;

#pragma hyperdo doall
    for (int i = 0; i < 128; i++)
        y[i] = x[reverse(i, 7)];
#pragma hyperdo doall
    for (int i = 0; i < 128; i++)
        x[i] = y[i] + y[i ^ 1];
#pragma hyperdo doall
    for (int i = 0; i < 128; i++)
        y[i] = x[i] - x[i ^ 8];
#pragma hyperdo doall
    for (int i = 0; i < 128; i++)
        x[i] = y[i] * 0.5 + y[i ^ 64];

#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        v[i] = u[i ^ 3] + u[i ^ 4];
    /* 256 iterations writing v (block_cyclic(4)) from x (block_cyclic(2)). */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        u[i] = v[255 - i] + x[i >> 1];

    dump("x", x, 128);
    dump("y", y, 128);
    dump("u", u, 256);
    dump("v", v, 256);
    return 0;
}
