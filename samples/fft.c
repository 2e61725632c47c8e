// e2e: dims 1-5
/*
 * fft.c: the parallel FFT of Hou et al. 2001, Section 6.2, as an ordinary C11
 * program: a radix-2 decimation-in-time FFT of m = 2^(n+2d) complex points
 * on an n-cube, point x = [x_0 .. x_{n+2d-1}]^t on processor
 * [x_d .. x_{n+d-1}]^t: the block-cyclic distribution with blocks of 2^d
 * points, block_cyclic(2^d) (2^d blocks per processor).  Real and
 * imaginary parts are separate distributed arrays.
 *
 * Sizes: -DFFT_N=n (the cube, 1..8) and -DFFT_D=d (0..3), n + 2d <= 14;
 * the defaults n = 3, d = 2 give 128 points.  The paper's Tables 1-2 are
 * the 8-cube with 2^8 .. 2^14 points: -DFFT_N=8 and -DFFT_D=0, 1, 2, 3.
 * (cube() and block_cyclic() take integer literals, hence the #if chains.)
 *
 * The 1 + lg m stages of Section 6.2:
 *   - the bit-reverse of the inputs, a[i] = in[reverse(i, lg m)]: the
 *     bit-reverse of the n processor bits (Example 1), an LCP with
 *     T = (1,2,4,8,8,4,2,1) on the 8-cube, in general degree 2^(n/2 - 1)
 *     before mapping and 1 after (Corollary 1; Table 2's "ideal speedup");
 *   - lg m butterfly stages.  Stage s (the paper's stage i = s + 1) pairs
 *     points i and i ^ 2^s.  For s < d and s >= n + d the partner is on
 *     the same processor: no message ("the first and the last d stages do
 *     not require communication").  For d <= s < n + d it is a neighbour
 *     exchange at dimension s - d, y = x + e_{s-d}, T = 1 at that
 *     dimension and 0 elsewhere.
 * The stages are a sequential loop over s, a stage loop (docs/annotations.md,
 * "Stage loops"): its bounds are constants, so the analysis reads the
 * partner i ^ (1 << s) once per value of s, each stage the LCC above, and
 * chooses the mapping for all of them, as for the stages written out one
 * doall each.  Twiddle factors W_m^j come from the replicated tables twr,
 * twi (m/2 entries) read in the body: a body may not call user functions.
 *
 * Output: the spectrum's magnitudes rounded to 3 decimals (all of them up
 * to 256 points, the peaks beyond), a position-weighted checksum, and a
 * check against a naive O(m^2) DFT computed sequentially (left out with
 * -DFFT_NO_DFT_CHECK, for the benchmarks).
 */
#include <math.h>
#include <stdio.h>

#include <hyperdo/bits.h>

#ifndef FFT_N
#define FFT_N 3
#endif
#ifndef FFT_D
#define FFT_D 2
#endif
#define LOGM (FFT_N + 2 * FFT_D)
#define M (1 << LOGM)

#if FFT_N == 1
#pragma hyperdo cube(1)
#elif FFT_N == 2
#pragma hyperdo cube(2)
#elif FFT_N == 3
#pragma hyperdo cube(3)
#elif FFT_N == 4
#pragma hyperdo cube(4)
#elif FFT_N == 5
#pragma hyperdo cube(5)
#elif FFT_N == 6
#pragma hyperdo cube(6)
#elif FFT_N == 7
#pragma hyperdo cube(7)
#elif FFT_N == 8
#pragma hyperdo cube(8)
#else
#error "FFT_N must be 1 .. 8"
#endif
#if LOGM > 14
#error "FFT_N + 2 * FFT_D must be at most 14"
#endif

double inr[M], ini[M]; /* the input signal */
double ar[M], ai[M], br[M], bi[M]; /* the stages alternate a -> b -> a */
double twr[M / 2], twi[M / 2]; /* W_m^j = exp(-2 pi sqrt(-1) j / m) */
double dftc[M], dfts[M]; /* the check's W_m^j, j < m */

#if FFT_D == 0
#pragma hyperdo distribute(inr, ini, ar, ai, br, bi : block_cyclic(1))
#elif FFT_D == 1
#pragma hyperdo distribute(inr, ini, ar, ai, br, bi : block_cyclic(2))
#elif FFT_D == 2
#pragma hyperdo distribute(inr, ini, ar, ai, br, bi : block_cyclic(4))
#elif FFT_D == 3
#pragma hyperdo distribute(inr, ini, ar, ai, br, bi : block_cyclic(8))
#else
#error "FFT_D must be 0 .. 3"
#endif

static const double two_pi = 6.283185307179586476925286766559;

int main(void)
{
    for (int t = 0; t < M; t++) {
        inr[t] = (double)(t * 7 % 11 - 5) + 4.0 * cos(two_pi * 3 * t / M);
        ini[t] = (double)(t * 5 % 7 - 3) + 2.0 * sin(two_pi * 5 * t / M);
    }
    for (int j = 0; j < M / 2; j++) {
        twr[j] = cos(two_pi * j / M);
        twi[j] = -sin(two_pi * j / M);
    }

    /* Stage 0 of Section 6.2: the bit-reverse permutation of the inputs. */
#pragma hyperdo doall
    for (int i = 0; i < M; i++) {
        ar[i] = inr[reverse(i, LOGM)];
        ai[i] = ini[reverse(i, LOGM)];
    }

    /* The lg m butterfly stages, stage s in a sequential loop over s
     * (docs/annotations.md, "Stage loops").  Iteration i computes output
     * point i of the butterfly on points i and i ^ 2^s (top: the one with
     * bit s clear): top = p + W q, bottom = p - W q, W = W_{2^(s+1)}^(i mod
     * 2^s) = W_m^((i mod 2^s) << (lg m - s - 1)).  The arrays alternate,
     * so a pass of the loop runs two stages: s from a to b, s + 1 from b
     * back to a (the second left out after the last stage for odd lg m). */
    for (int s = 0; s < LOGM; s += 2) {
#pragma hyperdo doall
        for (int i = 0; i < M; i++) { /* stage s: a -> b */
            double c = twr[(i & ((1 << s) - 1)) << (LOGM - 1 - s)];
            double w = twi[(i & ((1 << s) - 1)) << (LOGM - 1 - s)];
            double ur = ar[i], ui = ai[i];
            double vr = ar[i ^ (1 << s)], vi = ai[i ^ (1 << s)];
            int top = !(i & (1 << s));
            double pr = top ? ur : vr, pi = top ? ui : vi;
            double qr = top ? vr : ur, qi = top ? vi : ui;
            double tr = qr * c - qi * w, ti = qr * w + qi * c;
            br[i] = top ? pr + tr : pr - tr;
            bi[i] = top ? pi + ti : pi - ti;
        }
        if (s + 1 < LOGM) {
#pragma hyperdo doall
            for (int i = 0; i < M; i++) { /* stage s + 1: b -> a */
                double c = twr[(i & ((1 << (s + 1)) - 1)) << (LOGM - 2 - s)];
                double w = twi[(i & ((1 << (s + 1)) - 1)) << (LOGM - 2 - s)];
                double ur = br[i], ui = bi[i];
                double vr = br[i ^ (1 << (s + 1))], vi = bi[i ^ (1 << (s + 1))];
                int top = !(i & (1 << (s + 1)));
                double pr = top ? ur : vr, pi = top ? ui : vi;
                double qr = top ? vr : ur, qi = top ? vi : ui;
                double tr = qr * c - qi * w, ti = qr * w + qi * c;
                ar[i] = top ? pr + tr : pr - tr;
                ai[i] = top ? pi + ti : pi - ti;
            }
        }
    }

    const double *xr = LOGM % 2 ? br : ar, *xi = LOGM % 2 ? bi : ai;

    printf("FFT of %d points, block_cyclic(%d) on the %d-cube\n", M, 1 << FFT_D, FFT_N);
    double sum = 0.0;
    int shown = 0;
    for (int k = 0; k < M; k++) {
        double mag = hypot(xr[k], xi[k]);
        sum += (k + 1) * mag;
        if (M <= 256 || mag > M / 8.0) {
            printf("%s%5d %10.3f", shown % 4 ? "  " : "", k, mag);
            if (++shown % 4 == 0)
                printf("\n");
        }
    }
    if (shown % 4)
        printf("\n");
    printf("checksum %.6e\n", sum);

#ifdef FFT_NO_DFT_CHECK
    /* bench/bench_node.sh times the doalls, not the O(m^2) check. */
    return 0;
#endif
    /* The naive DFT X(k) = sum_t x(t) W_m^(t k), sequentially, with
     * W_m^j from a table of all m powers (not used in any doall). */
    for (int j = 0; j < M; j++) {
        dftc[j] = cos(two_pi * j / M);
        dfts[j] = -sin(two_pi * j / M);
    }
    double maxerr = 0.0, maxmag = 0.0;
    for (int k = 0; k < M; k++) {
        double sr = 0.0, si = 0.0;
        for (int t = 0, j = 0; t < M; t++, j = (j + k) & (M - 1)) {
            sr += inr[t] * dftc[j] - ini[t] * dfts[j];
            si += inr[t] * dfts[j] + ini[t] * dftc[j];
        }
        double e = hypot(xr[k] - sr, xi[k] - si), mag = hypot(sr, si);
        maxerr = e > maxerr ? e : maxerr;
        maxmag = mag > maxmag ? mag : maxmag;
    }
    int ok = maxerr <= 1e-9 * maxmag;
    printf("FFT %s the naive DFT (relative error %s 1e-9)\n",
           ok ? "matches" : "DIFFERS FROM", ok ? "<=" : ">");
    return !ok;
}
