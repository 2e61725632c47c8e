/*
 * test_gf2.c — GF(2) matrices and reordering mappings (analysis/gf2.c).
 *
 * Every library result is compared with a naive implementation from
 * testutil.c (entry-by-entry products, int-array elimination, ranks by
 * listing spans, null spaces by enumeration) on thousands of random
 * matrices with n <= 10, plus the n = 1 and n = 64 extremes.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define SMALL_MAX 10     /* largest n of the random sweeps */

static int random_small_n(void)
{
    return 1 + (int)tu_below(SMALL_MAX);
}

static uint64_t full(int n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* A random subset of L_n, biased towards both small and large sets. */
static uint64_t random_subset(int n)
{
    switch (tu_below(4)) {
    case 0: return tu_bits(n) & tu_bits(n);
    case 1: return tu_bits(n) | tu_bits(n);
    case 2: return full(n);
    default: return tu_bits(n);
    }
}

/* A random matrix of random rank, or a uniform one. */
static hd_matrix random_any_matrix(int n, int *rank)
{
    if (tu_chance(1, 2)) {
        *rank = (int)tu_below((uint64_t)n + 1);
        return tu_random_matrix_of_rank(n, *rank);
    }
    hd_matrix a = tu_chance(1, 2) ? tu_random_matrix(n)
                                  : tu_random_sparse(n, 1, 3);
    *rank = tu_gauss_rank_sub(&a, full(n), full(n));
    return a;
}

static bool naive_is_permutation(const hd_matrix *a)
{
    for (int i = 0; i < a->n; i++) {
        int in_row = 0, in_col = 0;
        for (int j = 0; j < a->n; j++) {
            in_row += tu_entry(a, i, j);
            in_col += tu_entry(a, j, i);
        }
        if (in_row != 1 || in_col != 1)
            return false;
    }
    return true;
}

/* --------------------------------------------------------------- tests */

static void test_mask_zero_identity(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    for (int n = 0; n <= 64; n++) {
        uint64_t m = 0;
        for (int i = 0; i < n; i++)
            m |= UINT64_C(1) << i;
        TU_CHECK_EQ(hd_mask(n), m, "hd_mask");
    }
    for (int n = 1; n <= 64; n++) {
        hd_matrix z = hd_matrix_zero(n), id = hd_matrix_identity(n);
        TU_CHECK_EQ(z.n, n, "zero n");
        TU_CHECK_EQ(id.n, n, "identity n");
        for (int i = 0; i < HD_MAX_DIM; i++) {
            /* Rows n .. 63 stay zero (the invariant of hd_matrix). */
            TU_CHECK_EQ(z.row[i], 0, "zero row");
            TU_CHECK_EQ(id.row[i], i < n ? UINT64_C(1) << i : 0, "identity row");
        }
        TU_CHECK_EQ(hd_rank(&id), n, "rank I");
        TU_CHECK_EQ(hd_rank(&z), 0, "rank 0");
    }
}

static void test_apply_mul_transpose(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(4000);
    for (long t = 0; t < cases; t++) {
        /* Mostly n <= 10; every 16th case at n = 64 or near it. */
        int n = t % 16 == 15 ? 60 + (int)tu_below(5) : random_small_n(), r;
        hd_matrix a = random_any_matrix(n, &r), b = random_any_matrix(n, &r);
        tu_case(t, NULL, 0, NULL);

        for (int k = 0; k < 8; k++) {
            uint64_t x = tu_bits(n);
            TU_CHECK_EQ(hd_matrix_apply(&a, x), tu_naive_apply(&a, x), "A x");
        }
        hd_matrix p = hd_matrix_mul(&a, &b), q = tu_naive_mul(&a, &b);
        TU_CHECK(hd_matrix_equal(&p, &q), "A B differs from the naive product, n = %d", n);
        uint64_t x = tu_bits(n);
        TU_CHECK_EQ(hd_matrix_apply(&p, x),
                    tu_naive_apply(&a, tu_naive_apply(&b, x)), "(A B) x = A (B x)");

        hd_matrix at = hd_matrix_transpose(&a);
        TU_CHECK_EQ(at.n, n, "transpose n");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                TU_CHECK(tu_entry(&at, i, j) == tu_entry(&a, j, i),
                         "transpose entry (%d, %d), n = %d", i, j, n);
        for (int i = n; i < HD_MAX_DIM; i++)
            TU_CHECK_EQ(at.row[i], 0, "transpose row beyond n");
        for (int j = 0; j < n; j++) {
            uint64_t col = 0;
            for (int i = 0; i < n; i++)
                col |= (uint64_t)tu_entry(&a, i, j) << i;
            TU_CHECK_EQ(hd_matrix_column(&a, j), col, "column");
        }

        /* Equality: reflexive, broken by one flipped entry or another n. */
        hd_matrix c = a;
        TU_CHECK(hd_matrix_equal(&a, &c), "A == copy of A");
        int i = (int)tu_below((uint64_t)n), j = (int)tu_below((uint64_t)n);
        c.row[i] ^= UINT64_C(1) << j;
        TU_CHECK(!hd_matrix_equal(&a, &c), "one entry flipped still equal");
        if (n < 64) {
            hd_matrix d = a;
            d.n = n + 1;
            TU_CHECK(!hd_matrix_equal(&a, &d), "different n still equal");
        }
    }
}

/* hd_rank against both naive ranks; matrices of known rank by construction. */
static void test_rank(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(5000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n(), r;
        hd_matrix a = random_any_matrix(n, &r);
        tu_case(t, NULL, 0, NULL);
        TU_CHECK_EQ(hd_rank(&a), r, "hd_rank vs construction / elimination");
        TU_CHECK_EQ(hd_rank(&a), tu_span_rank_sub(&a, full(n), full(n)),
                    "hd_rank vs span enumeration");
        hd_matrix at = hd_matrix_transpose(&a);
        TU_CHECK_EQ(hd_rank(&at), r, "row rank = column rank");
    }
    /* n = 64: known ranks, including the extremes. */
    for (int r = 0; r <= 64; r += (r < 4 || r > 60) ? 1 : 7) {
        hd_matrix a = tu_random_matrix_of_rank(64, r);
        TU_CHECK_EQ(hd_rank(&a), r, "n = 64 rank by construction");
        TU_CHECK_EQ(hd_rank(&a), tu_gauss_rank_sub(&a, full(64), full(64)),
                    "n = 64 rank vs elimination");
    }
}

static void test_rank_sub(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(8000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n(), r;
        hd_matrix a = random_any_matrix(n, &r);
        uint64_t rows = random_subset(n), cols = random_subset(n);
        tu_case(t, NULL, 0, NULL);
        int got = hd_rank_sub(&a, rows, cols);
        TU_CHECK(got == tu_span_rank_sub(&a, rows, cols),
                 "hd_rank_sub rows %#llx cols %#llx: %d vs span %d, n = %d",
                 (unsigned long long)rows, (unsigned long long)cols, got,
                 tu_span_rank_sub(&a, rows, cols), n);
        TU_CHECK_EQ(got, tu_gauss_rank_sub(&a, rows, cols), "hd_rank_sub vs elimination");
        /* The submatrices of Theorem 1: A_{L_{i+1}, L_i}. */
        int i = (int)tu_below((uint64_t)n);
        TU_CHECK_EQ(hd_rank_sub(&a, full(i + 1), full(i)),
                    tu_span_rank_sub(&a, full(i + 1), full(i)), "rank A_{L_{i+1},L_i}");
    }
    for (long t = 0; t < tu_cases(40); t++) {
        hd_matrix a = tu_random_matrix(64);
        uint64_t rows = random_subset(64), cols = random_subset(64);
        TU_CHECK_EQ(hd_rank_sub(&a, rows, cols), tu_gauss_rank_sub(&a, rows, cols),
                    "n = 64 hd_rank_sub vs elimination");
    }
}

/*
 * The columns of A_{R,C} that are sums of other columns are those in the
 * support of some null vector u (A_{R,C} u = 0, u != 0); listed here by
 * trying every u over C.
 */
static uint64_t naive_dependent_columns(const hd_matrix *a, uint64_t rows,
                                        uint64_t cols)
{
    int idx[HD_MAX_DIM], k = 0;
    uint64_t dep = 0;
    for (int j = 0; j < a->n; j++)
        if ((cols >> j) & 1)
            idx[k++] = j;
    for (uint64_t s = 1; s < (UINT64_C(1) << k); s++) {
        uint64_t u = 0;
        for (int t = 0; t < k; t++)
            if ((s >> t) & 1)
                u |= UINT64_C(1) << idx[t];
        if ((tu_naive_apply(a, u) & rows) == 0)
            dep |= u;
    }
    return dep;
}

static void test_dependent_columns(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(6000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n(), r;
        hd_matrix a = random_any_matrix(n, &r);
        uint64_t rows = random_subset(n), cols = random_subset(n);
        tu_case(t, NULL, 0, NULL);
        uint64_t got = hd_dependent_columns(&a, rows, cols);
        uint64_t want = naive_dependent_columns(&a, rows, cols);
        TU_CHECK(got == want, "hd_dependent_columns rows %#llx cols %#llx: %#llx, want %#llx",
                 (unsigned long long)rows, (unsigned long long)cols,
                 (unsigned long long)got, (unsigned long long)want);
        /* Second characterisation: dropping column j keeps the rank. */
        int rk = tu_gauss_rank_sub(&a, rows, cols);
        for (int j = 0; j < n; j++) {
            if (!((cols >> j) & 1))
                continue;
            bool keeps = tu_gauss_rank_sub(&a, rows, cols & ~(UINT64_C(1) << j)) == rk;
            TU_CHECK(keeps == (bool)((got >> j) & 1), "column %d, n = %d", j, n);
        }
    }
}

static void test_inverse(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(5000);
    for (long t = 0; t < cases; t++) {
        int n = t % 50 == 49 ? 64 : random_small_n(), r;
        hd_matrix a = tu_chance(1, 2) ? tu_random_nonsingular(n)
                                      : random_any_matrix(n, &r);
        r = tu_gauss_rank_sub(&a, full(n), full(n));
        hd_matrix inv;
        memset(&inv, 0xa5, sizeof inv);
        hd_matrix sentinel = inv;
        tu_case(t, NULL, 0, NULL);
        bool ok = hd_matrix_inverse(&a, &inv);
        TU_CHECK(ok == (r == n), "inverse returned %d for rank %d, n = %d", ok, r, n);
        if (!ok) {
            TU_CHECK(memcmp(&inv, &sentinel, sizeof inv) == 0,
                     "singular: *inv must stay untouched");
            continue;
        }
        hd_matrix id = hd_matrix_identity(n);
        hd_matrix ai = tu_naive_mul(&a, &inv), ia = tu_naive_mul(&inv, &a);
        TU_CHECK(hd_matrix_equal(&ai, &id), "A inv != I, n = %d", n);
        TU_CHECK(hd_matrix_equal(&ia, &id), "inv A != I, n = %d", n);
        for (int i = n; i < HD_MAX_DIM; i++)
            TU_CHECK_EQ(inv.row[i], 0, "inverse row beyond n");
    }
}

static void test_permutation_matrices(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(4000);
    for (long t = 0; t < cases; t++) {
        int n = t % 40 == 39 ? 64 : random_small_n();
        hd_order o = tu_random_order(n);
        hd_matrix q = hd_order_matrix(&o);
        tu_case(t, NULL, 0, &o);
        TU_CHECK(hd_matrix_is_permutation(&q), "Q of an ordering, n = %d", n);

        /* Break it: move one 1, add one, or remove one. */
        hd_matrix bad = q;
        int i = (int)tu_below((uint64_t)n), j = (int)tu_below((uint64_t)n);
        bad.row[i] ^= UINT64_C(1) << j;
        TU_CHECK(!hd_matrix_is_permutation(&bad), "one entry flipped, n = %d", n);

        hd_matrix a = tu_chance(1, 2) ? tu_random_sparse(n, 1, n) : tu_random_matrix(n);
        TU_CHECK(hd_matrix_is_permutation(&a) == naive_is_permutation(&a),
                 "random matrix, n = %d", n);
    }
    /* A repeated column (two rows equal) is no permutation: the shape of
     * the misprinted Q of Example 4. */
    hd_matrix a = hd_matrix_identity(4);
    a.row[1] = a.row[3];
    TU_CHECK(!hd_matrix_is_permutation(&a), "repeated 1 in one column");
}

static bool naive_order_valid(const hd_order *o)
{
    if (o->n < 1 || o->n > HD_MAX_DIM)
        return false;
    for (int k = 0; k < o->n; k++) {
        if (o->r[k] >= o->n)
            return false;
        for (int l = 0; l < k; l++)
            if (o->r[l] == o->r[k])
                return false;
    }
    return true;
}

static void test_order_helpers(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(4000);
    for (long t = 0; t < cases; t++) {
        int n = t % 20 == 19 ? 1 + (int)tu_below(64) : random_small_n();
        hd_order o = tu_random_order(n);
        tu_case(t, NULL, 0, &o);
        TU_CHECK(hd_order_is_valid(&o), "random ordering, n = %d", n);

        hd_order rev = hd_order_reversed(&o);
        TU_CHECK_EQ(rev.n, n, "reversed n");
        for (int k = 0; k < n; k++)
            TU_CHECK_EQ(rev.r[k], o.r[n - 1 - k], "reversed entry");

        hd_order inv = hd_order_inverse(&o);
        TU_CHECK_EQ(inv.n, n, "inverse n");
        for (int k = 0; k < n; k++) {
            TU_CHECK_EQ(inv.r[o.r[k]], k, "inverse o r");
            TU_CHECK_EQ(o.r[inv.r[k]], k, "o inverse r");
        }

        /* Q: row k has its single 1 in column r_k (Section 5's R(L_n)). */
        hd_matrix q = hd_order_matrix(&o);
        TU_CHECK_EQ(q.n, n, "Q n");
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                TU_CHECK(tu_entry(&q, k, j) == (j == o.r[k]), "Q entry (%d, %d)", k, j);
        /* Q^-1 = Q^t = the matrix of the inverse ordering. */
        hd_matrix qi = hd_order_matrix(&inv), qt = hd_matrix_transpose(&q), qinv;
        TU_CHECK(hd_matrix_equal(&qi, &qt), "matrix(inverse(o)) != Q^t");
        TU_CHECK(hd_matrix_inverse(&q, &qinv), "Q singular");
        TU_CHECK(hd_matrix_equal(&qi, &qinv), "matrix(inverse(o)) != Q^-1");

        for (int k = 0; k < 16; k++) {
            uint64_t x = tu_bits(n), y = 0;
            for (int b = 0; b < n; b++)          /* new bit b is old bit r_b */
                y |= ((x >> o.r[b]) & 1) << b;
            uint64_t got = hd_order_apply(&o, x);
            TU_CHECK_EQ(got, y, "hd_order_apply vs definition");
            TU_CHECK_EQ(got, hd_matrix_apply(&q, x), "hd_order_apply vs Q x");
            TU_CHECK_EQ(got, tu_naive_apply(&q, x), "hd_order_apply vs naive Q x");
            TU_CHECK_EQ(hd_order_apply(&inv, got), x, "Q^-1 Q x");
        }

        /* Breaking a valid ordering. */
        if (n >= 2) {
            hd_order dup = o;
            int a = (int)tu_below((uint64_t)n), b = (a + 1 + (int)tu_below((uint64_t)n - 1)) % n;
            dup.r[a] = dup.r[b];
            TU_CHECK(!hd_order_is_valid(&dup), "repeated bit accepted");
            TU_CHECK(!naive_order_valid(&dup), "naive check");
        }
        hd_order out = o;
        out.r[tu_below((uint64_t)n)] = (uint8_t)(n + tu_below(200));
        TU_CHECK(!hd_order_is_valid(&out), "bit >= n accepted");
    }
    hd_order id = hd_order_identity(5);
    for (int k = 0; k < 5; k++)
        TU_CHECK_EQ(id.r[k], k, "identity ordering");
    hd_order o = hd_order_identity(1);
    o.n = 0;
    TU_CHECK(!hd_order_is_valid(&o), "n = 0 accepted");
    o = hd_order_identity(64);
    o.n = 65;
    TU_CHECK(!hd_order_is_valid(&o), "n = 65 accepted");
}

static void test_edge_sizes(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    /* n = 1: the two matrices [0] and [1]. */
    hd_matrix z = hd_matrix_zero(1), one = hd_matrix_identity(1), inv;
    TU_CHECK_EQ(hd_rank(&z), 0, "rank [0]");
    TU_CHECK_EQ(hd_rank(&one), 1, "rank [1]");
    TU_CHECK(!hd_matrix_inverse(&z, &inv), "[0] invertible");
    TU_CHECK(hd_matrix_inverse(&one, &inv) && hd_matrix_equal(&inv, &one), "[1]^-1");
    TU_CHECK_EQ(hd_matrix_apply(&one, 1), 1, "[1] x");
    TU_CHECK_EQ(hd_matrix_apply(&z, 1), 0, "[0] x");
    TU_CHECK_EQ(hd_dependent_columns(&z, 1, 1), 1, "[0]: column 0 is dependent");
    TU_CHECK_EQ(hd_dependent_columns(&one, 1, 1), 0, "[1]: column 0 independent");
    TU_CHECK(hd_matrix_is_permutation(&one) && !hd_matrix_is_permutation(&z), "n = 1 perm");
    hd_order o1 = hd_order_identity(1);
    TU_CHECK(hd_order_is_valid(&o1), "n = 1 ordering");
    TU_CHECK_EQ(hd_order_apply(&o1, 1), 1, "n = 1 apply");

    /* n = 64: bit 63 must survive every operation (no 1 << 64). */
    hd_matrix id = hd_matrix_identity(64);
    TU_CHECK_EQ(hd_matrix_apply(&id, ~UINT64_C(0)), ~UINT64_C(0), "I x, n = 64");
    TU_CHECK_EQ(hd_matrix_column(&id, 63), UINT64_C(1) << 63, "column 63");
    hd_order o = hd_order_identity(64), rev = hd_order_reversed(&o);
    hd_matrix j = hd_order_matrix(&rev), jinv;     /* the anti-identity */
    TU_CHECK(hd_matrix_is_permutation(&j), "anti-identity is a permutation");
    TU_CHECK_EQ(hd_rank(&j), 64, "rank of the anti-identity");
    TU_CHECK(hd_matrix_inverse(&j, &jinv) && hd_matrix_equal(&jinv, &j), "J^-1 = J");
    TU_CHECK_EQ(hd_order_apply(&rev, 1), UINT64_C(1) << 63, "bit reverse of 1");
    TU_CHECK_EQ(hd_matrix_apply(&j, UINT64_C(1) << 63), 1, "J e_63 = e_0");
    hd_matrix jj = hd_matrix_mul(&j, &j);
    TU_CHECK(hd_matrix_equal(&jj, &id), "J J = I");
    TU_CHECK_EQ(hd_rank_sub(&j, UINT64_C(1) << 63, 1), 1, "row 63 of J is e_0");
    TU_CHECK_EQ(hd_dependent_columns(&j, ~UINT64_C(0), ~UINT64_C(0)), 0, "J independent");
    hd_matrix all = hd_matrix_zero(64);
    for (int i = 0; i < 64; i++)
        all.row[i] = ~UINT64_C(0);
    TU_CHECK_EQ(hd_rank(&all), 1, "all-ones rank");
    TU_CHECK_EQ(hd_dependent_columns(&all, ~UINT64_C(0), ~UINT64_C(0)), ~UINT64_C(0),
                "all-ones columns all dependent");
    TU_CHECK_EQ(hd_matrix_apply(&all, UINT64_C(1) << 63), ~UINT64_C(0), "all-ones e_63");
}

/* g after f, checked by applying one map to the other's value. */
static void test_affine_compose(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    for (long t = 0; t < tu_cases(2000); t++) {
        int k = 1 + (int)tu_below(12), mid = 1 + (int)tu_below(20), out = 1 + (int)tu_below(20);
        hd_affine f = hd_affine_constant(k, tu_bits(mid)), g = hd_affine_constant(mid, tu_bits(out));
        for (int r = 0; r < mid; r++)
            f.row[r] = tu_bits(k);
        for (int r = 0; r < out; r++)
            g.row[r] = tu_bits(mid);
        hd_affine h = hd_affine_compose(&g, &f, out);
        for (int probe = 0; probe < 16; probe++) {
            uint64_t i = tu_bits(k);
            uint64_t want = hd_affine_apply(&g, hd_affine_apply(&f, i) & hd_mask(mid)) & hd_mask(out);
            TU_CHECK(hd_affine_apply(&h, i) == want, "compose at i = %llu (k %d, mid %d, out %d)",
                     (unsigned long long)i, k, mid, out);
        }
    }
}

/* Every layout of today (cyclic, block, block_cyclic: owner = bits
 * shift .. shift+n-1) against the shift-and-mask formulas of the runtime
 * (hd_owner, hd_local_offset), and one-to-one. */
static void test_array_layouts(void **state)
{
    (void)state;
    for (int bits = 1; bits <= 10; bits++)
        for (int n = 1; n <= bits; n++)
            for (int shift = 0; shift + n <= bits; shift++) {
                hd_array a = { .log2_size = bits, .shift = shift, .dist = HD_DIST_CYCLIC };
                hd_layout l = hd_array_layout(&a, n);
                uint8_t *seen = calloc((size_t)1 << bits, 1);
                for (uint64_t e = 0; e < (UINT64_C(1) << bits); e++) {
                    uint64_t owner = hd_layout_owner(&l, e), off = hd_layout_offset(&l, e);
                    uint64_t low = e & hd_mask(shift), high = e >> (shift + n);
                    TU_CHECK(owner == ((e >> shift) & hd_mask(n)), "owner of %llu",
                             (unsigned long long)e);
                    TU_CHECK(off == (low | high << shift), "offset of %llu",
                             (unsigned long long)e);
                    uint64_t key = owner << (bits - n) | off;
                    TU_CHECK(!seen[key], "two elements at one place (bits %d, n %d)", bits, n);
                    seen[key] = 1;
                }
                free(seen);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mask_zero_identity),
        cmocka_unit_test(test_apply_mul_transpose),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_rank_sub),
        cmocka_unit_test(test_dependent_columns),
        cmocka_unit_test(test_inverse),
        cmocka_unit_test(test_permutation_matrices),
        cmocka_unit_test(test_order_helpers),
        cmocka_unit_test(test_affine_compose),
        cmocka_unit_test(test_array_layouts),
        cmocka_unit_test(test_edge_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
