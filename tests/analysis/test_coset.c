/*
 * test_coset.c — subspaces of GF(2)^k and solution sets of linear systems
 * (analysis/coset.c), against enumeration: for k <= 12 every vector of
 * GF(2)^k is tried, so a null space, a consistency test or a coset is
 * compared with the set of vectors that satisfy the equations one by one.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define K_MAX 12   /* 2^12 vectors enumerated per case */

static int parity(uint64_t x)
{
    return __builtin_parityll(x);
}

/* y_r = parity(rows[r] & i): the system's left-hand side at i. */
static uint64_t lhs(const uint64_t *rows, int m, uint64_t i)
{
    uint64_t y = 0;
    for (int r = 0; r < m; r++)
        y |= (uint64_t)parity(rows[r] & i) << r;
    return y;
}

/* Random equations, often dependent (sums of earlier ones) and sparse. */
static void random_rows(uint64_t *rows, int m, int k)
{
    for (int r = 0; r < m; r++) {
        switch (tu_below(4)) {
        case 0:
            rows[r] = r > 1 ? rows[tu_below((uint64_t)r)] ^ rows[tu_below((uint64_t)r)] : 0;
            break;
        case 1:
            rows[r] = k ? UINT64_C(1) << tu_below((uint64_t)k) : 0;
            break;
        default:
            rows[r] = tu_bits(k);
        }
    }
}

/* The form's invariants: distinct increasing leading bits, each present
 * in its own vector only. */
static void check_form(const hd_space *s)
{
    int last = -1;
    for (int t = 0; t < s->dim; t++) {
        TU_CHECK(s->v[t] != 0, "basis vector %d is zero", t);
        TU_CHECK((s->v[t] & ~hd_mask(s->k)) == 0, "vector beyond k bits");
        int h = 63 - __builtin_clzll(s->v[t]);
        TU_CHECK(h > last, "leading bits not increasing at %d", t);
        last = h;
        for (int u = 0; u < s->dim; u++)
            TU_CHECK(u == t || !((s->v[u] >> h) & 1),
                     "leading bit %d of vector %d also in vector %d", h, t, u);
    }
}

static bool all_single_bits(const hd_space *s)
{
    for (int t = 0; t < s->dim; t++)
        if (__builtin_popcountll(s->v[t]) != 1)
            return false;
    return true;
}

static void test_null_space_and_order(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    uint8_t *in = malloc((size_t)1 << K_MAX);
    for (long c = 0; c < cases; c++) {
        tu_case(c, NULL, 0, NULL);
        int k = (int)tu_below(K_MAX + 1), m = (int)tu_below(2 * K_MAX + 2);
        uint64_t rows[2 * K_MAX + 2];
        random_rows(rows, m, k);
        hd_space s = hd_null_space(rows, m, k);
        check_form(&s);
        /* The same set as enumeration gives. */
        long count = 0;
        for (uint64_t i = 0; i < (UINT64_C(1) << k); i++) {
            in[i] = lhs(rows, m, i) == 0;
            count += in[i];
            TU_CHECK(hd_space_contains(&s, i) == in[i], "membership of %llu, k %d",
                     (unsigned long long)i, k);
        }
        TU_CHECK_EQ(count, UINT64_C(1) << s.dim, "size of the null space");
        /* Elements in increasing order, each once. */
        uint64_t prev = 0;
        for (uint64_t j = 0; j < (UINT64_C(1) << s.dim); j++) {
            uint64_t x = hd_space_element(&s, j);
            TU_CHECK(in[x], "element %llu not in the space", (unsigned long long)j);
            TU_CHECK(j == 0 || x > prev, "elements not increasing at %llu",
                     (unsigned long long)j);
            prev = x;
        }
        TU_CHECK_EQ(hd_space_is_coordinate(&s), all_single_bits(&s), "coordinate");
    }
    free(in);
}

static void test_reduce_and_cosets(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    for (long c = 0; c < cases; c++) {
        tu_case(c, NULL, 0, NULL);
        int k = 1 + (int)tu_below(K_MAX);
        hd_space s = hd_space_zero(k);
        int want = (int)tu_below((uint64_t)k + 1);
        for (int t = 0; t < 3 * k && s.dim < want; t++)
            hd_space_add(&s, tu_bits(k));
        check_form(&s);
        uint64_t x = tu_bits(k), y = tu_bits(k);
        /* Linear, zero on S, constant on each coset, and a member of it. */
        TU_CHECK_EQ(hd_space_reduce(&s, x ^ y),
                    hd_space_reduce(&s, x) ^ hd_space_reduce(&s, y), "linear");
        uint64_t r = hd_space_reduce(&s, x);
        TU_CHECK(hd_space_contains(&s, r ^ x), "reduce leaves the coset");
        TU_CHECK_EQ(r & hd_space_leads(&s), 0, "reduced has a leading bit");
        for (int t = 0; t < 8; t++) {
            uint64_t z = hd_space_element(&s, tu_bits(s.dim));
            TU_CHECK_EQ(hd_space_reduce(&s, x ^ z), r, "not constant on the coset");
        }
        /* A reduced x0 makes x0 + element(j) increasing in j. */
        uint64_t prev = 0;
        for (uint64_t j = 0; j < (UINT64_C(1) << s.dim); j++) {
            uint64_t e = r ^ hd_space_element(&s, j);
            TU_CHECK(j == 0 || e > prev, "coset not increasing");
            prev = e;
        }
    }
}

static void test_image_and_complement(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(2000);
    uint8_t *seen = malloc((size_t)1 << K_MAX);
    for (long c = 0; c < cases; c++) {
        tu_case(c, NULL, 0, NULL);
        int k = 1 + (int)tu_below(10), out = 1 + (int)tu_below(K_MAX);
        hd_space s = hd_space_zero(k);
        int want = (int)tu_below((uint64_t)k + 1);
        for (int t = 0; t < 3 * k && s.dim < want; t++)
            hd_space_add(&s, tu_bits(k));
        hd_affine f = hd_affine_constant(k, tu_bits(out));
        for (int t = 0; t < out; t++)
            f.row[t] = tu_chance(1, 3) ? 0 : tu_bits(k);
        hd_space img = hd_space_image(&s, &f, out);
        check_form(&img);
        memset(seen, 0, (size_t)1 << out);
        long distinct = 0;
        for (uint64_t j = 0; j < (UINT64_C(1) << s.dim); j++) {
            uint64_t v = hd_affine_apply(&f, hd_space_element(&s, j)) ^ f.c;
            distinct += !seen[v];
            seen[v] = 1;
            TU_CHECK(hd_space_contains(&img, v), "image misses F v");
        }
        TU_CHECK_EQ(distinct, UINT64_C(1) << img.dim, "image size");

        /* A subspace of s, and its complement in s. */
        hd_space sub = hd_space_zero(k);
        for (int t = 0; t < s.dim; t++)
            if (tu_chance(1, 2))
                hd_space_add(&sub, hd_space_element(&s, tu_bits(s.dim)));
        hd_space comp = hd_space_complement(&s, &sub);
        check_form(&comp);
        TU_CHECK_EQ(comp.dim + sub.dim, s.dim, "dimensions add up");
        for (uint64_t j = 1; j < (UINT64_C(1) << comp.dim); j++) {
            uint64_t v = hd_space_element(&comp, j);
            TU_CHECK(!hd_space_contains(&sub, v), "complement meets sub");
            TU_CHECK(hd_space_contains(&s, v), "complement leaves the whole");
        }
    }
    free(seen);
}

static void test_system_solve(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    for (long c = 0; c < cases; c++) {
        tu_case(c, NULL, 0, NULL);
        int k = (int)tu_below(K_MAX + 1), m = (int)tu_below(K_MAX + 3);
        uint64_t rows[K_MAX + 3];
        random_rows(rows, m, k);
        hd_system sys;
        TU_CHECK_EQ(hd_system_solve(rows, m, k, &sys), HD_OK, "solve");
        check_form(&sys.null);
        /* For every right-hand side: consistency as enumeration says, and
         * the coset x0 + null equal to the solution set, in order. */
        for (uint64_t y = 0; y < (UINT64_C(1) << m) && y < 64; y++) {
            uint64_t yy = m <= 6 ? y : tu_bits(m);
            long solutions = 0;
            for (uint64_t i = 0; i < (UINT64_C(1) << k); i++)
                solutions += lhs(rows, m, i) == yy;
            bool ok = hd_system_consistent(&sys, yy);
            TU_CHECK(ok == (solutions > 0), "consistency of y = %llu",
                     (unsigned long long)yy);
            if (!ok)
                continue;
            TU_CHECK_EQ(solutions, UINT64_C(1) << sys.null.dim, "number of solutions");
            uint64_t x0 = hd_system_particular(&sys, yy);
            TU_CHECK_EQ(hd_space_reduce(&sys.null, x0), x0, "x0 not reduced");
            uint64_t prev = 0;
            for (uint64_t j = 0; j < (UINT64_C(1) << sys.null.dim); j++) {
                uint64_t x = x0 ^ hd_space_element(&sys.null, j);
                TU_CHECK_EQ(lhs(rows, m, x), yy, "not a solution");
                TU_CHECK(j == 0 || x > prev, "solutions not increasing");
                prev = x;
            }
        }
    }
}

/* 64-bit extremes: a full-rank and an empty system on 64 unknowns. */
static void test_edges(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    uint64_t rows[64];
    for (int r = 0; r < 64; r++)
        rows[r] = UINT64_C(1) << r;
    hd_system sys;
    TU_CHECK_EQ(hd_system_solve(rows, 64, 64, &sys), HD_OK, "solve 64");
    TU_CHECK_EQ(sys.null.dim, 0, "full rank: null 0");
    TU_CHECK_EQ(sys.nchecks, 0, "full rank: no checks");
    uint64_t y = tu_rand();
    TU_CHECK_EQ(hd_system_particular(&sys, y), y, "identity solves to y");
    hd_space all = hd_null_space(rows, 0, 64);
    TU_CHECK_EQ(all.dim, 64, "no equations: everything");
    TU_CHECK(hd_space_is_coordinate(&all), "no equations: unit vectors");
    TU_CHECK_EQ(hd_space_element(&all, y), y, "element of the whole space");
    TU_CHECK_EQ(hd_system_solve(rows, 65, 64, &sys), HD_EINVAL, "65 equations");
    /* 200 equations for the null space: every unit row twice, then sums. */
    uint64_t many[200];
    for (int r = 0; r < 200; r++)
        many[r] = r < 128 ? UINT64_C(1) << (r % 60) : many[r - 128] ^ many[r - 127];
    hd_space s = hd_null_space(many, 200, 64);
    TU_CHECK_EQ(s.dim, 4, "bits 60..63 free");
    TU_CHECK_EQ(hd_space_leads(&s), UINT64_C(0xf) << 60, "leads 60..63");
}

static void test_solve_one(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    for (long c = 0; c < cases; c++) {
        tu_case(c, NULL, 0, NULL);
        int k = (int)tu_below(K_MAX + 1), m = (int)tu_below(3 * K_MAX);
        uint64_t rows[3 * K_MAX];
        uint8_t rhs[3 * K_MAX];
        random_rows(rows, m, k);
        for (int r = 0; r < m; r++)
            rhs[r] = (uint8_t)tu_below(2);
        bool any = false;
        for (uint64_t i = 0; i < (UINT64_C(1) << k) && !any; i++) {
            bool ok = true;
            for (int r = 0; r < m && ok; r++)
                ok = parity(rows[r] & i) == rhs[r];
            any = ok;
        }
        uint64_t x = ~UINT64_C(0);
        bool got = hd_solve_one(rows, rhs, m, k, &x);
        TU_CHECK(got == any, "solvable: %d, enumeration %d", got, any);
        for (int r = 0; got && r < m; r++)
            TU_CHECK(parity(rows[r] & x) == rhs[r], "equation %d not satisfied", r);
    }
}

/* A random one-to-one map of k bits into `bits` bits (bits >= k). */
static hd_affine random_injective(int k, int bits)
{
    for (;;) {
        hd_affine f = hd_affine_constant(k, tu_bits(bits));
        for (int t = 0; t < bits; t++)
            f.row[t] = k && tu_chance(1, 4) ? UINT64_C(1) << tu_below((uint64_t)k) : tu_bits(k);
        if (k == 0 || hd_affine_collision(&f, bits) == 0)
            return f;
    }
}

static void test_flow_conflict(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(2000);
    for (long c = 0; c < cases; c++) {
        tu_case(c, NULL, 0, NULL);
        int k = (int)tu_below(9), bits = k + (int)tu_below(3);
        hd_affine w = random_injective(k, bits);
        hd_affine r = hd_affine_constant(k, tu_bits(bits));
        for (int t = 0; t < bits; t++)
            r.row[t] = tu_chance(1, 3) ? w.row[t] : tu_bits(k);
        if (tu_chance(1, 4))
            r = w;                      /* reads what the same iteration writes */
        if (tu_chance(1, 4)) {          /* a shift-like read: one bit flipped */
            r = w;
            r.c ^= UINT64_C(1) << tu_below((uint64_t)(bits ? bits : 1));
        }
        bool any = false;
        for (uint64_t ir = 0; ir < (UINT64_C(1) << k) && !any; ir++)
            for (uint64_t iw = 0; iw < ir && !any; iw++)
                any = ((hd_affine_apply(&w, iw) ^ hd_affine_apply(&r, ir)) & hd_mask(bits)) == 0;
        uint64_t iw = 0, ir = 0;
        int got = hd_affine_flow_conflict(&w, &r, bits, &iw, &ir);
        TU_CHECK(got == (any ? 1 : 0), "conflict: %d, enumeration %d (k %d)", got, any, k);
        if (got == 1) {
            TU_CHECK(iw < ir && ir < (UINT64_C(1) << k), "example order %llu %llu",
                     (unsigned long long)iw, (unsigned long long)ir);
            TU_CHECK_EQ(hd_affine_apply(&w, iw) & hd_mask(bits),
                        hd_affine_apply(&r, ir) & hd_mask(bits), "example element");
        }
    }
    /* A write that is not one-to-one is refused. */
    hd_affine w = hd_affine_constant(3, 0), r = hd_affine_identity(3);
    TU_CHECK_EQ(hd_affine_flow_conflict(&w, &r, 3, NULL, NULL), HD_EINVAL, "not 1-1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_space_and_order),
        cmocka_unit_test(test_reduce_and_cosets),
        cmocka_unit_test(test_image_and_complement),
        cmocka_unit_test(test_system_solve),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_solve_one),
        cmocka_unit_test(test_flow_conflict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
