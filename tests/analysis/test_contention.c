/*
 * test_contention.c — the LCC model (Section 2.2), Theorem 1 and its mirror
 * image for scatters (analysis/contention.c), and Theorem 2.
 *
 * Three ways of finding T_i must agree on thousands of random LCCs of every
 * class for n = 1 .. 10: the closed formulas (hd_contention), the library's
 * hop-by-hop path walker (hd_channel_loads), and the test's own counter,
 * which lists each message's channels in closed form (testutil.c).
 * Theorem 2 is checked by relabelling every message (s, d) to (Q s, Q d)
 * and counting the relabelled paths.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define SMALL_MAX 10

static int random_small_n(void)
{
    return 1 + (int)tu_below(SMALL_MAX);
}

static uint64_t full(int n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* The test's own T for c, from its own message list. */
static void own_loads(const hd_lcc *c, uint64_t T[])
{
    uint64_t count = UINT64_C(1) << c->A.n;
    uint64_t *src = malloc(count * sizeof *src), *dst = malloc(count * sizeof *dst);
    assert_non_null(src);
    assert_non_null(dst);
    tu_messages(c, src, dst);
    tu_path_loads(c->A.n, src, dst, count, T);
    free(src);
    free(dst);
}

static void check_same_T(const uint64_t got[], const uint64_t want[], int n,
                         const char *got_name, const char *want_name)
{
    for (int i = 0; i < n; i++)
        TU_CHECK(got[i] == want[i], "T_%d: %s %llu, %s %llu (n = %d)", i, got_name,
                 (unsigned long long)got[i], want_name, (unsigned long long)want[i], n);
}

/* ---------------------------------------------------------------- model */

static void test_next_hop(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    for (long t = 0; t < tu_cases(20000); t++) {
        int n = 1 + (int)tu_below(64);
        hd_target net = hd_target_ecube(n);
        uint64_t a = tu_bits(n), b = tu_chance(1, 8) ? a : tu_bits(n);
        int want = -1;
        for (int k = n - 1; k >= 0; k--)            /* lowest differing bit */
            if (((a ^ b) >> k) & 1)
                want = k;
        TU_CHECK(hd_target_next_hop(&net, a, b) == want, "next hop %#llx -> %#llx, n = %d",
                 (unsigned long long)a, (unsigned long long)b, n);
    }
}

/* Classes (Definitions 2-4), BPC, fixed dimensions, message list. */
static void test_model(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    TU_CHECK(strcmp(hd_lcc_class_name(HD_LCP), "LCP") == 0, "LCP name");
    TU_CHECK(strcmp(hd_lcc_class_name(HD_LCG), "LCG") == 0, "LCG name");
    TU_CHECK(strcmp(hd_lcc_class_name(HD_LCS), "LCS") == 0, "LCS name");
    long cases = tu_cases(4000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n(), rank;
        hd_lcc c = tu_random_lcc((tu_kind)(t % TU_KIND_COUNT), n, &rank);
        tu_case(t, &c, 1, NULL);

        hd_lcc_class want = rank == n ? HD_LCP : c.dir == HD_GATHER ? HD_LCG : HD_LCS;
        TU_CHECK(hd_lcc_classify(&c) == want, "class of a rank-%d %s", rank,
                 c.dir == HD_GATHER ? "gather" : "scatter");

        bool perm = true;
        for (int i = 0; i < n; i++) {
            int ones = 0, colones = 0;
            for (int j = 0; j < n; j++) {
                ones += tu_entry(&c.A, i, j);
                colones += tu_entry(&c.A, j, i);
            }
            perm = perm && ones == 1 && colones == 1;
        }
        TU_CHECK(hd_lcc_is_bpc(&c) == perm, "BPC iff A is a permutation matrix");

        uint64_t count = UINT64_C(1) << n;
        uint64_t src[1 << SMALL_MAX], dst[1 << SMALL_MAX];
        tu_messages(&c, src, dst);
        uint64_t moves = 0;                 /* bits that some message changes */
        for (uint64_t m = 0; m < count; m++) {
            uint64_t s, d;
            hd_lcc_message(&c, m, &s, &d);
            TU_CHECK(s == src[m] && d == dst[m], "message %llu", (unsigned long long)m);
            moves |= s ^ d;
        }
        /* Section 4: T_i = 0 iff y_i = x_i for every message, iff row i is
         * e_i and b_i = 0. */
        for (int i = 0; i < n; i++)
            TU_CHECK(hd_lcc_dim_is_fixed(&c, i) == !((moves >> i) & 1),
                     "dimension %d fixed", i);
    }
}

/* ----------------------------------------------- Theorem 1 vs brute force */

static void test_formula_vs_brute_force(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(6000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n();
        hd_lcc c = tu_random_lcc((tu_kind)(t % TU_KIND_COUNT), n, NULL);
        hd_target net = hd_target_ecube(n);
        uint64_t T[HD_MAX_DIM], B[HD_MAX_DIM];
        tu_case(t, &c, 1, NULL);
        tu_contention(&c, T);
        TU_CHECK_EQ(hd_channel_loads(&net, &c, B), HD_OK, "hd_channel_loads rc");
        check_same_T(T, B, n, "Theorem 1", "hd_channel_loads");
        TU_CHECK_EQ(hd_contention_degree(T, n), tu_max(B, n), "Definition 6 degree");
        for (int i = 0; i < n; i++) {
            uint64_t v = T[i];
            TU_CHECK(v == 0 || (v & (v - 1)) == 0, "T_%d = %llu is no power of 2", i,
                     (unsigned long long)v);
            TU_CHECK((v == 0) == hd_lcc_dim_is_fixed(&c, i), "T_%d = 0 iff fixed", i);
        }
    }
}

/*
 * An LCC family (hd_comm_family): source owners F i + c with the bits
 * `unknown` of c known only at run time.  For every value of those bits
 * the communication must be of the family's kind (or local), with the
 * family's A and a b inside the family's, and the family's contention
 * (Theorem 1 on its b, every bit that may vary set) must be, dimension by
 * dimension, the largest of the channel loads hd_channel_loads counts over
 * all the values: the worst case the analysis reports.
 */
static void test_family_worst_case(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000), families = 0;
    for (long t = 0; t < cases; t++) {
        int n = 1 + (int)tu_below(7), k = n + (int)tu_below(2);
        hd_target net = hd_target_ecube(n);
        hd_affine src = hd_affine_constant(k, 0), dst = hd_affine_constant(k, 0);
        for (int r = 0; r < n; r++) {
            dst.row[r] = UINT64_C(1) << r;
            src.row[r] = tu_chance(1, 4) ? dst.row[r] : tu_bits(k);
        }
        uint64_t unknown = tu_bits(n) & tu_bits(n);
        src.c = tu_bits(n) & ~unknown;
        dst.c = tu_chance(1, 2) ? 0 : tu_bits(n);
        hd_lcc fam = { .A = hd_matrix_zero(n) };
        hd_comm fc = hd_comm_family(n, &src, unknown, &dst, &fam);
        uint64_t want[HD_MAX_DIM] = { 0 }, worst[HD_MAX_DIM] = { 0 }, vary = 0, b0 = 0;
        if (fc.kind == HD_COMM_LCC) {
            families += fc.b_runtime != 0;
            tu_contention(&fam, want);
        }
        /* Every value of the unknown bits: v runs over the subsets of unknown. */
        uint64_t v = 0;
        do {
            hd_affine s = src;
            s.c |= v;
            hd_lcc one = { .A = hd_matrix_zero(n) };
            hd_comm c = hd_comm_from_owners(n, &s, &dst, &one);
            if (fc.kind == HD_COMM_GENERAL || fc.kind == HD_COMM_LOCAL) {
                TU_CHECK(c.kind == fc.kind, "n = %d, unknown %#llx, value %#llx: kind %d, the "
                         "family's %d", n, (unsigned long long)unknown, (unsigned long long)v,
                         (int)c.kind, (int)fc.kind);
            } else if (c.kind == HD_COMM_LCC) {
                uint64_t B[HD_MAX_DIM];
                TU_CHECK(one.dir == fam.dir && hd_matrix_equal(&one.A, &fam.A),
                         "n = %d: a value gives another A or direction", n);
                TU_CHECK(!(one.b & ~fam.b), "n = %d: b %#llx outside the family's %#llx", n,
                         (unsigned long long)one.b, (unsigned long long)fam.b);
                if (!v)
                    b0 = one.b;   /* local at v = 0: b0 = 0 */
                vary |= one.b ^ b0;
                TU_CHECK_EQ(hd_channel_loads(&net, &one, B), HD_OK, "hd_channel_loads rc");
                for (int i = 0; i < n; i++)
                    if (B[i] > worst[i])
                        worst[i] = B[i];
            } else {
                TU_CHECK(c.kind == HD_COMM_LOCAL, "n = %d: a value gives a general communication "
                         "in an LCC family", n);
                hd_matrix id = hd_matrix_identity(n);
                TU_CHECK(hd_matrix_equal(&fam.A, &id), "n = %d: a value is local but the "
                         "family's A is not the identity", n);
                vary |= b0;   /* local: b = 0 */
            }
            v = (v - unknown) & unknown;
        } while (v);
        if (fc.kind == HD_COMM_LCC) {
            check_same_T(want, worst, n, "the family's Theorem 1", "the worst over its values");
            TU_CHECK(vary == fc.b_runtime, "the bits of b that vary: %#llx, b_runtime %#llx "
                     "(n = %d)", (unsigned long long)vary, (unsigned long long)fc.b_runtime, n);
        }
    }
    TU_CHECK(families > cases / 4, "only %ld of %ld cases were families", families, cases);
}

/* The library's path walker against the test's own counter. */
static void test_channel_loads_vs_own_counter(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    for (long t = 0; t < cases; t++) {
        int n = 1 + (int)tu_below(8);
        hd_lcc c = tu_random_lcc((tu_kind)(t % TU_KIND_COUNT), n, NULL);
        hd_target net = hd_target_ecube(n);
        uint64_t B[HD_MAX_DIM], own[HD_MAX_DIM];
        tu_case(t, &c, 1, NULL);
        TU_CHECK_EQ(hd_channel_loads(&net, &c, B), HD_OK, "hd_channel_loads rc");
        own_loads(&c, own);
        check_same_T(B, own, n, "hd_channel_loads", "own counter");
    }
}

/* Large cubes, where the brute force is still exact (n <= 20). */
static void test_large_cubes(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const int sizes[] = { 16, 16, 17, 18, 20 };
    static const tu_kind kinds[] = { TU_LCS, TU_LCG, TU_LCP, TU_FIXED, TU_LCS };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        hd_lcc c = tu_random_lcc(kinds[k], n, NULL);
        hd_target net = hd_target_ecube(n);
        uint64_t T[HD_MAX_DIM], B[HD_MAX_DIM], own[HD_MAX_DIM];
        tu_case((long)k, &c, 1, NULL);
        tu_contention(&c, T);
        TU_CHECK_EQ(hd_channel_loads(&net, &c, B), HD_OK, "hd_channel_loads rc");
        check_same_T(T, B, n, "Theorem 1", "hd_channel_loads");
        if (n == 16) {
            own_loads(&c, own);
            check_same_T(B, own, n, "hd_channel_loads", "own counter");
        }
        /* After the optimal mapping too (Theorem 2 at scale). */
        hd_order o = hd_optimize_alone(&c);
        hd_lcc d = hd_lcc_reorder(&c, &o);
        tu_contention_after(&c, &o, T);
        TU_CHECK_EQ(hd_channel_loads(&net, &d, B), HD_OK, "hd_channel_loads rc");
        check_same_T(T, B, n, "Theorem 2", "hd_channel_loads after mapping");
    }
}

/*
 * n = 64 (and other sizes beyond the path counter), through embedding: a
 * small LCC on k bits, the other bits fixed (rows e_j, b_j = 0).  Placed on
 * the low bits L_k, a gather's A_{L_{i+1}, L_i} for i < k only sees the
 * small block; a scatter's A_{H_i, H_{i+1}} adds the n - k fixed rows, each
 * with its own column, to both rank and size.  Placed on the high bits
 * {n-k .. n-1}, the same happens the other way round.  Either way T_i of
 * the big LCC is the small one's at the same place in the block, 0
 * elsewhere, and the small one's is counted path by path.
 */
static void test_embedded_large(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(1500);
    for (long t = 0; t < cases; t++) {
        int k = 1 + (int)tu_below(8);
        int n = t % 2 ? 64 : k + (int)tu_below((uint64_t)(64 - k + 1));
        int shift = t % 4 < 2 ? 0 : n - k;
        hd_lcc small = tu_random_lcc((tu_kind)(t / 4 % TU_KIND_COUNT), k, NULL);
        uint64_t want[HD_MAX_DIM] = { 0 }, ts[HD_MAX_DIM], T[HD_MAX_DIM];
        own_loads(&small, ts);
        hd_lcc big = small;
        big.A = hd_matrix_identity(n);
        for (int i = 0; i < k; i++) {
            big.A.row[shift + i] = small.A.row[i] << shift;
            want[shift + i] = ts[i];
        }
        big.b = small.b << shift;
        tu_case(t, &big, 1, NULL);
        tu_contention(&big, T);
        check_same_T(T, want, n, "Theorem 1 (embedded)", "small LCC's path count");
    }
}

static void test_channel_loads_errors(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    uint64_t T[HD_MAX_DIM];
    hd_lcc c;
    memset(&c, 0, sizeof c);
    c.A = hd_matrix_identity(HD_BRUTE_MAX_DIM + 1);
    hd_target big = hd_target_ecube(HD_BRUTE_MAX_DIM + 1);
    TU_CHECK_EQ(hd_channel_loads(&big, &c, T), HD_ETOOBIG, "n = 21");
    hd_target five = hd_target_ecube(5);
    c.A = hd_matrix_identity(4);
    TU_CHECK_EQ(hd_channel_loads(&five, &c, T), HD_EINVAL, "network n != A.n");
}

/* The formulas are the e-cube hypercube's: an LCC of another dimension
 * than the target's, or a target of another kind, is refused and T left
 * as it was. */
static void test_contention_refusals(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    uint64_t T[HD_MAX_DIM] = { 7 };
    hd_lcc c = tu_random_any_lcc(4, NULL);
    hd_order o = hd_order_identity(4), o5 = hd_order_identity(5);
    TU_CHECK_EQ(hd_contention(TU_CUBE(5), &c, T), HD_EINVAL, "target n != A.n");
    TU_CHECK_EQ(hd_contention_after(TU_CUBE(5), &c, &o, T), HD_EINVAL, "target n != A.n");
    TU_CHECK_EQ(hd_contention_after(TU_CUBE(4), &c, &o5, T), HD_EINVAL, "order n != A.n");
    hd_target other = hd_target_ecube(4);
    other.kind = (hd_target_kind)(HD_TARGET_ECUBE_HYPERCUBE + 1);
    TU_CHECK_EQ(hd_contention(&other, &c, T), HD_EINVAL, "another kind");
    TU_CHECK_EQ(hd_contention_after(&other, &c, &o, T), HD_EINVAL, "another kind");
    TU_CHECK_EQ(T[0], 7, "T untouched");
}

/* ------------------------------------------------------------ Theorem 2 */

/* hd_lcc_reorder is (Q A Q^-1, Q b), computed with naive products. */
static void test_reorder_is_conjugation(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(4000);
    for (long t = 0; t < cases; t++) {
        int n = t % 25 == 24 ? 64 : random_small_n();
        hd_lcc c;
        memset(&c, 0, sizeof c);
        c.dir = tu_chance(1, 2) ? HD_GATHER : HD_SCATTER;
        c.A = tu_random_matrix(n);
        c.b = tu_bits(n);
        hd_order o = tu_random_order(n);
        tu_case(t, &c, 1, &o);

        hd_matrix q = hd_matrix_zero(n), qt = hd_matrix_zero(n);
        for (int k = 0; k < n; k++) {
            q.row[k] = UINT64_C(1) << o.r[k];      /* Section 5's R(L_n) */
            qt.row[o.r[k]] = UINT64_C(1) << k;     /* Q^-1 = Q^t */
        }
        hd_matrix qa = tu_naive_mul(&q, &c.A), want = tu_naive_mul(&qa, &qt);
        hd_lcc d = hd_lcc_reorder(&c, &o);
        TU_CHECK(hd_matrix_equal(&d.A, &want), "Q A Q^-1, n = %d", n);
        TU_CHECK_EQ(d.b, tu_naive_apply(&q, c.b), "Q b");
        TU_CHECK(d.dir == c.dir, "direction kept");
        for (int i = n; i < HD_MAX_DIM; i++)
            TU_CHECK_EQ(d.A.row[i], 0, "row beyond n");
    }
}

/*
 * Theorem 2, and the same for scatters: the contention after the mapping,
 * from the formulas, equals that of the explicitly relabelled messages
 * (Q s, Q d), counted path by path.
 */
static void test_theorem2_relabelling(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(4000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n();
        hd_lcc c = tu_random_lcc((tu_kind)(t % TU_KIND_COUNT), n, NULL);
        hd_order o = tu_chance(1, 4) ? hd_optimize_alone(&c) : tu_random_order(n);
        uint64_t after[HD_MAX_DIM], conj[HD_MAX_DIM], own[HD_MAX_DIM];
        tu_case(t, &c, 1, &o);
        tu_contention_after(&c, &o, after);
        hd_lcc d = hd_lcc_reorder(&c, &o);
        tu_contention(&d, conj);
        check_same_T(after, conj, n, "hd_contention_after", "hd_contention(reorder)");
        tu_relabelled_loads(&c, &o, own);
        check_same_T(after, own, n, "hd_contention_after", "relabelled path count");
    }
}

/* Fixed dimensions keep T = 0 wherever the mapping puts them. */
static void test_fixed_dimensions_move(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    for (long t = 0; t < tu_cases(2000); t++) {
        int n = random_small_n();
        hd_lcc c = tu_random_lcc(TU_FIXED, n, NULL);
        hd_order o = tu_random_order(n);
        uint64_t T[HD_MAX_DIM];
        tu_case(t, &c, 1, &o);
        tu_contention_after(&c, &o, T);
        hd_lcc d = hd_lcc_reorder(&c, &o);
        for (int k = 0; k < n; k++) {
            bool fixed = c.A.row[o.r[k]] == UINT64_C(1) << o.r[k] && !((c.b >> o.r[k]) & 1);
            TU_CHECK(hd_lcc_dim_is_fixed(&d, k) == fixed, "new dimension %d", k);
            TU_CHECK((T[k] == 0) == fixed, "T_%d = 0 iff old bit %d fixed", k, o.r[k]);
        }
        TU_CHECK_EQ(tu_gauss_rank_sub(&d.A, full(n), full(n)),
                    tu_gauss_rank_sub(&c.A, full(n), full(n)), "rank kept");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_hop),
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_formula_vs_brute_force),
        cmocka_unit_test(test_channel_loads_vs_own_counter),
        cmocka_unit_test(test_family_worst_case),
        cmocka_unit_test(test_large_cubes),
        cmocka_unit_test(test_embedded_large),
        cmocka_unit_test(test_channel_loads_errors),
        cmocka_unit_test(test_contention_refusals),
        cmocka_unit_test(test_reorder_is_conjugation),
        cmocka_unit_test(test_theorem2_relabelling),
        cmocka_unit_test(test_fixed_dimensions_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
