/*
 * minimum.c — the least communication the benchmark programs' doalls
 * need on P processors, from their index maps and layouts alone: per
 * doall run, the ordered pairs of processors one of whose iterations reads
 * an element the other holds, and those elements (each counted once per
 * pair), in bytes.  bench/bench_node.sh prints it beside what the
 * translated programs sent (HYPERDO_STATS).
 *
 *     minimum transpose|bitrev|fft|prefix|heavy|light P
 *
 * prints "MESSAGES BYTES", averages over the program's doall runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int P, n;

static unsigned long reverse_bits(unsigned long i, int bits)
{
    unsigned long r = 0;
    for (int t = 0; t < bits; t++)
        r |= ((i >> t) & 1UL) << (bits - 1 - t);
    return r;
}

/* One doall: iterations 0 .. 2^k - 1, iteration i on home(i), reading
 * element read(i) (or none where it returns -1) of an array of 2^k
 * elements laid out by owner(); `arrays` arrays read alike. */
typedef struct {
    int k, arrays;
    long (*read)(long i, long param);
    int (*owner)(long e, int k);
    long param;
} doall;

static double msgs_sum, bytes_sum;

static int by_value(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Every remote read as (reader, element), sorted: the distinct ones are
 * what must travel. */
static void count(const doall *d)
{
    long size = 1L << d->k, m = 0;
    uint64_t *reads = malloc((size_t)size * sizeof *reads);
    uint8_t *pair = calloc((size_t)P * (size_t)P, 1);
    if (!reads || !pair)
        exit(3);
    for (long i = 0; i < size; i++) {
        long e = d->read(i, d->param);
        int q = d->owner(i, d->k);
        if (e >= 0 && d->owner(e, d->k) != q)
            reads[m++] = ((uint64_t)q << 40) | (uint64_t)e;
    }
    qsort(reads, (size_t)m, sizeof *reads, by_value);
    double elements = 0;
    for (long j = 0; j < m; j++) {
        if (j > 0 && reads[j] == reads[j - 1])
            continue;
        elements++;
        long e = (long)(reads[j] & ((UINT64_C(1) << 40) - 1));
        int q = (int)(reads[j] >> 40);
        pair[(size_t)d->owner(e, d->k) * (size_t)P + (size_t)q] = 1;
    }
    for (long k = 0; k < (long)P * P; k++)
        msgs_sum += pair[k];
    bytes_sum += elements * 8.0 * d->arrays;
    free(reads);
    free(pair);
}

static int block(long e, int k)
{
    return (int)(e >> (k - n));
}
static int cyclic(long e, int k)
{
    (void)k;
    return (int)(e & (P - 1));
}
static int block_cyclic8(long e, int k)
{
    (void)k;
    return (int)((e >> 3) & (P - 1));
}

static long rd_transpose(long i, long bits)
{
    int h = (int)bits / 2;
    return ((i & ((1L << h) - 1)) << h) | (i >> h);
}
static long rd_reverse(long i, long bits)
{
    return (long)reverse_bits((unsigned long)i, (int)bits);
}
static long rd_partner(long i, long s)
{
    return i ^ (1L << s);
}
static long rd_shift(long i, long d)
{
    return i >= d ? i - d : -1;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (P = atoi(argv[2])) < 1 || (P & (P - 1))) {
        fprintf(stderr, "usage: minimum transpose|bitrev|fft|prefix|heavy|light P\n");
        return 2;
    }
    for (n = 0; (1 << n) < P; n++)
        ;
    const char *prog = argv[1];
    int runs = 0;
    if (strcmp(prog, "transpose") == 0) {           /* bench/node/transpose.c */
        doall d = { 18, 1, rd_transpose, block, 18 };
        count(&d);
        runs = 1;                                   /* all ten runs alike */
    } else if (strcmp(prog, "bitrev") == 0) {       /* samples/bitrev.c */
        doall d = { 8, 1, rd_reverse, cyclic, 8 };
        count(&d);
        runs = 1;
    } else if (strcmp(prog, "fft") == 0) {          /* samples/fft.c, 2^14 points */
        doall d = { 14, 2, rd_reverse, block_cyclic8, 14 };
        count(&d);
        for (int s = 0; s < 14; s++) {
            doall b = { 14, 2, rd_partner, block_cyclic8, s };
            count(&b);
        }
        runs = 15;
    } else if (strcmp(prog, "prefix") == 0) {       /* bench/node/prefix.c */
        for (long dd = 1; dd < (1L << 20); dd *= 2) {
            doall d = { 20, 1, rd_shift, block, dd };
            count(&d);
            runs += 2;                               /* and the copy, which reads nothing */
        }
    } else if (strcmp(prog, "heavy") == 0 || strcmp(prog, "light") == 0) {
        runs = 1;
    } else {
        fprintf(stderr, "minimum: unknown program %s\n", prog);
        return 2;
    }
    printf("%.1f %.0f\n", msgs_sum / runs, bytes_sum / runs);
    return 0;
}
