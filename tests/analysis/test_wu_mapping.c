/*
 * test_wu_mapping.c — Wu 1984's data mappings (analysis/wu_mapping.c):
 * the static search and Theorem 2.2 (Section 2.2), the exact DP, Algorithm
 * I and Theorem 3.5 (Chapter 3), Algorithm V on the butterfly (Chapter 5),
 * the heuristics, Algorithms II and VI, and the examples of Section 3.4.
 *
 * Every cost here is recomputed by the test's own D: the one-pass test is
 * the definition (Theorem 2.1 / Corollary 2.1 in Hyperdo's order: every
 * trailing principal block of A nonsingular on the omega network, every
 * leading one on the butterfly), ranks by tu_gauss_rank_sub, products by
 * tu_naive_mul, inverses by the test's own elimination.  Optimizers are
 * compared with each other and with brute force, never with captured
 * output.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the test's own algebra */

static hd_matrix t_inverse(const hd_matrix *a)
{
    int n = a->n;
    int m[HD_MAX_DIM][2 * HD_MAX_DIM];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            m[i][j] = tu_entry(a, i, j);
            m[i][n + j] = i == j;
        }
    for (int c = 0; c < n; c++) {
        int p = c;
        while (p < n && !m[p][c])
            p++;
        assert_true(p < n);
        for (int j = 0; j < 2 * n; j++) {
            int t = m[c][j];
            m[c][j] = m[p][j];
            m[p][j] = t;
        }
        for (int r = 0; r < n; r++)
            if (r != c && m[r][c])
                for (int j = 0; j < 2 * n; j++)
                    m[r][j] ^= m[c][j];
    }
    hd_matrix out = hd_matrix_zero(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (m[i][n + j])
                out.row[i] |= UINT64_C(1) << j;
    return out;
}

static hd_agl t_compose(const hd_agl *second, const hd_agl *first)
{
    hd_agl p = { tu_naive_mul(&second->A, &first->A),
                 tu_naive_apply(&second->A, first->b) ^ second->b };
    return p;
}

static hd_agl t_inv(const hd_agl *p)
{
    hd_agl q = { t_inverse(&p->A), 0 };
    q.b = tu_naive_apply(&q.A, p->b);
    return q;
}

static hd_agl t_div(const hd_agl *p, const hd_agl *q)
{
    hd_agl qi = t_inv(q);
    return t_compose(p, &qi);
}

static bool t_is_identity(const hd_matrix *a)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++)
            if (tu_entry(a, i, j) != (i == j))
                return false;
    return true;
}

/* Corollary 2.1 in Hyperdo's order (omega: trailing blocks), and its
 * mirror for the butterfly (Lemma 5.1: leading blocks). */
static bool t_one_pass(const hd_matrix *a, bool butterfly)
{
    int n = a->n;
    for (int k = 1; k <= n; k++) {
        uint64_t set = butterfly ? hd_mask(k) : hd_mask(n) & ~hd_mask(n - k);
        if (tu_gauss_rank_sub(a, set, set) != k)
            return false;
    }
    return true;
}

static int t_D(const hd_agl *p, bool butterfly)
{
    if (t_is_identity(&p->A))
        return p->b != 0;
    return t_one_pass(&p->A, butterfly) ? 1 : 2;
}

static int t_seq_cost(const hd_agl *P, const hd_agl *F, int k, bool butterfly)
{
    int s = 0;
    for (int h = 0; h < k; h++) {
        hd_agl x = t_div(&P[h], &F[h]);
        s += t_D(&x, butterfly);
        if (h) {
            x = t_div(&F[h], &F[h - 1]);
            s += t_D(&x, butterfly);
        }
    }
    return s;
}

static hd_agl t_random_agl(int n)
{
    hd_agl p = { tu_random_nonsingular(n), tu_bits(n) };
    return p;
}

static bool t_agl_equal(const hd_agl *p, const hd_agl *q)
{
    return hd_matrix_equal(&p->A, &q->A) && p->b == q->b;
}

/* An element given by its table img[x] (the permutation it is), checked
 * to be affine. */
__attribute__((unused)) static hd_agl t_from_table(int n, const uint64_t *img)
{
    hd_agl p = { hd_matrix_zero(n), img[0] };
    for (int j = 0; j < n; j++) {
        uint64_t col = img[UINT64_C(1) << j] ^ img[0];
        for (int i = 0; i < n; i++)
            if (col >> i & 1)
                p.A.row[i] |= UINT64_C(1) << j;
    }
    for (uint64_t x = 0; x < UINT64_C(1) << n; x++)
        assert_true((tu_naive_apply(&p.A, x) ^ p.b) == img[x]);
    return p;
}

/* Every element of AGL(n, 2) for small n, in a list. */
static hd_agl *t_all_agl(int n, int *count)
{
    int cap = 1 << (n * n + n), c = 0;
    hd_agl *all = malloc((size_t)cap * sizeof *all);
    for (uint64_t code = 0; code < UINT64_C(1) << (n * n); code++) {
        hd_matrix a = hd_matrix_zero(n);
        for (int i = 0; i < n; i++)
            a.row[i] = code >> (n * i) & hd_mask(n);
        if (tu_gauss_rank_sub(&a, hd_mask(n), hd_mask(n)) != n)
            continue;
        for (uint64_t b = 0; b < UINT64_C(1) << n; b++)
            all[c++] = (hd_agl){ a, b };
    }
    *count = c;
    return all;
}

#define OMEGA(n) (&(const hd_target){ HD_TARGET_OMEGA, (n), HD_COST_MODEL_NCUBE2 })
#define BUTTERFLY(n) (&(const hd_target){ HD_TARGET_BUTTERFLY, (n), HD_COST_MODEL_NCUBE2 })

/* k random transfers, pairwise different (Theorem 3.5's premise). */
static void t_random_distinct(int n, hd_agl *P, int k)
{
    for (int h = 0; h < k; h++) {
        bool again;
        do {
            P[h] = t_random_agl(n);
            again = false;
            for (int j = 0; j < h; j++)
                again |= t_agl_equal(&P[h], &P[j]);
        } while (again);
    }
}

/* ------------------------------------------------------- the DP oracle */

/* The DP against every sequence of AGL(2, 2) (24^k) and of AGL(3, 2) for
 * k = 2: the oracle's own check. */
static void test_dp_brute_force(void **state)
{
    (void)state;
    tu_rng_init("dp_brute_force");
    for (int n = 2; n <= 3; n++) {
        int N;
        hd_agl *all = t_all_agl(n, &N);
        /* D of every element and the index of every product, by the
         * test's algebra, so that enumerating sequences is cheap. */
        int maxk = n == 2 ? 4 : 2;
        for (int butterfly = 0; butterfly < 2; butterfly++)
            for (long c = 0; c < tu_cases(n == 2 ? 6 : 2); c++) {
                int k = 2 + (int)tu_below((uint64_t)maxk - 1);
                hd_agl P[4];
                for (int h = 0; h < k; h++)
                    P[h] = all[tu_below((uint64_t)N)];
                /* cost[h][f]: D(P_h F^-1); remap[f][g]: D(F_g F_f^-1). */
                int *cost = malloc((size_t)k * (size_t)N * sizeof *cost);
                unsigned char *remap = malloc((size_t)N * (size_t)N);
                for (int h = 0; h < k; h++)
                    for (int f = 0; f < N; f++) {
                        hd_agl x = t_div(&P[h], &all[f]);
                        cost[h * N + f] = t_D(&x, butterfly);
                    }
                for (int f = 0; f < N; f++)
                    for (int g = 0; g < N; g++) {
                        hd_agl x = t_div(&all[g], &all[f]);
                        remap[(size_t)f * (size_t)N + (size_t)g] = (unsigned char)t_D(&x, butterfly);
                    }
                int best = 1 << 30;
                int idx[4] = { 0 };
                for (;;) {
                    int s = 0;
                    for (int h = 0; h < k; h++) {
                        s += cost[h * N + idx[h]];
                        if (h)
                            s += remap[(size_t)idx[h - 1] * (size_t)N + (size_t)idx[h]];
                    }
                    if (s < best)
                        best = s;
                    int h = k - 1;
                    while (h >= 0 && ++idx[h] == N)
                        idx[h--] = 0;
                    if (h < 0)
                        break;
                }
                hd_wu_plan p;
                const hd_target *t = butterfly ? BUTTERFLY(n) : OMEGA(n);
                assert_int_equal(hd_wu_dp(t, P, k, NULL, &p), HD_OK);
                TU_CHECK(p.cost == best, "n = %d, k = %d, %s: DP %d, brute force %d", n, k,
                         butterfly ? "butterfly" : "omega", p.cost, best);
                TU_CHECK(t_seq_cost(P, p.F, k, butterfly) == best, "DP's sequence");
                TU_CHECK(p.claimed == best, "DP's table %d", p.claimed);
                hd_wu_plan_free(&p);
                free(cost);
                free(remap);
            }
        free(all);
    }
}


/* ---------------------------------------------------------- Algorithm I */

/* Algorithm I (corrected) against the DP on random sequences, n = 3, k =
 * 2 .. 8, and both inside Theorem 3.5's bounds when the transfers are
 * pairwise different.  Half the cases draw transfers from a few, so that
 * repeats and near-repeats (where staying and P_h itself matter) occur. */
static void test_algorithm1_equals_dp(void **state)
{
    (void)state;
    tu_rng_init("algorithm1_equals_dp");
    const int n = 3;
    for (int k = 2; k <= 8; k++)
        for (long c = 0; c < tu_cases(25); c++) {
            hd_agl P[8], pool[4];
            bool distinct = c % 2 == 0;
            if (distinct)
                t_random_distinct(n, P, k);
            else {
                for (int i = 0; i < 4; i++)
                    pool[i] = t_random_agl(n);
                for (int h = 0; h < k; h++)
                    P[h] = pool[tu_below(4)];
            }
            tu_case(c, NULL, 0, NULL);
            hd_wu_plan a, d;
            assert_int_equal(hd_wu_dp(OMEGA(n), P, k, NULL, &d), HD_OK);
            assert_int_equal(hd_wu_algorithm1(OMEGA(n), P, k, NULL, &a), HD_OK);
            int da = t_seq_cost(P, a.F, k, false), dd = t_seq_cost(P, d.F, k, false);
            TU_CHECK(da == a.cost && dd == d.cost, "costs recomputed: %d %d, %d %d", da, a.cost, dd,
                     d.cost);
            TU_CHECK(a.claimed == a.cost, "Algorithm I's own count %d, its sequence %d", a.claimed,
                     a.cost);
            TU_CHECK(a.cost == d.cost, "k = %d: Algorithm I %d, DP %d", k, a.cost, d.cost);
            if (distinct) {
                int hi = k % 2 ? (3 * k - 1) / 2 : 3 * k / 2 - 1;
                TU_CHECK(d.cost >= k - 1 && d.cost <= hi, "Theorem 3.5: k = %d, optimum %d", k, d.cost);
            }
            hd_wu_plan_free(&a);
            hd_wu_plan_free(&d);
        }
}

/* ------------------------------------------------------------- main */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dp_brute_force),
        cmocka_unit_test(test_algorithm1_equals_dp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
