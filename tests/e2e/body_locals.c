// e2e: dims 1-7
/*
 * Multi-statement bodies: local scalars of several types declared with
 * and without initialisers, compound assignments to them and to array
 * elements, conditional expressions and pure <math.h> functions, the loop
 * variable read as a value, and two arrays written by one iteration on
 * the same processor.
 */
#include <math.h>
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 128

double a[N], b[N], c[N];
int k[N], k2[N];
#pragma hyperdo distribute(a, b, c, k, k2 : cyclic)

int main(void)
{
    for (int e = 0; e < N; e++) {
        a[e] = sin(e) * 10;
        k[e] = e % 7;
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double t = a[i ^ 1];
        b[i] = t * t;
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double s;
        int m = k[reverse(i, 7)] * 3;
        long w = i;
        s = b[i] + a[N - 1 - i];
        s *= 0.5;
        s -= m;
        w += m > 9 ? 100 : -100;
        c[i] = fabs(s) > 20 ? sqrt(fabs(s)) : floor(s * 4) / 4;
        k2[i] = (int)(w % 1000) + (i & 1 ? m : -m);
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        ;
        double lo = fmin(c[i], c[i ^ 2]), hi = fmax(c[i], c[i ^ 2]);
        unsigned bits = (unsigned)i ^ 0x5au;
        a[i] = hi - lo + (double)(bits & 15u);
        b[i] += pow(2.0, (double)(i % 5)) + exp(-(double)(i % 3)) + atan2(hi, 1.0);
    }

    double sum = 0.0;
    long ksum = 0;
    for (int e = 0; e < N; e++) {
        printf("%3d %.17g %.17g %.17g %d\n", e, a[e], b[e], c[e], k2[e]);
        sum += (e + 1) * (a[e] + 2 * b[e] + 3 * c[e]);
        ksum += (e + 1) * k2[e];
    }
    printf("weighted sums %.17g %ld\n", sum, ksum);
    return 0;
}
