// e2e: dims 1-8
/*
 * Reductions into distributed arrays (docs/annotations.md, "Reductions"):
 * histograms, whose bins two iterations may share, so that each
 * processor combines into a private copy of the whole array and the
 * copies are combined by Stout and Wagar 1990's HISTOGRAM (Section 8):
 * hd_coll_reduce_scatter straight into the slices of a block-distributed
 * array, hd_coll_allreduce for a cyclic one.  Keys come from an integer
 * hash of i, so the bins are data-dependent subscripts, checked at run
 * time.  Every result is exact (integers, and sums of halves held in
 * doubles), so the translated program prints exactly what the
 * sequential one prints.  Also: the bins' values from before the loop
 * (set by the host) are kept, a doall in a sequential loop whose host
 * code changes a bin between runs, the clause naming an array, a doall
 * that writes an ordinary array besides, a key read by an LCC
 * (key[N - 1 - i]), and products, maxima, minima and xors.
 */
#include <stdio.h>
#include <stdint.h>

#define N 4096
#define B 256
/* A multiplicative hash (Knuth's constant): bins far from uniform in i. */
#define HASH(x) ((((uint32_t)(x) * 2654435761u) >> 13) & (B - 1))

unsigned key[N];
long weight[N];
unsigned out[N];
long hist[B];               /* block: HISTOGRAM straight into the slices */
int cyc[B];                 /* cyclic: the whole sum, then my elements */
uint64_t prod[B];
long most[B], least[B];
unsigned flips[B];
double half[B];

#pragma hyperdo distribute(key, weight, out, hist, prod, most : block)
#pragma hyperdo distribute(cyc, least, flips, half : cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        key[i] = HASH(i);
        weight[i] = (long)(HASH(i * 7 + 3)) - 100;
    }
    for (int b = 0; b < B; b++) {
        hist[b] = b;           /* the doall adds to what is there */
        prod[b] = 1;
        most[b] = -1000;
        least[b] = 1000;
    }

    /* A histogram, with the bins' earlier values kept. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        hist[key[i]] += 1;

    /* In a sequential loop: the host changes a bin between the runs. */
    for (int rep = 0; rep < 3; rep++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            hist[key[N - 1 - i]]++;
        hist[rep] += 1000;
    }

    /* Cyclic bins, the clause, and an ordinary write beside them. */
#pragma hyperdo doall reduction(+: cyc)
    for (int i = 0; i < N; i++) {
        out[i] = key[i] * 3u;
        cyc[(key[i] * 5 + 1) & (B - 1)] = cyc[(key[i] * 5 + 1) & (B - 1)] + (int)(i & 15);
        cyc[key[i]] -= 1;
    }

    /* Products (wrapping, exact), maxima and minima, xors, halves. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        prod[key[i] ^ 1] *= (uint64_t)(i | 1);
        most[key[i]] = weight[i] > most[key[i]] ? weight[i] : most[key[i]];
        least[key[i]] = least[key[i]] < weight[i] ? least[key[i]] : weight[i];
        flips[i & (B - 1)] ^= key[i];           /* affine, four iterations a bin */
        half[key[i]] += 0.5 * (double)(i & 3);
    }

    long total = 0;
    for (int b = 0; b < B; b++) {
        total += hist[b];
        printf("%3d hist %ld cyc %d prod %llu most %ld least %ld flips %u half %.1f\n", b,
               hist[b], cyc[b], (unsigned long long)prod[b], most[b], least[b], flips[b],
               half[b]);
    }
    unsigned long check = 0;
    for (int i = 0; i < N; i++)
        check = check * 31 + out[i];
    printf("total %ld out %lu\n", total, check);
    return 0;
}
