/*
 * lcc_fft.c — one radix-2 butterfly stage of an FFT on 2^20 complex
 * points (real and imaginary parts apart, block layout), the partner
 * across the top bit (i ^ 2^19), ten times (Hou et al. 2001, Section 6.2): every
 * processor exchanges its whole slice with one neighbour.  Against
 * mpi_hand.c.
 */
#include <stdio.h>

#define LOGN 20
#define N (1 << LOGN)
#define H (1 << (LOGN - 1))

double ar[N], ai[N], br[N], bi[N];
#pragma hyperdo distribute(ar, ai, br, bi : block)

int main(void)
{
    for (int i = 0; i < N; i++) {
        ar[i] = (i % 1000) * 0.001;
        ai[i] = (i % 777) * 0.001;
    }
    double c = 0.6, w = -0.8;   /* a twiddle factor of modulus 1 */
    for (int k = 0; k < 5; k++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++) {
            double ur = ar[i], ui = ai[i];
            double vr = ar[i ^ H], vi = ai[i ^ H];
            int top = !(i & H);
            double pr = top ? ur : vr, pi = top ? ui : vi;
            double qr = top ? vr : ur, qi = top ? vi : ui;
            double tr = qr * c - qi * w, ti = qr * w + qi * c;
            br[i] = top ? pr + tr : pr - tr;
            bi[i] = top ? pi + ti : pi - ti;
        }
#pragma hyperdo doall
        for (int i = 0; i < N; i++) {
            double ur = br[i], ui = bi[i];
            double vr = br[i ^ H], vi = bi[i ^ H];
            int top = !(i & H);
            double pr = top ? ur : vr, pi = top ? ui : vi;
            double qr = top ? vr : ur, qi = top ? vi : ui;
            double tr = qr * c - qi * w, ti = qr * w + qi * c;
            ar[i] = (top ? pr + tr : pr - tr) * 0.5;
            ai[i] = (top ? pi + ti : pi - ti) * 0.5;
        }
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += (ar[i] + 2 * ai[i]) * (i % 7 + 1);
    printf("%.17g\n", s);
    return 0;
}
