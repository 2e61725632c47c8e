/*
 * test_fem_cost.c — analysis/fem_cost.c against the numbers Chung and
 * Ranka 1990 print: Fig. 3(a) and 3(b) (the same communication matrix,
 * bidirectional: 2 steps, 2 T_setup + 3 T_c; unidirectional: 4 steps,
 * 4 T_setup + 6 T_c), Eqs. 8.1, 9.1 and 9.2 against rows of Tables 1-3,
 * the tables' ELBS_bi (Eq. 8.2 with 200 us more: docs/meshes.md), and
 * sample 1 (an 8 x 8 quad grid, one row of nodes per processor of the
 * 1 x 8 mesh in Gray code order) against Table 1's 7.08* and 6.36*.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "analysis.h"

/* A graph from an edge list. */
static hd_graph graph(int n, const int (*e)[2], int m)
{
    hd_graph g = { n, calloc((size_t)n + 1, sizeof(int)), calloc((size_t)(2 * m + 1), sizeof(int)) };
    for (int k = 0; k < m; k++) {
        g.xadj[e[k][0] + 1]++;
        g.xadj[e[k][1] + 1]++;
    }
    for (int v = 0; v < n; v++)
        g.xadj[v + 1] += g.xadj[v];
    int *at = calloc((size_t)n, sizeof(int));
    for (int v = 0; v < n; v++)
        at[v] = g.xadj[v];
    /* Increasing neighbours: insert, then sort each row. */
    for (int k = 0; k < m; k++) {
        g.adj[at[e[k][0]]++] = e[k][1];
        g.adj[at[e[k][1]]++] = e[k][0];
    }
    for (int v = 0; v < n; v++)
        for (int i = g.xadj[v]; i < g.xadj[v + 1]; i++)
            for (int j = i + 1; j < g.xadj[v + 1]; j++)
                if (g.adj[j] < g.adj[i]) {
                    int t = g.adj[i];
                    g.adj[i] = g.adj[j];
                    g.adj[j] = t;
                }
    free(at);
    return g;
}

/* Fig. 3: c01 = c03 = c10 = c12 = c21 = c23 = c30 = c32 = 1 on the 2-cube,
 * one node per processor on the cycle 0 - 1 - 2 - 3 - 0. */
static void fig3(void **state)
{
    (void)state;
    static const int e[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } };
    hd_graph g = graph(4, e, 4);
    int proc[4] = { 0, 1, 2, 3 };
    hd_fem_times t = HD_FEM_TIMES_DEFAULT;
    hd_fem_report r;
    assert_int_equal(hd_fem_cost(&g, 2, proc, &t, &r), HD_OK);
    assert_int_equal(r.words, 8);
    assert_int_equal(r.steps[HD_FEM_BI], 2);
    assert_int_equal(r.step_max[HD_FEM_BI][0], 2);
    assert_int_equal(r.step_max[HD_FEM_BI][1], 1);
    assert_true(fabs(r.c_us[HD_FEM_BI] - (2 * 1150 + 3 * 10)) < 1e-9);
    assert_int_equal(r.steps[HD_FEM_UNI], 4);
    static const long long uni[] = { 2, 2, 1, 1 };
    for (int s = 0; s < 4; s++)
        assert_int_equal(r.step_max[HD_FEM_UNI][s], uni[s]);
    assert_true(fabs(r.c_us[HD_FEM_UNI] - (4 * 1150 + 6 * 10)) < 1e-9);
    assert_true(r.neighbour_mapping);
    assert_int_equal(r.dilation[1], 2);
    assert_int_equal(r.dilation[2], 2);
    hd_fem_report_free(&r);
    proc[2] = 4;
    assert_int_equal(hd_fem_cost(&g, 2, proc, &t, &r), HD_EINVAL);
    hd_graph_free(&g);
}

/* Eqs. 8.1, 9.1, 9.2 and the tables' ELBS_bi, rounded as printed:
 * (N, n, EUBS_uni, ELBS_uni, EUBS_bi, ELBS_bi) from Tables 1-3. */
static void bounds(void **state)
{
    (void)state;
    static const struct {
        int N, n;
        double eu, lu, eb, lb;
    } rows[] = {
        { 64, 3, 6.42, 5.10, 7.12, 6.13 },    { 40, 3, 5.74, 4.31, 6.69, 5.47 },
        { 505, 3, 7.66, 6.89, 7.77, 7.34 },   { 340, 3, 7.56, 6.74, 7.73, 7.25 },
        { 64, 4, 10.73, 7.68, 12.84, 10.10 }, { 40, 4, 8.05, 5.54, 10.04, 7.58 },
        { 160, 4, 13.37, 10.64, 14.57, 12.61 }, { 198, 4, 13.23, 10.76, 14.16, 12.48 },
        { 64, 5, 16.14, 10.38, 21.45, 15.05 }, { 505, 5, 28.11, 22.66, 29.74, 26.15 },
        { 340, 5, 26.22, 20.57, 28.37, 24.40 }, { 198, 5, 22.08, 16.60, 24.80, 20.56 },
    };
    hd_fem_times t = HD_FEM_TIMES_DEFAULT;
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
        /* Any mapping: the bounds depend on N and n alone. */
        hd_graph g = { rows[k].N, calloc((size_t)rows[k].N + 1, sizeof(int)), calloc(1, sizeof(int)) };
        int *proc = calloc((size_t)rows[k].N, sizeof(int));
        hd_fem_report r;
        assert_int_equal(hd_fem_cost(&g, rows[k].n, proc, &t, &r), HD_OK);
        assert_true(fabs(round(r.eubs[HD_FEM_UNI] * 100) / 100 - rows[k].eu) < 1e-9);
        assert_true(fabs(round(r.elbs[HD_FEM_UNI] * 100) / 100 - rows[k].lu) < 1e-9);
        assert_true(fabs(round(r.eubs[HD_FEM_BI] * 100) / 100 - rows[k].eb) < 1e-9);
        assert_true(fabs(round(r.elbs_bi_printed * 100) / 100 - rows[k].lb) < 1e-9);
        /* Eq. 8.2 itself is always above what the tables print. */
        assert_true(r.elbs[HD_FEM_BI] > rows[k].lb);
        hd_fem_report_free(&r);
        free(proc);
        hd_graph_free(&g);
    }
}

/* Sample 1: the 8 x 8-node quad grid (NB: king moves), row y of nodes on
 * processor G(y) = y ^ (y >> 1) of the 3-cube: Table 1's 2-way stripes
 * speedups, 7.08 (bi) and 6.36 (uni), both load-balanced. */
static void sample1(void **state)
{
    (void)state;
    int e[64 * 8][2], m = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int v = x + 8 * y;
            if (x + 1 < 8)
                e[m][0] = v, e[m++][1] = v + 1;
            if (y + 1 < 8)
                e[m][0] = v, e[m++][1] = v + 8;
            if (x + 1 < 8 && y + 1 < 8)
                e[m][0] = v, e[m++][1] = v + 9;
            if (x > 0 && y + 1 < 8)
                e[m][0] = v, e[m++][1] = v + 7;
        }
    hd_graph g = graph(64, (const int (*)[2])e, m);
    int proc[64];
    for (int v = 0; v < 64; v++)
        proc[v] = (v / 8) ^ (v / 16);
    hd_fem_times t = HD_FEM_TIMES_DEFAULT;
    hd_fem_report r;
    assert_int_equal(hd_fem_cost(&g, 3, proc, &t, &r), HD_OK);
    assert_true(r.lbc);
    assert_true(r.neighbour_mapping);
    assert_true(fabs(round(r.speedup[HD_FEM_BI] * 100) / 100 - 7.08) < 1e-9);
    assert_true(fabs(round(r.speedup[HD_FEM_UNI] * 100) / 100 - 6.36) < 1e-9);
    hd_fem_report_free(&r);
    /* Sum c_kl, sum c_kl H(k, l) and the edge cut, counted from the edges
     * under this mapping and a scrambled one: each node v travels once
     * to each other processor holding a neighbour. */
    for (int round = 0; round < 2; round++) {
        for (int v = 0; round && v < 64; v++)
            proc[v] = (v * 37 + v / 5) % 8;
        long long words = 0, hops = 0, cut = 0;
        for (int v = 0; v < 64; v++) {
            bool to[8] = { false };
            for (int k = 0; k < m; k++) {
                int a = e[k][0], b = e[k][1];
                if (a == v && proc[b] != proc[v])
                    to[proc[b]] = true;
                if (b == v && proc[a] != proc[v])
                    to[proc[a]] = true;
            }
            for (int l = 0; l < 8; l++)
                if (to[l]) {
                    words++;
                    hops += __builtin_popcount((unsigned)(l ^ proc[v]));
                }
        }
        for (int k = 0; k < m; k++)
            cut += proc[e[k][0]] != proc[e[k][1]];
        assert_int_equal(hd_fem_cost(&g, 3, proc, &t, &r), HD_OK);
        assert_int_equal(r.words, words);
        assert_int_equal(r.word_hops, hops);
        assert_int_equal(r.edge_cut, cut);
        hd_fem_report_free(&r);
    }
    hd_graph_free(&g);
}

/* Section 3.1's merge as the paper writes it, rescanning every pair per
 * merge: the reference for the heap (hd_fem_merge_stripes). */
static void merge_by_rescan(const long long *count, int L, int want, int *into)
{
    long long c[256];
    int first[256], groups = L;
    for (int b = 0; b < L; b++)
        c[b] = count[b], first[b] = b;
    while (groups > want) {
        int m = 0;
        for (int k = 1; k + 1 < groups; k++)
            if (c[k] + c[k + 1] < c[m] + c[m + 1])
                m = k;
        c[m] += c[m + 1];
        for (int k = m + 1; k + 1 < groups; k++)
            c[k] = c[k + 1], first[k] = first[k + 1];
        groups--;
    }
    for (int b = 0, k = 0; b < L; b++) {
        while (k + 1 < groups && first[k + 1] <= b)
            k++;
        into[b] = k;
    }
}

/* Random stripe counts, many ties among small ones, every target. */
static void merge(void **state)
{
    (void)state;
    unsigned seed = 12345;
    for (int round = 0; round < 400; round++) {
        int L = 1 + round % 97 + (round > 300 ? 150 : 0);
        long long count[256];
        for (int b = 0; b < L; b++) {
            seed = seed * 1103515245u + 12345u;
            count[b] = round % 3 ? (seed >> 16) % 4 : (seed >> 16) % 1000;
        }
        for (int want = 1; want <= L + 1; want += 1 + L / 16) {
            int got[256], ref[256];
            assert_int_equal(hd_fem_merge_stripes(count, L, want, got), HD_OK);
            merge_by_rescan(count, L, want, ref);
            for (int b = 0; b < L; b++)
                if (got[b] != ref[b])
                    fail_msg("L %d, want %d: stripe %d in group %d, the rescan's %d", L, want, b,
                             got[b], ref[b]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fig3),
        cmocka_unit_test(bounds),
        cmocka_unit_test(sample1),
        cmocka_unit_test(merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
