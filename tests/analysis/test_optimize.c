/*
 * test_optimize.c — the optimal mapping for one LCC (Section 4 of Hou et al. 2001,
 * analysis/optimize.c): Fig. 3's LCP_Optimizer (Theorem 3, Corollary 1),
 * Theorem 4's construction for singular matrices (Corollary 2), and
 * hd_optimize_alone for either direction.
 *
 * The optimum is known in closed form, independently of the library:
 *   - rank(A) = n: 1, or 0 when every dimension is fixed (Corollary 1);
 *   - rank(A) < n: 2^((n-1) - rank(A)) (Theorem 4 and Corollary 2).
 * Fixed dimensions (row e_i, b_i = 0) do not change the second value.  With
 * F the fixed bits and B = A restricted to the others, A is block
 * triangular up to reordering, so rank(A) = rank(B) + |F| and the bound on
 * the n - |F| live bits, (n-|F|-1) - rank(B), is (n-1) - rank(A).  It is
 * also a lower bound: under any ordering let p be the last position holding
 * a live bit (rank(A) < n forces one); positions 0..p hold a set S with all
 * live bits, so the exponent at p is at least p - rank(A_{S,S})
 * = p - rank(B) - (p+1 - (n-|F|)) = (n-1) - rank(A), and T_p != 0.
 * For scatters the same holds by the bit-reversal duality of contention.c,
 * and the test confirms it against exhaustive search rather than assume it.
 */
#include "testutil.h"

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

static bool all_fixed(const hd_lcc *c)
{
    for (int i = 0; i < c->A.n; i++)
        if (c->A.row[i] != UINT64_C(1) << i || ((c->b >> i) & 1))
            return false;
    return true;
}

/* The closed-form optimum of the header comment. */
static uint64_t optimum(const hd_lcc *c, int rank)
{
    int n = c->A.n;
    if (rank == n)
        return all_fixed(c) ? 0 : 1;
    return UINT64_C(1) << ((n - 1) - rank);
}

/* Degree after o, by Theorem 2 and by counting relabelled paths. */
static uint64_t degree_after(const hd_lcc *c, const hd_order *o)
{
    uint64_t T[HD_MAX_DIM], own[HD_MAX_DIM];
    int n = c->A.n;
    tu_contention_after(c, o, T);
    tu_relabelled_loads(c, o, own);
    for (int i = 0; i < n; i++)
        TU_CHECK(T[i] == own[i], "T_%d after mapping: formula %llu, paths %llu", i,
                 (unsigned long long)T[i], (unsigned long long)own[i]);
    return tu_max(own, n);
}

/* A random LCC with rank(A) = n, of any shape (some shapes need retries;
 * after a few, plain LCPs). */
static hd_lcc random_nonsingular_lcc(long t, int n, hd_direction dir)
{
    static const tu_kind kinds[] = { TU_LCP, TU_IDENTITY, TU_BPC, TU_FIXED, TU_SPARSE };
    for (int tries = 0;; tries++) {
        int rank;
        hd_lcc c = tu_random_lcc(tries < 20 ? kinds[t % 5] : TU_LCP, n, &rank);
        c.dir = dir;
        if (rank == n)
            return c;
    }
}

/* A random LCC with rank(A) < n, of any shape (at n = 1 a fixed dimension
 * is the nonsingular [1], hence the fallback to plain LCGs). */
static hd_lcc random_singular_lcc(long t, int n, hd_direction dir, int *rank)
{
    static const tu_kind kinds[] = { TU_LCG, TU_LCS, TU_FIXED, TU_SPARSE };
    for (int tries = 0;; tries++) {
        hd_lcc c = tu_random_lcc(tries < 20 ? kinds[t % 4] : TU_LCG, n, rank);
        c.dir = dir;
        if (*rank < n)
            return c;
    }
}

/* ---------------------------------------------------------------- tests */

/* Fig. 3 on nonsingular gathers: Theorem 3's rank([Q A Q^-1]_{L_{i+1}, L_i})
 * = i for every i, hence T_i <= 1 (Corollary 1). */
static void test_lcp_optimizer(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n();
        hd_lcc c = random_nonsingular_lcc(t, n, HD_GATHER);
        hd_order o = hd_lcp_optimizer(&c.A);
        tu_case(t, &c, 1, &o);
        TU_CHECK(hd_order_is_valid(&o) && o.n == n, "LCP_Optimizer ordering invalid");
        hd_lcc d = hd_lcc_reorder(&c, &o);
        for (int i = 0; i < n; i++)
            TU_CHECK(tu_gauss_rank_sub(&d.A, full(i + 1), full(i)) == i,
                     "Theorem 3: rank(D_{L_%d, L_%d}) != %d", i + 1, i, i);
        TU_CHECK_EQ(degree_after(&c, &o), optimum(&c, n), "Corollary 1");
    }
    /* Larger n, checked through the formulas only. */
    for (long t = 0; t < tu_cases(100); t++) {
        int n = 11 + (int)tu_below(54);
        hd_lcc c = random_nonsingular_lcc(t, n, HD_GATHER);
        hd_order o = hd_lcp_optimizer(&c.A);
        tu_case(t, &c, 1, &o);
        TU_CHECK(hd_order_is_valid(&o) && o.n == n, "LCP_Optimizer ordering invalid");
        hd_lcc d = hd_lcc_reorder(&c, &o);
        for (int i = 0; i < n; i++)
            TU_CHECK(tu_gauss_rank_sub(&d.A, full(i + 1), full(i)) == i,
                     "Theorem 3 at n = %d, i = %d", n, i);
    }
}

/* Theorem 4's construction on singular gathers: every exponent at most
 * (n-1) - rank(A), and the degree exactly 2^that. */
static void test_lcg_optimizer(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(3000);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n(), rank;
        hd_lcc c = random_singular_lcc(t, n, HD_GATHER, &rank);
        hd_order o = hd_lcg_optimizer(&c);
        tu_case(t, &c, 1, &o);
        TU_CHECK(hd_order_is_valid(&o) && o.n == n, "Theorem 4 ordering invalid");
        hd_lcc d = hd_lcc_reorder(&c, &o);
        int bound = (n - 1) - rank;
        for (int i = 0; i < n; i++) {
            if (hd_lcc_dim_is_fixed(&d, i))
                continue;
            int e = i - tu_gauss_rank_sub(&d.A, full(i + 1), full(i));
            TU_CHECK(e <= bound, "Theorem 4: exponent %d > %d at dimension %d", e, bound, i);
        }
        TU_CHECK_EQ(degree_after(&c, &o), optimum(&c, rank), "Corollary 2");
    }
    for (long t = 0; t < tu_cases(60); t++) {
        int n = 11 + (int)tu_below(54), rank;
        hd_lcc c = random_singular_lcc(t, n, HD_GATHER, &rank);
        hd_order o = hd_lcg_optimizer(&c);
        uint64_t T[HD_MAX_DIM];
        tu_case(t, &c, 1, &o);
        TU_CHECK(hd_order_is_valid(&o) && o.n == n, "Theorem 4 ordering invalid");
        tu_contention_after(&c, &o, T);
        TU_CHECK_EQ(hd_contention_degree(T, n), optimum(&c, rank), "Corollary 2, large n");
    }
}

/* hd_optimize_alone for every class and direction (Corollaries 1 and 2):
 * 1200 cases of each of LCP gathers, LCP scatters, LCGs and LCSs, in all
 * the shapes of testutil (dense, BPC, identity, fixed dimensions, sparse). */
static void test_optimize_alone(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const struct {
        hd_lcc_class cls;
        hd_direction dir;
    } classes[] = {
        { HD_LCP, HD_GATHER }, { HD_LCP, HD_SCATTER },
        { HD_LCG, HD_GATHER }, { HD_LCS, HD_SCATTER },
    };
    long cases = tu_cases(1200), t = 0;
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++)
        for (long j = 0; j < cases; j++, t++) {
            int n = random_small_n(), rank = n;
            hd_lcc c = classes[k].cls == HD_LCP
                       ? random_nonsingular_lcc(t, n, classes[k].dir)
                       : random_singular_lcc(t, n, classes[k].dir, &rank);
            hd_order o = hd_optimize_alone(&c);
            tu_case(t, &c, 1, &o);
            TU_CHECK(hd_lcc_classify(&c) == classes[k].cls, "class");
            TU_CHECK(hd_order_is_valid(&o) && o.n == n, "ordering invalid");
            TU_CHECK_EQ(degree_after(&c, &o), optimum(&c, rank), "optimum of one LCC");
        }
}

static bool same_order(const hd_order *a, const hd_order *b)
{
    return a->n == b->n && memcmp(a->r, b->r, (size_t)a->n) == 0;
}

/* The closed form is the optimum: hd_optimize_exhaustive agrees (n <= 7). */
static void test_alone_vs_exhaustive(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(2500);
    for (long t = 0; t < cases; t++) {
        int n = 1 + (int)tu_below(7), rank;
        hd_lcc c = tu_random_lcc((tu_kind)(t % TU_KIND_COUNT), n, &rank);
        hd_order o = hd_optimize_alone(&c), best, on_target;
        uint64_t cost, T[HD_MAX_DIM];
        tu_case(t, &c, 1, &o);
        TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(n), &c, 1, HD_OBJ_MAX, &best, &cost), HD_OK,
                    "rc");
        TU_CHECK_EQ(cost, optimum(&c, rank), "exhaustive optimum vs closed form");
        tu_contention_after(&c, &o, T);
        TU_CHECK_EQ(hd_contention_degree(T, n), cost, "hd_optimize_alone vs exhaustive");
        /* the target's optimizer is the e-cube hypercube's on that kind,
         * and refuses an LCC of another dimension or a kind it lacks */
        TU_CHECK_EQ(hd_optimize_one(TU_CUBE(n), &c, &on_target), HD_OK, "hd_optimize_one rc");
        TU_CHECK(same_order(&on_target, &o), "hd_optimize_one is not hd_optimize_alone");
        TU_CHECK_EQ(hd_optimize_one(TU_CUBE(n + 1), &c, &on_target), HD_EINVAL,
                    "another dimension");
        hd_target other = *TU_CUBE(n);
        other.kind = (hd_target_kind)(HD_TARGET_ECUBE_HYPERCUBE + 1);
        TU_CHECK_EQ(hd_optimize_one(&other, &c, &on_target), HD_EINVAL, "another kind");
    }
}

/* The same without the library's contention formulas: the minimum over all
 * orderings of the relabelled paths' worst channel (n <= 5). */
static void test_alone_vs_own_search(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(600);
    for (long t = 0; t < cases; t++) {
        int n = 1 + (int)tu_below(5), rank;
        hd_lcc c = tu_random_lcc((tu_kind)(t % TU_KIND_COUNT), n, &rank);
        tu_case(t, &c, 1, NULL);
        uint64_t best = UINT64_MAX, T[HD_MAX_DIM];
        hd_order o = hd_order_identity(n);
        do {
            tu_relabelled_loads(&c, &o, T);
            uint64_t d = tu_max(T, n);
            best = d < best ? d : best;
        } while (tu_next_order(&o));
        TU_CHECK_EQ(best, optimum(&c, rank), "own search vs closed form");
        o = hd_optimize_alone(&c);
        tu_relabelled_loads(&c, &o, T);
        TU_CHECK_EQ(tu_max(T, n), best, "hd_optimize_alone vs own search");
    }
}

/* Outside their domains the two constructions hand over to each other
 * (analysis.h): Fig. 3 on a singular matrix gives Theorem 4's ordering for
 * y = A x, Theorem 4 on a nonsingular one gives Fig. 3's; either way the
 * result is still the optimum. */
static void test_out_of_domain(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(1500);
    for (long t = 0; t < cases; t++) {
        int n = random_small_n(), rank;
        hd_lcc c = random_singular_lcc(t, n, HD_GATHER, &rank);
        c.b = 0;
        hd_order o = hd_lcp_optimizer(&c.A), want = hd_lcg_optimizer(&c);
        tu_case(t, &c, 1, &o);
        TU_CHECK(hd_order_is_valid(&o) && same_order(&o, &want),
                 "hd_lcp_optimizer(singular) is not hd_lcg_optimizer's ordering");
        TU_CHECK_EQ(degree_after(&c, &o), optimum(&c, rank), "still the optimum");

        c = random_nonsingular_lcc(t, n, HD_GATHER);
        o = hd_lcg_optimizer(&c);
        want = hd_lcp_optimizer(&c.A);
        tu_case(t, &c, 1, &o);
        TU_CHECK(hd_order_is_valid(&o) && same_order(&o, &want),
                 "hd_lcg_optimizer(nonsingular) is not hd_lcp_optimizer's ordering");
        TU_CHECK_EQ(degree_after(&c, &o), optimum(&c, n), "still the optimum");
    }
}

/* n = 1 and the paper's degenerate cases. */
static void test_small_cases(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    for (int a = 0; a <= 1; a++)
        for (int b = 0; b <= 1; b++)
            for (int dir = 0; dir <= 1; dir++) {
                hd_lcc c;
                memset(&c, 0, sizeof c);
                c.dir = dir ? HD_SCATTER : HD_GATHER;
                c.A = hd_matrix_zero(1);
                c.A.row[0] = (uint64_t)a;
                c.b = (uint64_t)b;
                tu_case(a * 4 + b * 2 + dir, &c, 1, NULL);
                hd_order o = hd_optimize_alone(&c);
                TU_CHECK(hd_order_is_valid(&o) && o.n == 1 && o.r[0] == 0, "n = 1 ordering");
                /* [0]: everything goes to node b (one path crosses the
                 * channel); [1] with b = 1 swaps the two nodes; [1], 0 is
                 * fixed. */
                TU_CHECK_EQ(degree_after(&c, &o), (a == 1 && b == 0) ? 0 : 1, "n = 1 degree");
            }
    /* A = 0: everything gathers to one node, degree 2^(n-1) whatever the
     * mapping; A = I, b = 0: no messages move at all. */
    for (int n = 1; n <= 10; n++) {
        hd_lcc c;
        memset(&c, 0, sizeof c);
        c.A = hd_matrix_zero(n);
        c.b = tu_bits(n);
        tu_case(n, &c, 1, NULL);
        hd_order o = hd_optimize_alone(&c);
        TU_CHECK_EQ(degree_after(&c, &o), UINT64_C(1) << (n - 1), "A = 0");
        c.A = hd_matrix_identity(n);
        c.b = 0;
        o = hd_lcp_optimizer(&c.A);
        TU_CHECK_EQ(degree_after(&c, &o), 0, "A = I, b = 0");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lcp_optimizer),
        cmocka_unit_test(test_lcg_optimizer),
        cmocka_unit_test(test_optimize_alone),
        cmocka_unit_test(test_alone_vs_exhaustive),
        cmocka_unit_test(test_alone_vs_own_search),
        cmocka_unit_test(test_out_of_domain),
        cmocka_unit_test(test_small_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
