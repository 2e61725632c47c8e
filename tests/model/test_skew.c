/*
 * test_skew.c — Lee and Aboelaze's skewed storage (hd_array_layout for
 * HD_DIST_SKEW and Hyperdo's HD_DIST_SKEW_ROT), checked element by element
 * against computations written here from the paper's words, not from the
 * library's bit rows:
 *   - the layout: A(i, j) at location i of processor xi(i) XOR j, xi(i) =
 *     i_L : i_H (Section 3), with the halves taken by division and
 *     remainder; the N = 4 owner table written out by hand;
 *   - Properties 1-4 (Appendix I): rows, columns, contiguous blocks and
 *     distributed blocks put one element on each processor;
 *   - the Lemma's four address formulas and both columns of Table 1
 *     (Method 1 destinations, Method 2 Gray-coded destinations with
 *     Fig. 5's algorithm run as printed), for every instance and every
 *     processor, n = 2, 4, 6, 8;
 *   - the reading notes of issue 13: Definition 3 as printed repeats
 *     Definition 4; Section 4.1's "distributed block 1,0" is block 0,1;
 *     Fig. 5's Gray code equals p ^ (p >> 1);
 *   - skew_rot on odd n: rows, columns, contiguous 2^ceil(n/2) x
 *     2^floor(n/2) blocks and distributed 2^floor(n/2) x 2^ceil(n/2)
 *     blocks are conflict-free, n = 1, 3, 5, 7 (and it equals skew for
 *     even n).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

static hd_layout layout_of(hd_dist_kind kind, int n)
{
    hd_array a = { .name = "A", .ndims = 2, .log2_size = 2 * n, .dist = kind, .shift = -1 };
    return hd_array_layout(&a, n);
}

/* The element A(i, j) of an N x N matrix, N = 2^n: e = i N + j. */
static uint64_t at(int n, uint64_t i, uint64_t j)
{
    return i * ((uint64_t)1 << n) + j;
}

/* xi(i) = i_L : i_H: the low half of i's n bits become the high half
 * (Definitions 5 and 6), by arithmetic. */
static uint64_t xi(uint64_t i, int n)
{
    uint64_t half = (uint64_t)1 << (n / 2);
    return (i % half) * half + i / half;
}

/* rotl(i, r, n) by arithmetic: i 2^r mod 2^n plus the bits that left. */
static uint64_t rot(uint64_t i, int r, int n)
{
    uint64_t size = (uint64_t)1 << n;
    return (i * ((uint64_t)1 << r)) % size + i / (size >> r);
}

/* Fig. 5, Algorithm Gray(i, n), run as printed: going down from bit n-1,
 * b_j is 0 when i is in the lower half of its current 2^(j+1) numbers
 * (upper half when the flag is odd), else 1 and the flag toggles. */
static uint64_t fig5_gray(uint64_t i, int n)
{
    uint64_t b = 0;
    int flag = 0;
    for (int j = n - 1; j >= 0; j--) {
        bool lower = ((i >> j) & 1) == 0;   /* bit j: the half of 2^(j+1) */
        bool zero = flag % 2 == 0 ? lower : !lower;
        if (!zero) {
            b |= (uint64_t)1 << j;
            flag++;
        }
    }
    return b;
}

static uint64_t cat(uint64_t hi, uint64_t lo, int bits_lo)
{
    return (hi << bits_lo) | lo;
}

/* ------------------------------------------------------------ layout */

static void layout_is_the_papers(void **state)
{
    (void)state;
    for (int n = 2; n <= 8; n += 2) {
        hd_layout l = layout_of(HD_DIST_SKEW, n);
        uint64_t N = (uint64_t)1 << n;
        for (uint64_t i = 0; i < N; i++)
            for (uint64_t j = 0; j < N; j++) {
                uint64_t e = at(n, i, j);
                assert_int_equal(hd_layout_owner(&l, e), xi(i, n) ^ j);
                assert_int_equal(hd_layout_offset(&l, e), i);
            }
        /* skew_rot is the same layout for even n. */
        hd_layout r = layout_of(HD_DIST_SKEW_ROT, n);
        for (uint64_t e = 0; e < N * N; e++) {
            assert_int_equal(hd_layout_owner(&r, e), hd_layout_owner(&l, e));
            assert_int_equal(hd_layout_offset(&r, e), hd_layout_offset(&l, e));
        }
    }
}

/* N = 4: the owner of A(i, j), row i, written out: xi swaps i's two bits
 * (xi = 0, 2, 1, 3) and each row is xi(i) XOR 0..3. */
static void owner_table_n4(void **state)
{
    (void)state;
    static const int owner[4][4] = {
        { 0, 1, 2, 3 },
        { 2, 3, 0, 1 },
        { 1, 0, 3, 2 },
        { 3, 2, 1, 0 },
    };
    hd_layout l = layout_of(HD_DIST_SKEW, 2);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(hd_layout_owner(&l, at(2, (uint64_t)i, (uint64_t)j)), owner[i][j]);
}

/* ------------------------------------------------------ templates */

typedef enum { ROW, COLUMN, SBLOCK, DBLOCK } template_kind;

/* Element number p of template (kind, I, J) for n even (h = n/2 bits per
 * half): rows and columns by position; blocks with p = alpha:beta, the
 * contiguous block A(I sqrt N + alpha, J sqrt N + beta) (the Lemma's proof
 * and Property 3) and the distributed block A(I + alpha sqrt N, J + beta
 * sqrt N) (Definition 4). */
static uint64_t template_element(template_kind kind, int n, uint64_t I, uint64_t J,
                                 uint64_t p, uint64_t *alpha, uint64_t *beta)
{
    uint64_t r = (uint64_t)1 << (n / 2);     /* sqrt N */
    *alpha = p / r;
    *beta = p % r;
    switch (kind) {
    case ROW: return at(n, I, p);
    case COLUMN: return at(n, p, J);
    case SBLOCK: return at(n, I * r + *alpha, J * r + *beta);
    case DBLOCK: return at(n, I + *alpha * r, J + *beta * r);
    }
    return 0;
}

/* For each template instance: every processor holds exactly one of its
 * elements (Properties 1-4), at the location the Lemma gives, and
 * Table 1's destinations are the element's position (Method 1) and its
 * Gray-coded position (Method 2). */
static void templates_lemma_table1(void **state)
{
    (void)state;
    for (int n = 2; n <= 8; n += 2) {
        hd_layout l = layout_of(HD_DIST_SKEW, n);
        uint64_t N = (uint64_t)1 << n, r = (uint64_t)1 << (n / 2);
        int h = n / 2;
        uint64_t *held = malloc(N * sizeof *held);
        assert_non_null(held);
        for (int kind = ROW; kind <= DBLOCK; kind++) {
            uint64_t instances = kind <= COLUMN ? N : r;   /* I (or J) ranges */
            for (uint64_t I = 0; I < instances; I++)
                for (uint64_t J = 0; J < instances; J++) {
                    if ((kind == ROW && J > 0) || (kind == COLUMN && I > 0))
                        continue;
                    for (uint64_t m = 0; m < N; m++)
                        held[m] = UINT64_MAX;
                    for (uint64_t p = 0; p < N; p++) {
                        uint64_t alpha, beta;
                        uint64_t e = template_element((template_kind)kind, n, I, J, p, &alpha, &beta);
                        uint64_t m = hd_layout_owner(&l, e);
                        assert_true(held[m] == UINT64_MAX);   /* Properties 1-4 */
                        held[m] = p;
                        uint64_t loc = hd_layout_offset(&l, e);
                        uint64_t mH = m >> h, mL = m & (r - 1);
                        uint64_t lemma = 0, method1 = 0, method2 = 0;
                        switch (kind) {
                        case ROW:
                            lemma = I;
                            method1 = m ^ xi(I, n);
                            method2 = fig5_gray(m ^ xi(I, n), n);
                            break;
                        case COLUMN:
                            lemma = xi(m ^ J, n);
                            method1 = xi(m ^ J, n);
                            method2 = fig5_gray(xi(m ^ J, n), n);
                            break;
                        case SBLOCK:     /* XOR binds tighter than ":" */
                            lemma = cat(I, mH ^ J, h);
                            method1 = cat(J ^ mH, I ^ mL, h);
                            method2 = cat(fig5_gray(J ^ mH, h), fig5_gray(I ^ mL, h), h);
                            break;
                        case DBLOCK:
                            lemma = cat(mL ^ J, I, h);
                            method1 = cat(J ^ mL, I ^ mH, h);
                            method2 = cat(fig5_gray(J ^ mL, h), fig5_gray(I ^ mH, h), h);
                            break;
                        }
                        assert_int_equal(loc, lemma);
                        assert_int_equal(method1, p);
                        if (kind <= COLUMN)
                            assert_int_equal(method2, fig5_gray(p, n));
                        else
                            assert_int_equal(method2, cat(fig5_gray(alpha, h), fig5_gray(beta, h), h));
                    }
                }
        }
        free(held);
    }
}

static void reading_notes(void **state)
{
    (void)state;
    /* Fig. 5's Gray code is the reflected binary code p ^ (p >> 1), and
     * Fig. 4's 3-bit sequence. */
    static const int fig4[8] = { 0, 1, 3, 2, 6, 7, 5, 4 };
    for (int p = 0; p < 8; p++)
        assert_int_equal(fig5_gray((uint64_t)p, 3), fig4[p]);
    for (int n = 1; n <= 12; n++)
        for (uint64_t p = 0; p < ((uint64_t)1 << n); p++)
            assert_int_equal(fig5_gray(p, n), p ^ (p >> 1));
    /* Section 4.1's "distributed block number 1,0" of a 4 x 4 matrix lists
     * A(0,1), A(0,3), A(2,1), A(2,3): by Definition 4 that is block 0,1
     * (block 1,0 is A(1,0), A(1,2), A(3,0), A(3,2)). */
    static const uint64_t listed[4] = { 1, 3, 9, 11 };   /* e = 4 i + j */
    for (uint64_t p = 0; p < 4; p++) {
        uint64_t alpha, beta;
        assert_int_equal(template_element(DBLOCK, 2, 0, 1, p, &alpha, &beta), listed[p]);
        assert_int_not_equal(template_element(DBLOCK, 2, 1, 0, p, &alpha, &beta), listed[p]);
    }
    /* Its contiguous block 0,1 example: A(0,2), A(0,3), A(1,2), A(1,3). */
    static const uint64_t contiguous[4] = { 2, 3, 6, 7 };
    for (uint64_t p = 0; p < 4; p++) {
        uint64_t alpha, beta;
        assert_int_equal(template_element(SBLOCK, 2, 0, 1, p, &alpha, &beta), contiguous[p]);
    }
}

/* A sqrt N x sqrt N block at a position that is not a multiple of sqrt N
 * is none of the paper's templates, and the skew does not spread it: some
 * such block puts two elements on one processor (docs/layouts.md counts
 * them), while every aligned one is conflict-free (Property 3). */
static void unaligned_blocks_conflict(void **state)
{
    (void)state;
    int n = 4;
    hd_layout l = layout_of(HD_DIST_SKEW, n);
    uint64_t N = 16, r = 4;
    int conflicted = 0;
    for (uint64_t i0 = 0; i0 + r <= N; i0++)
        for (uint64_t j0 = 0; j0 + r <= N; j0++) {
            bool seen[16] = { false }, clash = false;
            for (uint64_t a = 0; a < r; a++)
                for (uint64_t b = 0; b < r; b++) {
                    uint64_t m = hd_layout_owner(&l, at(n, i0 + a, j0 + b));
                    clash |= seen[m];
                    seen[m] = true;
                }
            if (i0 % r == 0 && j0 % r == 0)
                assert_false(clash);
            conflicted += clash;
        }
    assert_true(conflicted > 0);
}

/* skew_rot for odd n: xi(i) = rotl(i, h, n), h = floor(n/2). */
static void skew_rot_odd(void **state)
{
    (void)state;
    for (int n = 1; n <= 7; n += 2) {
        hd_layout l = layout_of(HD_DIST_SKEW_ROT, n);
        int h = n / 2, c = n - h;
        uint64_t N = (uint64_t)1 << n;
        for (uint64_t i = 0; i < N; i++)
            for (uint64_t j = 0; j < N; j++) {
                assert_int_equal(hd_layout_owner(&l, at(n, i, j)), rot(i, h, n) ^ j);
                assert_int_equal(hd_layout_offset(&l, at(n, i, j)), i);
            }
        /* Each template puts one element on each processor:
         * rows I, columns J; contiguous blocks A(I 2^c + a, J 2^h + b),
         * a < 2^c, b < 2^h; distributed blocks A(a 2^c + I, b 2^h + J),
         * a < 2^h, b < 2^c. */
        bool *seen = malloc(N * sizeof *seen);
        assert_non_null(seen);
        for (int kind = ROW; kind <= DBLOCK; kind++) {
            uint64_t ni = kind == ROW ? N : kind == COLUMN ? 1 : kind == SBLOCK ? (uint64_t)1 << h : (uint64_t)1 << c;
            uint64_t nj = kind == ROW ? 1 : kind == COLUMN ? N : kind == SBLOCK ? (uint64_t)1 << c : (uint64_t)1 << h;
            for (uint64_t I = 0; I < ni; I++)
                for (uint64_t J = 0; J < nj; J++) {
                    memset(seen, 0, N * sizeof *seen);
                    for (uint64_t p = 0; p < N; p++) {
                        uint64_t e;
                        if (kind == ROW)
                            e = at(n, I, p);
                        else if (kind == COLUMN)
                            e = at(n, p, J);
                        else if (kind == SBLOCK)
                            e = at(n, I * ((uint64_t)1 << c) + (p >> h), J * ((uint64_t)1 << h) + (p & (((uint64_t)1 << h) - 1)));
                        else
                            e = at(n, (p >> c) * ((uint64_t)1 << c) + I, (p & (((uint64_t)1 << c) - 1)) * ((uint64_t)1 << h) + J);
                        uint64_t m = hd_layout_owner(&l, e);
                        assert_false(seen[m]);
                        seen[m] = true;
                    }
                }
        }
        free(seen);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_is_the_papers),
        cmocka_unit_test(owner_table_n4),
        cmocka_unit_test(templates_lemma_table1),
        cmocka_unit_test(reading_notes),
        cmocka_unit_test(unaligned_blocks_conflict),
        cmocka_unit_test(skew_rot_odd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
