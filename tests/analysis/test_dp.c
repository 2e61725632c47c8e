/*
 * test_dp.c — one mapping for a set of LCCs (Section 5 of Hou et al. 2001,
 * analysis/mapping.c): the three objectives, Theorem 5's dynamic program
 * (hd_optimize_set) and the exhaustive search (hd_optimize_exhaustive).
 *
 * The reference is the test's own search over all n! orderings, which
 * evaluates the three objectives from the T_i of every LCC after every
 * ordering and keeps, for max and maxsum, the least total (sum objective)
 * among the orderings optimal for the primary objective — the tie-break
 * that hd_optimize_set documents.  The T_i come from hd_contention_after,
 * which test_contention checks against two path counters; here, too, the
 * objective is recomputed from counted paths for some cases.
 */
#include "testutil.h"

#include <string.h>

#define MAX_M 4
#define OBJ_COUNT 3

static const hd_objective objectives[OBJ_COUNT] = { HD_OBJ_MAX, HD_OBJ_MAXSUM, HD_OBJ_SUM };

/* The three objectives of Section 5 from T[r][i], written out directly. */
typedef struct {
    uint64_t max, maxsum, sum;
} costs;

static costs costs_of(uint64_t T[][HD_MAX_DIM], int m, int n)
{
    costs c = { 0, 0, 0 };
    for (int i = 0; i < n; i++) {
        uint64_t dim_sum = 0;
        for (int r = 0; r < m; r++) {
            if (T[r][i] > c.max)
                c.max = T[r][i];
            dim_sum += T[r][i];
        }
        if (dim_sum > c.maxsum)
            c.maxsum = dim_sum;
        c.sum += dim_sum;
    }
    return c;
}

static uint64_t primary(const costs *c, hd_objective obj)
{
    return obj == HD_OBJ_MAX ? c->max : obj == HD_OBJ_MAXSUM ? c->maxsum : c->sum;
}

static costs costs_after(const hd_lcc *set, int m, const hd_order *o)
{
    uint64_t T[MAX_M][HD_MAX_DIM];
    for (int r = 0; r < m; r++)
        tu_contention_after(&set[r], o, T[r]);
    return costs_of(T, m, o->n);
}

/* For each objective: the optimum and the least sum among its optima. */
typedef struct {
    uint64_t best[OBJ_COUNT], best_sum[OBJ_COUNT];
} reference;

static reference own_search(const hd_lcc *set, int m, int n)
{
    reference ref;
    for (int k = 0; k < OBJ_COUNT; k++)
        ref.best[k] = ref.best_sum[k] = UINT64_MAX;
    hd_order o = hd_order_identity(n);
    do {
        costs c = costs_after(set, m, &o);
        for (int k = 0; k < OBJ_COUNT; k++) {
            uint64_t p = primary(&c, objectives[k]);
            if (p < ref.best[k] || (p == ref.best[k] && c.sum < ref.best_sum[k])) {
                ref.best[k] = p;
                ref.best_sum[k] = c.sum;
            }
        }
    } while (tu_next_order(&o));
    return ref;
}

static bool all_fixed(const hd_lcc *c)
{
    for (int i = 0; i < c->A.n; i++)
        if (c->A.row[i] != UINT64_C(1) << i || ((c->b >> i) & 1))
            return false;
    return true;
}

static void random_set(hd_lcc *set, int m, int n)
{
    for (int r = 0; r < m; r++)
        set[r] = tu_random_any_lcc(n, NULL);
}

/* Both searches against the reference, for every objective. */
static void check_set(const hd_lcc *set, int m, int n, const reference *ref)
{
    for (int k = 0; k < OBJ_COUNT; k++) {
        hd_objective obj = objectives[k];
        const char *name = hd_objective_name(obj);
        hd_order o;
        uint64_t cost;

        TU_CHECK_EQ(hd_optimize_set(TU_CUBE(n), set, m, obj, &o, &cost), HD_OK, "DP rc");
        TU_CHECK(hd_order_is_valid(&o) && o.n == n, "DP ordering invalid (%s)", name);
        TU_CHECK(cost == ref->best[k], "DP %s cost %llu, optimum %llu (m = %d, n = %d)",
                 name, (unsigned long long)cost, (unsigned long long)ref->best[k], m, n);
        TU_CHECK_EQ(tu_objective_cost(obj, set, m, &o), cost, "hd_objective_cost(DP order)");
        costs c = costs_after(set, m, &o);
        TU_CHECK_EQ(primary(&c, obj), cost, "own objective of the DP ordering");
        /* The documented tie-break: least total among the optima. */
        TU_CHECK(c.sum == ref->best_sum[k], "DP %s ordering has sum %llu, least is %llu",
                 name, (unsigned long long)c.sum, (unsigned long long)ref->best_sum[k]);
        TU_CHECK_EQ(tu_objective_cost(HD_OBJ_SUM, set, m, &o), c.sum, "sum of the DP order");

        /* The plan's entry: each distinct LCC once with its count. */
        const hd_lcc *once[MAX_M];
        uint64_t count[MAX_M];
        int u = 0;
        for (int r = 0; r < m; r++) {
            int j = 0;
            while (j < u && !(once[j]->dir == set[r].dir && once[j]->b == set[r].b &&
                              hd_matrix_equal(&once[j]->A, &set[r].A)))
                j++;
            if (j == u) {
                once[u] = &set[r];
                count[u++] = 0;
            }
            count[j]++;
        }
        TU_CHECK_EQ(hd_optimize_weighted(TU_CUBE(n), once, count, u, obj, &o, &cost), HD_OK,
                    "weighted rc");
        TU_CHECK(cost == ref->best[k], "weighted %s cost %llu, optimum %llu", name,
                 (unsigned long long)cost, (unsigned long long)ref->best[k]);
        TU_CHECK(costs_after(set, m, &o).sum == ref->best_sum[k],
                 "weighted %s ordering is not of least total", name);

        TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(n), set, m, obj, &o, &cost), HD_OK,
                    "exhaustive rc");
        TU_CHECK(hd_order_is_valid(&o) && o.n == n, "exhaustive ordering invalid");
        TU_CHECK(cost == ref->best[k], "exhaustive %s cost %llu, optimum %llu", name,
                 (unsigned long long)cost, (unsigned long long)ref->best[k]);
        TU_CHECK_EQ(tu_objective_cost(obj, set, m, &o), cost, "hd_objective_cost(exhaustive)");
    }
}

/* ---------------------------------------------------------------- tests */

/* Thousands of random sets, n = 1 .. 8, m = 1 .. 4, all classes mixed.
 * Fewer cases at large n: the references cost n! each. */
static void test_dp_vs_exhaustive(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const long per_n[9] = { 0, 300, 400, 400, 400, 400, 200, 50, 10 };
    long t = 0;
    for (int n = 1; n <= 8; n++)
        for (long k = 0; k < tu_cases(per_n[n]); k++, t++) {
            hd_lcc set[MAX_M];
            int m = 1 + (int)tu_below(MAX_M);
            random_set(set, m, n);
            tu_case(t, set, m, NULL);
            reference ref = own_search(set, m, n);
            check_set(set, m, n, &ref);
        }
}

/* Sets of one shape: all scatters, all gathers, all with fixed dimensions,
 * where a wrong direction or a wrong fixed-bit rule would show. */
static void test_dp_uniform_sets(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long t = 0;
    for (int kind = 0; kind < TU_KIND_COUNT; kind++)
        for (long k = 0; k < tu_cases(60); k++, t++) {
            int n = 1 + (int)tu_below(6), m = 1 + (int)tu_below(MAX_M);
            hd_lcc set[MAX_M];
            for (int r = 0; r < m; r++)
                set[r] = tu_random_lcc((tu_kind)kind, n, NULL);
            tu_case(t, set, m, NULL);
            reference ref = own_search(set, m, n);
            check_set(set, m, n, &ref);
        }
}

/* Sets that repeat LCCs, as programs do: the DP prices each distinct LCC
 * once and weighs it by its count, which must change nothing. */
static void test_dp_repeated_lccs(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(300);
    for (long t = 0; t < cases; t++) {
        int n = 1 + (int)tu_below(6), distinct = 1 + (int)tu_below(2);
        hd_lcc set[MAX_M];
        random_set(set, distinct, n);
        for (int r = distinct; r < MAX_M; r++)
            set[r] = set[tu_below((uint64_t)r)];
        tu_case(t, set, MAX_M, NULL);
        reference ref = own_search(set, MAX_M, n);
        check_set(set, MAX_M, n, &ref);
    }
}

/* hd_objective_cost against objectives built from counted paths: the
 * library's walker on the reordered LCCs, and the own counter on the
 * relabelled messages. */
static void test_objective_cost_from_paths(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(1500);
    for (long t = 0; t < cases; t++) {
        int n = 1 + (int)tu_below(7), m = 1 + (int)tu_below(MAX_M);
        hd_lcc set[MAX_M];
        random_set(set, m, n);
        hd_order o = tu_random_order(n);
        hd_target net = hd_target_ecube(n);
        uint64_t walked[MAX_M][HD_MAX_DIM], counted[MAX_M][HD_MAX_DIM];
        tu_case(t, set, m, &o);
        for (int r = 0; r < m; r++) {
            hd_lcc d = hd_lcc_reorder(&set[r], &o);
            TU_CHECK_EQ(hd_channel_loads(&net, &d, walked[r]), HD_OK, "rc");
            tu_relabelled_loads(&set[r], &o, counted[r]);
        }
        costs cw = costs_of(walked, m, n), cc = costs_of(counted, m, n);
        for (int k = 0; k < OBJ_COUNT; k++) {
            uint64_t got = tu_objective_cost(objectives[k], set, m, &o);
            TU_CHECK_EQ(got, primary(&cw, objectives[k]), "objective vs hd_channel_loads");
            TU_CHECK_EQ(got, primary(&cc, objectives[k]), "objective vs own path count");
        }
    }
}

/*
 * Beyond exhaustive reach (n = 9 .. 14, and one n = 20): the DP's cost is
 * what its ordering achieves, no random ordering beats it, it is at least
 * every single LCC's optimum for max, and for m = 1 it is that optimum
 * (Corollaries 1, 2), known in closed form from the rank.
 */
static void test_dp_large(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    long cases = tu_cases(60);
    for (long t = 0; t <= cases; t++) {
        int n = t == cases ? 20 : 9 + (int)tu_below(6);
        int m = t % 3 == 0 ? 1 : 1 + (int)tu_below(MAX_M), rank[MAX_M];
        hd_lcc set[MAX_M];
        for (int r = 0; r < m; r++)
            set[r] = tu_random_any_lcc(n, &rank[r]);
        tu_case(t, set, m, NULL);
        uint64_t single_max = 0;
        for (int r = 0; r < m; r++) {
            hd_order o = hd_optimize_alone(&set[r]);
            uint64_t T[HD_MAX_DIM];
            tu_contention_after(&set[r], &o, T);
            uint64_t d = hd_contention_degree(T, n);
            uint64_t closed = rank[r] < n ? UINT64_C(1) << ((n - 1) - rank[r])
                              : all_fixed(&set[r]) ? 0 : 1;
            TU_CHECK_EQ(d, closed, "single optimum");
            single_max = d > single_max ? d : single_max;
        }
        for (int k = 0; k < OBJ_COUNT; k++) {
            hd_objective obj = objectives[k];
            hd_order o;
            uint64_t cost;
            TU_CHECK_EQ(hd_optimize_set(TU_CUBE(n), set, m, obj, &o, &cost), HD_OK, "DP rc");
            TU_CHECK(hd_order_is_valid(&o) && o.n == n, "DP ordering invalid");
            TU_CHECK_EQ(tu_objective_cost(obj, set, m, &o), cost, "DP cost is achieved");
            if (obj == HD_OBJ_MAX) {
                TU_CHECK(cost >= single_max, "max below a single LCC's optimum");
                if (m == 1)
                    TU_CHECK_EQ(cost, single_max, "m = 1: the single optimum");
            }
            if (obj == HD_OBJ_MAXSUM && m == 1)
                TU_CHECK_EQ(cost, single_max, "m = 1: maxsum = max");
            for (int s = 0; s < 20; s++) {
                hd_order q = tu_random_order(n);
                TU_CHECK(tu_objective_cost(obj, set, m, &q) >= cost,
                         "a random ordering beats the DP (%s)", hd_objective_name(obj));
            }
            for (int r = 0; r < m; r++) {
                hd_order q = hd_optimize_alone(&set[r]);
                TU_CHECK(tu_objective_cost(obj, set, m, &q) >= cost,
                         "LCC %d's own optimum beats the DP", r);
            }
        }
    }
}

static void test_edge_cases(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    hd_order o;
    uint64_t cost;
    /* m = 0: nothing to pay, any ordering (with or without an array). */
    for (int n = 1; n <= 10; n++) {
        hd_lcc one = tu_random_any_lcc(n, NULL);
        for (int k = 0; k < OBJ_COUNT; k++) {
            cost = 99;
            TU_CHECK_EQ(hd_optimize_set(TU_CUBE(n), NULL, 0, objectives[k], &o, &cost), HD_OK,
                        "m = 0");
            TU_CHECK(cost == 0 && hd_order_is_valid(&o) && o.n == n, "m = 0 result");
            cost = 99;
            TU_CHECK_EQ(hd_optimize_set(TU_CUBE(n), &one, 0, objectives[k], &o, &cost), HD_OK,
                        "m = 0");
            TU_CHECK(cost == 0 && hd_order_is_valid(&o) && o.n == n, "m = 0 result");
            cost = 99;
            TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(n), NULL, 0, objectives[k], &o, &cost),
                        HD_OK, "exhaustive m = 0");
            TU_CHECK(cost == 0 && hd_order_is_valid(&o) && o.n == n, "exhaustive m = 0");
            TU_CHECK_EQ(tu_objective_cost(objectives[k], NULL, 0, &o), 0, "empty cost");
        }
    }
    /* n = 1: the only ordering; the cost counts messages crossing bit 0. */
    hd_lcc set[2];
    memset(set, 0, sizeof set);
    set[0].A = hd_matrix_zero(1);              /* everyone to node 1 */
    set[0].b = 1;
    set[1].A = hd_matrix_identity(1);          /* swap the two nodes */
    set[1].b = 1;
    set[1].dir = HD_SCATTER;
    static const uint64_t want[OBJ_COUNT] = { 1, 2, 2 };
    for (int k = 0; k < OBJ_COUNT; k++) {
        TU_CHECK_EQ(hd_optimize_set(TU_CUBE(1), set, 2, objectives[k], &o, &cost), HD_OK, "n = 1");
        TU_CHECK(o.n == 1 && o.r[0] == 0, "n = 1 ordering");
        TU_CHECK_EQ(cost, want[k], "n = 1 cost");
        TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(1), set, 2, objectives[k], &o, &cost), HD_OK,
                    "rc");
        TU_CHECK_EQ(cost, want[k], "n = 1 exhaustive cost");
    }

    /* Errors. */
    hd_lcc mixed[2] = { tu_random_any_lcc(4, NULL), tu_random_any_lcc(5, NULL) };
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(4), mixed, 2, HD_OBJ_MAX, &o, &cost), HD_EINVAL, "mixed n");
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(5), mixed, 2, HD_OBJ_MAX, &o, &cost), HD_EINVAL, "mixed n");
    TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(4), mixed, 2, HD_OBJ_MAX, &o, &cost), HD_EINVAL,
                "exhaustive mixed n");
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(5), mixed, 1, HD_OBJ_MAX, &o, &cost), HD_EINVAL,
                "n != A.n");
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(0), mixed, 1, HD_OBJ_MAX, &o, &cost), HD_EINVAL, "n = 0");
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(4), mixed, -1, HD_OBJ_MAX, &o, &cost), HD_EINVAL, "m < 0");
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(4), NULL, 1, HD_OBJ_MAX, &o, &cost), HD_EINVAL, "no array");

    hd_lcc big;
    memset(&big, 0, sizeof big);
    big.A = hd_matrix_identity(HD_DP_MAX_DIM + 1);
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(HD_DP_MAX_DIM + 1), &big, 1, HD_OBJ_MAX, &o, &cost),
                HD_ETOOBIG, "n > HD_DP_MAX_DIM");
    TU_CHECK_EQ(hd_optimize_set(TU_CUBE(HD_DP_MAX_DIM + 1), NULL, 0, HD_OBJ_SUM, &o, &cost),
                HD_ETOOBIG, "n > HD_DP_MAX_DIM, m = 0");
    /* Another kind of network than the e-cube hypercube: no formula yet. */
    hd_target other = hd_target_ecube(4);
    other.kind = (hd_target_kind)(HD_TARGET_ECUBE_HYPERCUBE + 1);
    hd_order id4 = hd_order_identity(4);
    const hd_lcc *first = &mixed[0];
    uint64_t once = 1;
    TU_CHECK_EQ(hd_objective_cost(&other, HD_OBJ_MAX, mixed, 1, &id4, &cost), HD_EINVAL,
                "cost, another kind");
    TU_CHECK_EQ(hd_optimize_set(&other, mixed, 1, HD_OBJ_MAX, &o, &cost), HD_EINVAL,
                "DP, another kind");
    TU_CHECK_EQ(hd_optimize_weighted(&other, &first, &once, 1, HD_OBJ_MAX, &o, &cost),
                HD_EINVAL, "weighted, another kind");
    TU_CHECK_EQ(hd_optimize_exhaustive(&other, mixed, 1, HD_OBJ_MAX, &o, &cost), HD_EINVAL,
                "exhaustive, another kind");
    TU_CHECK_EQ(hd_objective_cost(TU_CUBE(5), HD_OBJ_MAX, mixed, 1, &id4, &cost), HD_EINVAL,
                "cost, order n != target n");

    big.A = hd_matrix_identity(HD_EXHAUSTIVE_MAX_DIM + 1);
    TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(HD_EXHAUSTIVE_MAX_DIM + 1), &big, 1, HD_OBJ_MAX, &o,
                                       &cost), HD_ETOOBIG, "n > HD_EXHAUSTIVE_MAX_DIM");
}

static void test_objective_names(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const char *const names[OBJ_COUNT] = { "max", "maxsum", "sum" };
    for (int k = 0; k < OBJ_COUNT; k++) {
        hd_objective obj = (hd_objective)-1;
        TU_CHECK(strcmp(hd_objective_name(objectives[k]), names[k]) == 0, "name %d", k);
        TU_CHECK(hd_objective_parse(names[k], &obj) && obj == objectives[k], "parse %s",
                 names[k]);
    }
    TU_CHECK(strcmp(hd_objective_name((hd_objective)3), "?") == 0, "invalid objective");
    TU_CHECK(strcmp(hd_objective_name((hd_objective)-1), "?") == 0, "invalid objective");
    hd_objective obj = HD_OBJ_SUM;
    TU_CHECK(!hd_objective_parse("maximum", &obj), "parse of a bad name");
    TU_CHECK(!hd_objective_parse("", &obj), "parse of an empty name");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dp_vs_exhaustive),
        cmocka_unit_test(test_dp_uniform_sets),
        cmocka_unit_test(test_dp_repeated_lccs),
        cmocka_unit_test(test_objective_cost_from_paths),
        cmocka_unit_test(test_dp_large),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_objective_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
