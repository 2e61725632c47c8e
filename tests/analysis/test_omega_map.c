/*
 * test_omega_map.c — the processor mapping of a program on an omega-class
 * target (analysis/omega_map.c; Wu 1984, Section 1.3's static problem):
 * F minimising the sum of D(F P F^-1).  The reference is the test's own:
 * each permutation as a table of 2^n destinations, conjugated by F as
 * tables, and its passes found by routing it stage by stage (Wu 1984,
 * Section 2.1: after the omega network's stage i the line is
 * (y_{n-1..i}, x_{i-1..0}); the butterfly sets bit 0 first), never by the
 * library's U L test.
 */
#include "testutil.h"

#include <string.h>

#define MAXN 6
#define MAXM 5

static void table_of(const hd_lcc *c, int n, unsigned *to)
{
    hd_matrix ai;
    bool scatter = c->dir == HD_SCATTER;
    if (scatter)
        assert_true(hd_matrix_inverse(&c->A, &ai));
    for (unsigned x = 0; x < 1u << n; x++) {
        /* a scatter x = A y + b moves the data of x to y = A^-1 (x + b) */
        to[x] = scatter ? (unsigned)tu_naive_apply(&ai, x ^ c->b)
                        : (unsigned)(tu_naive_apply(&c->A, x) ^ c->b);
    }
}

static int passes_of(const unsigned *to, int n, bool butterfly)
{
    unsigned N = 1u << n;
    bool identity = true;
    for (unsigned x = 0; x < N; x++)
        identity = identity && to[x] == x;
    if (identity)
        return 0;
    for (int s = 0; s < n; s++) {
        int i = butterfly ? s : n - 1 - s;
        unsigned ymask = butterfly ? (2u << i) - 1 : (N - 1) & ~((1u << i) - 1);
        unsigned char seen[1 << MAXN] = { 0 };
        for (unsigned x = 0; x < N; x++)
            if (seen[(to[x] & ymask) | (x & ~ymask & (N - 1))]++)
                return 2;
    }
    return 1;
}

/* sum of weight[r] D(F P_r F^-1), all by tables. */
static uint64_t conjugated_total(const hd_lcc *c, const uint64_t *w, int m, int n,
                                 const hd_matrix *F, bool butterfly)
{
    unsigned f[1 << MAXN], finv[1 << MAXN], to[1 << MAXN], mapped[1 << MAXN];
    for (unsigned x = 0; x < 1u << n; x++) {
        f[x] = (unsigned)tu_naive_apply(F, x);
        finv[f[x]] = x;
    }
    uint64_t sum = 0;
    for (int r = 0; r < m; r++) {
        table_of(&c[r], n, to);
        for (unsigned x = 0; x < 1u << n; x++)
            mapped[x] = f[to[finv[x]]];
        sum += w[r] * (uint64_t)passes_of(mapped, n, butterfly);
    }
    return sum;
}

static hd_lcc random_permutation_lcc(int n)
{
    int rank;
    hd_lcc c = tu_random_lcc(tu_chance(1, 3) ? TU_BPC : tu_chance(1, 2) ? TU_LCP
                                                          : TU_SCATTER_PERM, n, &rank);
    return c;
}

/* n <= 3: the library's F is a best one, against the test's enumeration
 * of GL(n, 2), and its reported total is the tables' total under it. */
static void test_exact_small(void **state)
{
    (void)state;
    tu_rng_init("exact_small");
    long cases = tu_cases(60);
    for (long k = 0; k < cases; k++) {
        int n = 2 + (int)tu_below(2), m = 1 + (int)tu_below(MAXM);
        bool bf = tu_chance(1, 2);
        hd_target t = bf ? hd_target_butterfly(n) : hd_target_omega(n);
        hd_lcc c[MAXM];
        const hd_lcc *cp[MAXM];
        uint64_t w[MAXM];
        for (int r = 0; r < m; r++) {
            c[r] = random_permutation_lcc(n);
            cp[r] = &c[r];
            w[r] = 1 + tu_below(3);
        }
        hd_matrix F;
        uint64_t got;
        assert_int_equal(hd_omega_choose_mapping(&t, cp, w, m, &F, &got), HD_OK);
        assert_int_equal(hd_rank(&F), n);
        assert_int_equal(conjugated_total(c, w, m, n, &F, bf), got);
        uint64_t best = UINT64_MAX;
        for (uint64_t code = 0; code < (UINT64_C(1) << (n * n)); code++) {
            hd_matrix q = hd_matrix_zero(n);
            for (int i = 0; i < n; i++)
                q.row[i] = code >> (i * n) & hd_mask(n);
            if (tu_gauss_rank_sub(&q, hd_mask(n), hd_mask(n)) < n)
                continue;
            uint64_t v = conjugated_total(c, w, m, n, &q, bf);
            best = v < best ? v : best;
        }
        TU_CHECK(got == best, "n %d m %d: %llu, best %llu", n, m, (unsigned long long)got,
                 (unsigned long long)best);
    }
}

/* n = 5, 6 (the heuristic): its F is nonsingular, its reported total is
 * the tables' total under F, and never above the identity's. */
static void test_heuristic(void **state)
{
    (void)state;
    tu_rng_init("heuristic");
    long cases = tu_cases(20);
    for (long k = 0; k < cases; k++) {
        int n = 5 + (int)tu_below(2), m = 1 + (int)tu_below(MAXM);
        bool bf = tu_chance(1, 2);
        hd_target t = bf ? hd_target_butterfly(n) : hd_target_omega(n);
        hd_lcc c[MAXM];
        const hd_lcc *cp[MAXM];
        uint64_t w[MAXM];
        for (int r = 0; r < m; r++) {
            c[r] = random_permutation_lcc(n);
            cp[r] = &c[r];
            w[r] = 1;
        }
        hd_matrix F, id = hd_matrix_identity(n);
        uint64_t got;
        assert_int_equal(hd_omega_choose_mapping(&t, cp, w, m, &F, &got), HD_OK);
        assert_int_equal(hd_rank(&F), n);
        assert_int_equal(conjugated_total(c, w, m, n, &F, bf), got);
        assert_true(got <= conjugated_total(c, w, m, n, &id, bf));
        assert_int_equal(hd_omega_mapped_passes(&t, cp, w, m, &F), got);
    }
}

static void test_refused(void **state)
{
    (void)state;
    hd_target e = hd_target_ecube(3), o = hd_target_omega(3);
    hd_lcc c = { HD_GATHER, hd_matrix_identity(4), 0 };
    const hd_lcc *cp = &c;
    uint64_t w = 1, cost;
    hd_matrix F;
    assert_int_equal(hd_omega_choose_mapping(&e, &cp, &w, 1, &F, &cost), HD_EINVAL);
    assert_int_equal(hd_omega_choose_mapping(&o, &cp, &w, 1, &F, &cost), HD_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_small),
        cmocka_unit_test(test_heuristic),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
