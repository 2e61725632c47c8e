// e2e: dims 1-4
/*
 * Data mappings chosen by the translator (translate --maps wu, Wu 1984's
 * Algorithm II on the omega network, VI on the butterfly): the doalls
 * below, read in the order of the text, move their arrays by the
 * permutations of Wu's Table I and Section 2.2, so that one mapping per
 * array and doall costs fewer passes than none.  The program exercises
 * what the chosen mappings must survive:
 *
 *   - a doall that writes two arrays (d and e: one mapping for both);
 *   - a doall that reads the array it writes at the same element
 *     (a[i] = a[i] + ...: the old and the new version under one mapping);
 *   - a loop around two doalls, so that the runtime remaps as the path
 *     goes, not as the text reads;
 *   - a doall that writes half of an array (its old elements move);
 *   - a doall in a function called twice, and the host reading and
 *     writing arrays between doalls.
 *
 * Translated with and without --maps wu, on every back end, it must print
 * what it prints as sequential C.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define LOGN 4
#define N (1 << LOGN)

double a[N], b[N], c[N], d[N], e[N];
#pragma hyperdo distribute(a, b, c, d, e : cyclic)

static double weighted(const char *name, int which)
{
    double sum = 0.0;
    for (int k = 0; k < N; k++) {
        double x = which == 0 ? a[k] : which == 1 ? b[k] : which == 2 ? c[k]
                 : which == 3 ? d[k] : e[k];
        sum += (k % 5 + 1) * x;
    }
    printf("%s: %.17g\n", name, sum);
    return sum;
}

/* The perfect shuffle of e into c, in a function called twice. */
static void shuffle_e(double scale)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = e[rotl(i, 1, LOGN)] * scale + c[i];
}

int main(void)
{
    for (int k = 0; k < N; k++) {
        a[k] = k * 0.5 - 3;
        b[k] = (k * 7) % 11;
        c[k] = 0;
    }

    /* The perfect shuffle and the bit reversal of one array (Theorem 2.2:
     * one linear mapping makes both one pass). */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[rotl(i, 1, LOGN)] + a[reverse(i, LOGN)];

    /* The transpose and a complement. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = b[transpose(i, LOGN)] * 2 - a[i ^ 5];

    /* Two arrays written by one doall. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        d[i] = c[reverse(i, LOGN)];
        e[i] = c[i] + 1;
    }
    weighted("d", 3);

    for (int r = 0; r < 3; r++) {
        /* a read where it is written, and a shuffle of d */
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            a[i] = a[i] + d[rotl(i, 1, LOGN)] * 0.5;
        /* the Gray code (no bit permutation) and a bit reversal */
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            d[i] = a[i ^ (i >> 1)] - e[reverse(i, LOGN)];
    }

    /* Half of b written: its other elements keep their values. */
#pragma hyperdo doall
    for (int i = 0; i < N / 2; i++)
        b[2 * i] = d[(2 * i) ^ 3];

    shuffle_e(0.5);
    c[3] = 100;   /* the host changes c between doalls */
    shuffle_e(2);

    weighted("a", 0);
    weighted("b", 1);
    weighted("c", 2);
    weighted("d", 3);
    weighted("e", 4);
    return 0;
}
