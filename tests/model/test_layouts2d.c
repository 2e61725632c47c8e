/*
 * test_layouts2d.c — the 2-D distributions of High Performance Fortran
 * (HPF's (BLOCK, BLOCK) and (CYCLIC, CYCLIC), High Performance Fortran
 * Forum 1993) and Batcher's i XOR j storage (Batcher 1977, as Lee and
 * Aboelaze cite it), as hd_array_layout gives them, checked element by
 * element against the formulas of docs/layouts.md computed here by
 * division and remainder, not from the library's bit rows:
 *   - (BLOCK, BLOCK) of T A[R][C] on P = 2^n processors as a Pr x Pc grid,
 *     Pr the least power of two with Pr^2 >= P (the rows take the larger
 *     half) and Pc = P / Pr: A(i, j) on pi Pc + pj with pi = i / (R/Pr),
 *     pj = j / (C/Pc), at offset (i mod (R/Pr)) (C/Pc) + j mod (C/Pc);
 *   - (CYCLIC, CYCLIC): pi = i mod Pr, pj = j mod Pc, at offset
 *     (i / Pr) (C/Pc) + j / Pc;
 *   - xor: A(i, j) of an N x N matrix, N = 2^n, on i XOR j at offset i,
 *     for the matrix written 2-D or 1-D;
 * for every shape with R >= Pr and C >= Pc up to 2^13 elements and n = 1
 * .. 6 (xor: n = 1 .. 7), and that (owner, offset) names each element
 * once: no two elements share a processor and an offset, and every slice
 * is full.  Also the templates Lee and Aboelaze compare: under xor every
 * row and column is conflict-free and an aligned sqrt N x sqrt N block is
 * not (their Section 1 on Batcher's method).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

static hd_array array_of(hd_dist_kind kind, int n, uint64_t R, uint64_t C)
{
    int log2 = 0;
    while (((uint64_t)1 << log2) < R * C)
        log2++;
    hd_array a = { .name = "A", .ndims = 2, .extent = { (int64_t)R, (int64_t)C },
                   .log2_size = log2 };
    hd_array_set_dist(&a, n, kind, 0);
    return a;
}

/* Pr: the least power of two whose square is at least P. */
static uint64_t grid_rows(uint64_t P)
{
    uint64_t pr = 1;
    while (pr * pr < P)
        pr *= 2;
    return pr;
}

/* Each (owner, offset) named by one element, and each one named. */
static void assert_one_to_one(const hd_layout *l, uint64_t P, uint64_t elements)
{
    uint64_t slice = elements / P;
    assert_int_equal(slice * P, elements);
    unsigned char *seen = calloc(elements, 1);
    assert_non_null(seen);
    for (uint64_t e = 0; e < elements; e++) {
        uint64_t m = hd_layout_owner(l, e), o = hd_layout_offset(l, e);
        assert_true(m < P);
        assert_true(o < slice);
        assert_false(seen[m * slice + o]);
        seen[m * slice + o] = 1;
    }
    free(seen);
}

/* (BLOCK, BLOCK) and (CYCLIC, CYCLIC) on every shape. */
static void two_dimensional(void **state)
{
    (void)state;
    int shapes = 0;
    for (int n = 1; n <= 6; n++) {
        uint64_t P = (uint64_t)1 << n, Pr = grid_rows(P), Pc = P / Pr;
        assert_int_equal((uint64_t)1 << hd_grid_rows_log2(n), Pr);
        for (uint64_t R = Pr; R * Pc <= ((uint64_t)1 << 13); R *= 2)
            for (uint64_t C = Pc; R * C <= ((uint64_t)1 << 13); C *= 2) {
                hd_array ab = array_of(HD_DIST_BLOCK_2D, n, R, C);
                hd_array ac = array_of(HD_DIST_CYCLIC_2D, n, R, C);
                assert_int_equal(ab.shift, -1);
                assert_int_equal(ac.shift, -1);
                hd_layout lb = hd_array_layout(&ab, n), lc = hd_array_layout(&ac, n);
                uint64_t br = R / Pr, bc = C / Pc;     /* a processor's part */
                for (uint64_t i = 0; i < R; i++)
                    for (uint64_t j = 0; j < C; j++) {
                        uint64_t e = i * C + j;
                        assert_int_equal(hd_layout_owner(&lb, e), (i / br) * Pc + j / bc);
                        assert_int_equal(hd_layout_offset(&lb, e), (i % br) * bc + j % bc);
                        assert_int_equal(hd_layout_owner(&lc, e), (i % Pr) * Pc + j % Pc);
                        assert_int_equal(hd_layout_offset(&lc, e), (i / Pr) * bc + j / Pc);
                    }
                assert_one_to_one(&lb, P, R * C);
                assert_one_to_one(&lc, P, R * C);
                shapes++;
            }
    }
    /* n = 1 .. 6: every (R, C) with R >= Pr, C >= Pc, R C <= 2^13. */
    assert_true(shapes > 100);
}

/* The 4 x 4 grid of the 4-cube on an 8 x 8 matrix, written out by hand:
 * (BLOCK, BLOCK) gives each processor a 2 x 2 block, (CYCLIC, CYCLIC)
 * deals rows and columns out in turn. */
static void tables_n4(void **state)
{
    (void)state;
    static const int block[8][8] = {
        {  0,  0,  1,  1,  2,  2,  3,  3 },
        {  0,  0,  1,  1,  2,  2,  3,  3 },
        {  4,  4,  5,  5,  6,  6,  7,  7 },
        {  4,  4,  5,  5,  6,  6,  7,  7 },
        {  8,  8,  9,  9, 10, 10, 11, 11 },
        {  8,  8,  9,  9, 10, 10, 11, 11 },
        { 12, 12, 13, 13, 14, 14, 15, 15 },
        { 12, 12, 13, 13, 14, 14, 15, 15 },
    };
    static const int cyclic[8][8] = {
        {  0,  1,  2,  3,  0,  1,  2,  3 },
        {  4,  5,  6,  7,  4,  5,  6,  7 },
        {  8,  9, 10, 11,  8,  9, 10, 11 },
        { 12, 13, 14, 15, 12, 13, 14, 15 },
        {  0,  1,  2,  3,  0,  1,  2,  3 },
        {  4,  5,  6,  7,  4,  5,  6,  7 },
        {  8,  9, 10, 11,  8,  9, 10, 11 },
        { 12, 13, 14, 15, 12, 13, 14, 15 },
    };
    hd_array ab = array_of(HD_DIST_BLOCK_2D, 4, 8, 8), ac = array_of(HD_DIST_CYCLIC_2D, 4, 8, 8);
    hd_layout lb = hd_array_layout(&ab, 4), lc = hd_array_layout(&ac, 4);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            assert_int_equal(hd_layout_owner(&lb, (uint64_t)(8 * i + j)), block[i][j]);
            assert_int_equal(hd_layout_owner(&lc, (uint64_t)(8 * i + j)), cyclic[i][j]);
        }
    /* The 3-cube's grid is 4 x 2: A[4][2] has one element a processor,
     * numbered row-major under both. */
    hd_array a3 = array_of(HD_DIST_BLOCK_2D, 3, 4, 2), c3 = array_of(HD_DIST_CYCLIC_2D, 3, 4, 2);
    hd_layout l3 = hd_array_layout(&a3, 3), k3 = hd_array_layout(&c3, 3);
    for (uint64_t e = 0; e < 8; e++) {
        assert_int_equal(hd_layout_owner(&l3, e), e);
        assert_int_equal(hd_layout_owner(&k3, e), e);
    }
}

/* Batcher's i XOR j, for the matrix written N x N and as N^2 elements. */
static void xor_layout(void **state)
{
    (void)state;
    for (int n = 1; n <= 7; n++) {
        uint64_t N = (uint64_t)1 << n;
        hd_array a2 = array_of(HD_DIST_XOR, n, N, N);
        hd_array a1 = { .name = "A", .ndims = 1, .extent = { (int64_t)(N * N) },
                        .log2_size = 2 * n };
        hd_array_set_dist(&a1, n, HD_DIST_XOR, 0);
        assert_int_equal(a2.shift, -1);
        hd_layout l2 = hd_array_layout(&a2, n), l1 = hd_array_layout(&a1, n);
        for (uint64_t i = 0; i < N; i++)
            for (uint64_t j = 0; j < N; j++) {
                uint64_t e = i * N + j;
                assert_int_equal(hd_layout_owner(&l2, e), i ^ j);
                assert_int_equal(hd_layout_offset(&l2, e), i);
                assert_int_equal(hd_layout_owner(&l1, e), i ^ j);
                assert_int_equal(hd_layout_offset(&l1, e), i);
            }
        assert_one_to_one(&l2, N, N * N);
    }
}

/* Lee and Aboelaze, Section 1: Batcher's method gives conflict-free rows
 * and columns, not contiguous or distributed blocks.  For even n, every
 * row and column has one element on each processor; every aligned
 * sqrt N x sqrt N block, contiguous or distributed, has sqrt N elements on
 * some processor. */
static void xor_templates(void **state)
{
    (void)state;
    for (int n = 2; n <= 8; n += 2) {
        uint64_t N = (uint64_t)1 << n, r = (uint64_t)1 << (n / 2);
        hd_array a = array_of(HD_DIST_XOR, n, N, N);
        hd_layout l = hd_array_layout(&a, n);
        uint64_t *count = malloc(N * sizeof *count);
        assert_non_null(count);
        for (int kind = 0; kind < 4; kind++)
            for (uint64_t I = 0; I < (kind < 2 ? N : r); I++)
                for (uint64_t J = 0; J < (kind < 2 ? 1 : r); J++) {
                    memset(count, 0, N * sizeof *count);
                    uint64_t most = 0;
                    for (uint64_t p = 0; p < N; p++) {
                        uint64_t i, j;
                        if (kind == 0) {            /* row I */
                            i = I;
                            j = p;
                        } else if (kind == 1) {     /* column I */
                            i = p;
                            j = I;
                        } else if (kind == 2) {     /* contiguous block I, J */
                            i = I * r + p / r;
                            j = J * r + p % r;
                        } else {                    /* distributed block I, J */
                            i = I + (p / r) * r;
                            j = J + (p % r) * r;
                        }
                        uint64_t m = hd_layout_owner(&l, i * N + j);
                        if (++count[m] > most)
                            most = count[m];
                    }
                    assert_int_equal(most, kind < 2 ? 1 : r);
                }
        free(count);
    }
}

static void names(void **state)
{
    (void)state;
    assert_string_equal(hd_dist_name(HD_DIST_BLOCK_2D), "block, block");
    assert_string_equal(hd_dist_name(HD_DIST_CYCLIC_2D), "cyclic, cyclic");
    assert_string_equal(hd_dist_name(HD_DIST_XOR), "xor");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_dimensional),
        cmocka_unit_test(tables_n4),
        cmocka_unit_test(xor_layout),
        cmocka_unit_test(xor_templates),
        cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
