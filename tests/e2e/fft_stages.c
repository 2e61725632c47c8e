// e2e: dims 1-6
/*
 * fft_stages.c: butterflies in stage loops (docs/annotations.md, "Stage
 * loops"), each stage one LCC the analysis reads per value of the stage
 * variable, checked against sequential references computed here:
 *   1. a radix-2 decimation-in-time FFT of 64 points: a bit-reverse doall,
 *      then `for (s = 0; s < LOGM; s++)` around a butterfly doall whose
 *      partner x[i ^ (1 << s)] is read under guards on s (which half of
 *      the butterfly the iteration computes) and whose twiddle index
 *      shifts by s, and a copy doall back;
 *   2. its inverse by decimation in frequency, `for (len = M / 2; len >= 1;
 *      len >>= 1)` with the partner x[i ^ len] and the twiddle index
 *      (i & (len - 1)) * (M / 2 / len), then a bit-reverse doall: the input
 *      again, up to rounding;
 *   3. a two-dimensional 8 x 8 transform by nested stage loops, `for (d =
 *      0; d < 2; d++) for (s = 2; s >= 0; s--)` with the partner
 *      g[i ^ (1 << (3 * d + s))]: six stages, against the naive 2-D DFT.
 * The cube is n = 1 .. 6 (64 elements, cyclic: stage s of part 1 is the
 * neighbour exchange across dimension s for s < n, local beyond).
 * Output: every element of each result (rounded), checksums and the
 * largest errors against the references.
 */
#include <math.h>
#include <stdio.h>

#include <hyperdo/bits.h>

#define LOGM 6
#define M (1 << LOGM)

double xr[M], xi[M], yr[M], yi[M];    /* part 1: x -> y -> x per stage */
double zr[M], zi[M];                   /* part 2's result */
double gr[M], gi[M], hr[M], hi[M];     /* part 3: g[8 r + c] */
double twr[M / 2], twi[M / 2];         /* W_64^j = exp(-2 pi sqrt(-1) j / 64) */
double inr[M], ini[M];                 /* the input, kept by the host */

#pragma hyperdo distribute(xr, xi, yr, yi, zr, zi, gr, gi, hr, hi : cyclic)

static const double two_pi = 6.283185307179586476925286766559;

static void print_array(const char *name, const double *re, const double *im)
{
    double sum = 0.0;
    printf("%s:", name);
    for (int k = 0; k < M; k++) {
        sum += (k + 1) * re[k] - (k + 3) * im[k];
        printf("%s%.4f%+.4fi", k % 4 ? " " : "\n  ", re[k], im[k]);
    }
    printf("\n  checksum %.9e\n", sum);
}

int main(void)
{
    for (int t = 0; t < M; t++) {
        inr[t] = (double)(t * 7 % 11 - 5) + 3.0 * cos(two_pi * 5 * t / M);
        ini[t] = (double)(t * 5 % 9 - 4) - 2.0 * sin(two_pi * 3 * t / M);
    }
    for (int j = 0; j < M / 2; j++) {
        twr[j] = cos(two_pi * j / M);
        twi[j] = -sin(two_pi * j / M);
    }

    /* 1. Forward FFT, decimation in time. */
#pragma hyperdo doall
    for (int i = 0; i < M; i++) {
        xr[i] = inr[reverse(i, LOGM)];
        xi[i] = ini[reverse(i, LOGM)];
    }
    for (int s = 0; s < LOGM; s++) {
#pragma hyperdo doall
        for (int i = 0; i < M; i++) {
            /* W = W_{2^(s+1)}^(i mod 2^s); the bottom half (bit s set)
             * takes p - W q with p its partner, the top p + W q. */
            double c = twr[(i & ((1 << s) - 1)) << (LOGM - 1 - s)];
            double w = twi[(i & ((1 << s) - 1)) << (LOGM - 1 - s)];
            yr[i] = (i & (1 << s)) ? xr[i ^ (1 << s)] - (xr[i] * c - xi[i] * w)
                                   : xr[i] + (xr[i ^ (1 << s)] * c - xi[i ^ (1 << s)] * w);
            yi[i] = (i & (1 << s)) ? xi[i ^ (1 << s)] - (xr[i] * w + xi[i] * c)
                                   : xi[i] + (xr[i ^ (1 << s)] * w + xi[i ^ (1 << s)] * c);
        }
#pragma hyperdo doall
        for (int i = 0; i < M; i++) {
            xr[i] = yr[i];
            xi[i] = yi[i];
        }
    }

    print_array("FFT", xr, xi);
    double e_fft = 0.0, big = 0.0;
    for (int k = 0; k < M; k++) {
        double sr = 0.0, si = 0.0;
        for (int t = 0; t < M; t++) {
            int j = (t * k) % M;
            double wr = cos(two_pi * j / M), wi = -sin(two_pi * j / M);
            sr += inr[t] * wr - ini[t] * wi;
            si += inr[t] * wi + ini[t] * wr;
        }
        e_fft = fmax(e_fft, hypot(xr[k] - sr, xi[k] - si));
        big = fmax(big, hypot(sr, si));
    }

    /* 2. The inverse, decimation in frequency, conjugate twiddles. */
    for (int len = M / 2; len >= 1; len >>= 1) {
#pragma hyperdo doall
        for (int i = 0; i < M; i++) {
            double c = twr[(i & (len - 1)) * (M / 2 / len)];
            double w = -twi[(i & (len - 1)) * (M / 2 / len)];
            double dr = xr[i ^ len] - xr[i], di = xi[i ^ len] - xi[i];
            yr[i] = (i & len) ? dr * c - di * w : xr[i] + xr[i ^ len];
            yi[i] = (i & len) ? dr * w + di * c : xi[i] + xi[i ^ len];
        }
#pragma hyperdo doall
        for (int i = 0; i < M; i++) {
            xr[i] = yr[i];
            xi[i] = yi[i];
        }
    }
#pragma hyperdo doall
    for (int i = 0; i < M; i++) {
        zr[i] = xr[reverse(i, LOGM)] / M;
        zi[i] = xi[reverse(i, LOGM)] / M;
    }

    /* 3. The 8 x 8 transform of g = the input as a matrix, decimation in
     * frequency along the columns index c (d = 0, bits 0-2) then the rows
     * r (d = 1, bits 3-5): stage s of dimension d pairs bit 3 d + s. */
    for (int t = 0; t < M; t++) {
        gr[t] = inr[t];
        gi[t] = ini[t];
    }
    for (int d = 0; d < 2; d++)
        for (int s = 2; s >= 0; s--) {
#pragma hyperdo doall
            for (int i = 0; i < M; i++) {
                /* W_8^j, j = (index mod 2^s) << (2 - s), W_8 = W_64^8. */
                double c = twr[(((i >> (3 * d)) & ((1 << s) - 1)) << (2 - s)) << 3];
                double w = twi[(((i >> (3 * d)) & ((1 << s) - 1)) << (2 - s)) << 3];
                double dr = gr[i ^ (1 << (3 * d + s))] - gr[i];
                double di = gi[i ^ (1 << (3 * d + s))] - gi[i];
                int bottom = (i >> (3 * d + s)) & 1;
                hr[i] = bottom ? dr * c - di * w : gr[i] + gr[i ^ (1 << (3 * d + s))];
                hi[i] = bottom ? dr * w + di * c : gi[i] + gi[i ^ (1 << (3 * d + s))];
            }
#pragma hyperdo doall
            for (int i = 0; i < M; i++) {
                gr[i] = hr[i];
                gi[i] = hi[i];
            }
        }

    print_array("inverse", zr, zi);
    print_array("2-D", gr, gi);

    /* The references, sequentially: the input for the inverse, and the
     * naive 2-D DFT, its result at bit-reversed rows and columns. */
    double e_inv = 0.0, e_2d = 0.0;
    for (int t = 0; t < M; t++)
        e_inv = fmax(e_inv, hypot(zr[t] - inr[t], zi[t] - ini[t]));
    for (int k1 = 0; k1 < 8; k1++)
        for (int k2 = 0; k2 < 8; k2++) {
            double sr = 0.0, si = 0.0;
            for (int r = 0; r < 8; r++)
                for (int c = 0; c < 8; c++) {
                    int j = (8 * ((r * k1 + c * k2) % 8)) % M;
                    double wr = cos(two_pi * j / M), wi = -sin(two_pi * j / M);
                    sr += inr[8 * r + c] * wr - ini[8 * r + c] * wi;
                    si += inr[8 * r + c] * wi + ini[8 * r + c] * wr;
                }
            int at = 8 * (int)reverse(k1, 3) + (int)reverse(k2, 3);
            e_2d = fmax(e_2d, hypot(gr[at] - sr, gi[at] - si));
        }
    printf("FFT %s the naive DFT (relative error %s 1e-12)\n",
           e_fft <= 1e-12 * big ? "matches" : "DIFFERS FROM", e_fft <= 1e-12 * big ? "<=" : ">");
    printf("inverse of the FFT %s the input (error %s 1e-9)\n",
           e_inv <= 1e-9 ? "is" : "IS NOT", e_inv <= 1e-9 ? "<=" : ">");
    printf("2-D transform %s the naive 2-D DFT (error %s 1e-9)\n",
           e_2d <= 1e-9 ? "matches" : "DIFFERS FROM", e_2d <= 1e-9 ? "<=" : ">");
    return !(e_fft <= 1e-12 * big && e_inv <= 1e-9 && e_2d <= 1e-9);
}
