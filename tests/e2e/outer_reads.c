// e2e: dims 1-6
/*
 * Reads of values from outside the loop: global and local scalars of
 * several types, a function parameter, a const global, a replicated table
 * (96 entries: never 2^n, never distributed) read at affine and at
 * data-dependent indices, and a[p[i]] with p a replicated permutation (128
 * entries, not distributed: replicated on every cube up to 2^6) -- a
 * general communication whose pattern only the contents of p give.  The
 * host changes the scalars and the table between doalls, so each doall
 * must see the values of the moment.
 */
#include <stdio.h>

#define N 64

double a[N], b[N], c[N];
#pragma hyperdo distribute(a, b, c : cyclic)
double table[96];
int p[128];
double gscale = 1.5;
const int goffset = 3;

static void step(double factor, int shift)
{
    long lbias = 1000L * shift;
    float fbias = 0.25f * (float)shift;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[p[i]] * factor + table[(i + shift) % 96] + (double)lbias + fbias;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = b[p[N - 1 - i]] * gscale - goffset + table[p[i] + 32];
}

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = e * e % 61;
    for (int e = 0; e < 96; e++)
        table[e] = e / 8.0;
    /* p: a permutation of 0 .. 63 (37 is odd, so i -> 37 i + 11 mod 64 is
     * one); entries 64 .. 127 are not read. */
    for (int e = 0; e < 128; e++)
        p[e] = (37 * e + 11) % 64;

    step(2.0, 1);
    for (int e = 0; e < N; e++)
        printf("%s%g/%g", e % 8 ? " " : e ? "\n" : "", b[e], c[e]);
    printf("\n");

    /* New values for everything the loops read from outside. */
    gscale = -0.5;
    for (int e = 0; e < 96; e++)
        table[e] = 100 - e;
    for (int e = 0; e < 128; e++)
        p[e] = (5 * e + 7) % 64;
    step(-1.0, 7);
    double sum = 0.0;
    for (int e = 0; e < N; e++) {
        printf("%s%g/%g", e % 8 ? " " : e ? "\n" : "", b[e], c[e]);
        sum += (e + 1) * (b[e] + 2 * c[e]);
    }
    printf("\nweighted sum %.17g\n", sum);
    return 0;
}
