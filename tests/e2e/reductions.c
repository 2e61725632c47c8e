// e2e: dims 1-8
/*
 * Reductions (docs/annotations.md, "Reductions") over integers: every
 * operator, with the clause and in the recognised forms, on integer types
 * of every width; each result is exact, so the translated program prints
 * exactly what the sequential one prints whatever the order the
 * processors' parts are combined in.  Also: a doall that writes an array
 * and reduces, one whose only effect is its reductions (its iterations
 * run on the owners of a[i]), reads by an LCC and by a guarded stream in
 * the operand, a doall in a sequential loop (the reduction accumulates
 * over the runs), a file-scope and a parameter reduction variable, and
 * sums of small integers held in doubles (exact in any order).
 */
#include <stdio.h>
#include <stdint.h>

#define N 256
long a[N], b[N], c[N];

#pragma hyperdo distribute(a, b, c : cyclic)

long total;          /* a file-scope reduction variable */

static long sum_of_squares(long start)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        start += a[i] * a[i];
    return start;
}

static void every_operator(void)
{
    long s = 5, m = 1000, mx = -1000, neg = 0;
    unsigned long p = 3;
    unsigned band = 0xffffffffu, bor = 0, bxor = 0x5a5a5a5au;
    signed char sc = 7;
    short sh = -3;
    unsigned char uc = 250;
    int64_t count = 0;
    double dsum = 0.5;
#pragma hyperdo doall reduction(+: s, neg) reduction(min: m) reduction(max: mx) reduction(*: p)
    for (int i = 0; i < N; i++) {
        b[i] = a[i] + 1;
        s += a[i];
        neg -= a[i] * 2;
        m = a[i] < m ? a[i] : m;
        mx = mx > a[i] ? mx : a[i];
        p *= 2 * (unsigned long)(a[i] & 3) + 1;   /* odd: no power of two wraps it to 0 */
        band &= (unsigned)a[i] | 0xfff0u;
        bor = bor | (unsigned)(a[i] << (i & 7));
        bxor ^= (unsigned)(a[i] * 2654435761u);
        sc += (signed char)a[i];
        sh = sh + (short)(a[i] * 3);
        uc = (unsigned char)(a[i] + 1) + uc;
        count++;
        dsum += (double)a[i];
    }
    printf("s %ld neg %ld min %ld max %ld prod %lu\n", s, neg, m, mx, p);
    printf("and %#x or %#x xor %#x\n", band, bor, bxor);
    printf("schar %d short %d uchar %u count %lld dsum %.1f\n", sc, sh, uc, (long long)count,
           dsum);
}

static void only_reductions(void)
{
    long dot = 0, shifted = 0;
    int zeros = 0;
    long lo = 1L << 40, hi = -(1L << 40);
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        dot += a[i] * c[(N - 1) - i];          /* an LCC: the complement */
        shifted += i > 0 ? a[i - 1] : 100;     /* a guarded stream */
        zeros += a[i] == 0;
        lo = a[i] - c[i] < lo ? a[i] - c[i] : lo;
        hi = hi < a[i] + c[i] ? a[i] + c[i] : hi;
    }
    printf("dot %ld shifted %ld zeros %d lo %ld hi %ld\n", dot, shifted, zeros, lo, hi);
}

static void accumulated(void)
{
    unsigned long h = 1469598103934665603ul;
    total = 0;
    for (int round = 0; round < 3; round++) {
#pragma hyperdo doall reduction(+: total) reduction(^: h)
        for (int i = 0; i < N; i++) {
            total += a[i] * (round + 1);
            h ^= (unsigned long)(a[i] + round) * 1099511628211ul;
        }
    }
    printf("total %ld hash %lu\n", total, h);
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (i * 37 + 11) % 101 - 50;
        c[i] = (i * 13) % 7;
    }
    every_operator();
    only_reductions();
    accumulated();
    printf("squares %ld %ld\n", sum_of_squares(0), sum_of_squares(1000));
    long check = 0;
    for (int i = 0; i < N; i++)
        check += b[i];
    printf("b %ld\n", check);
    return 0;
}
