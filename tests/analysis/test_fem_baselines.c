/*
 * test_fem_baselines.c — the Scotch and METIS baselines of the mesh
 * mappings (analysis/fem_baselines.c, Chung and Ranka 1990's cost model).
 * The graphs are the test's own: quad grids whose NB graph (nodes sharing
 * an element) is the king-move neighbourhood.  The word-hops are counted
 * here from their definition (for each node, each distinct other
 * processor among its neighbours' costs one word times the Hamming
 * distance), and METIS's own partition comes from the test's own call of
 * METIS, so the relabelling is checked against what METIS returned.
 */
#include "testutil.h"

#include <metis.h>
#include <stdlib.h>
#include <string.h>

#define MAXDIM 5

/* The NB graph of an nx x ny quad grid (node x + nx y). */
static hd_graph king_grid(int nx, int ny)
{
    int N = nx * ny;
    hd_graph g = { N, malloc(((size_t)N + 1) * sizeof(int)), malloc((size_t)N * 8 * sizeof(int) + 1) };
    int e = 0;
    for (int v = 0; v < N; v++) {
        int x = v % nx, y = v / nx;
        g.xadj[v] = e;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dx || dy) && x + dx >= 0 && x + dx < nx && y + dy >= 0 && y + dy < ny)
                    g.adj[e++] = v + dx + nx * dy;   /* ascending: dy, then dx */
    }
    g.xadj[N] = e;
    return g;
}

static void graph_free(hd_graph *g)
{
    free(g->xadj);
    free(g->adj);
}

/* Sum over processors k != l of c_kl H(k, l), from the nodes. */
static long long word_hops(const hd_graph *g, const int *proc)
{
    long long sum = 0;
    for (int v = 0; v < g->n; v++)
        for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
            int p = proc[g->adj[e]];
            bool first = p != proc[v];
            for (int f = g->xadj[v]; first && f < e; f++)
                first = proc[g->adj[f]] != p;
            if (first)
                sum += __builtin_popcount((unsigned)(p ^ proc[v]));
        }
    return sum;
}

static int heaviest(const int *proc, int N, int n)
{
    int load[1 << MAXDIM] = { 0 }, most = 0;
    assert_true(n >= 0 && n <= MAXDIM);
    for (int v = 0; v < N; v++)
        if (++load[proc[v]] > most)
            most = load[proc[v]];
    return most;
}

static void check_range(const int *proc, int N, int n, const char *who)
{
    for (int v = 0; v < N; v++)
        TU_CHECK(proc[v] >= 0 && proc[v] < 1 << n, "%s, n = %d: node %d on %d", who, n, v,
                 proc[v]);
}

/* METIS as fem_baselines.c documents it: k-way (edge cut, seed 1, 3 %),
 * recursive bisection too when k-way misses its balance, the lighter kept.
 * True when the recursive bisection ran. */
static bool metis_own(const hd_graph *g, int nparts, int *part)
{
    idx_t nv = g->n, ncon = 1, np = nparts, cut, options[METIS_NOPTIONS];
    idx_t *xadj = malloc(((size_t)g->n + 1) * sizeof *xadj);
    idx_t *adj = malloc((size_t)g->xadj[g->n] * sizeof *adj + 1);
    idx_t *p = malloc((size_t)g->n * sizeof *p);
    for (int v = 0; v <= g->n; v++)
        xadj[v] = g->xadj[v];
    for (int e = 0; e < g->xadj[g->n]; e++)
        adj[e] = g->adj[e];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;
    options[METIS_OPTION_CONTIG] = 0;
    options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;
    assert_int_equal(METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &np, NULL,
                                         NULL, options, &cut, p), METIS_OK);
    for (int v = 0; v < g->n; v++)
        part[v] = (int)p[v];
    int n = __builtin_ctz((unsigned)nparts);
    int most = heaviest(part, g->n, n);
    bool missed = most > (g->n * 1030 + 1000 * nparts - 1) / (1000 * nparts);
    if (missed) {
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = 1;
        assert_int_equal(METIS_PartGraphRecursive(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &np,
                                                  NULL, NULL, options, &cut, p), METIS_OK);
        int *rb = malloc((size_t)g->n * sizeof *rb);
        for (int v = 0; v < g->n; v++)
            rb[v] = (int)p[v];
        if (heaviest(rb, g->n, n) < most)
            memcpy(part, rb, (size_t)g->n * sizeof *part);
        free(rb);
    }
    free(xadj);
    free(adj);
    free(p);
    return missed;
}

/* proc is part under a bijection of the labels: the same classes. */
static void check_same_classes(const int *part, const int *proc, int N, int n)
{
    int to[1 << MAXDIM], from[1 << MAXDIM];
    for (int i = 0; i < 1 << n; i++)
        to[i] = from[i] = -1;
    for (int v = 0; v < N; v++) {
        TU_CHECK(to[part[v]] < 0 || to[part[v]] == proc[v], "n = %d: part %d split", n, part[v]);
        TU_CHECK(from[proc[v]] < 0 || from[proc[v]] == part[v], "n = %d: processor %d has two parts",
                 n, proc[v]);
        to[part[v]] = proc[v];
        from[proc[v]] = part[v];
    }
}

typedef int (*mapper)(const hd_graph *, int, int *, char *, size_t);

static int call_scotch(const hd_graph *g, int n, int *proc, char *err, size_t len)
{
    return hd_fem_scotch(g, n, proc, err, len);
}

static int call_metis(const hd_graph *g, int n, int *proc, char *err, size_t len)
{
    hd_fem_times t = HD_FEM_TIMES_DEFAULT;
    return hd_fem_metis(g, n, HD_FEM_BI, &t, proc, err, len);
}

static const struct {
    const char *name;
    mapper map;
} mappers[] = { { "scotch", call_scotch }, { "metis", call_metis } };

/*
 * A 16 x 16 grid on the 0- to 5-cube: every node on a processor of the
 * cube, the heaviest processor within ceil(1.03 N / 2^n) + 1 (Scotch
 * balances to 1 % of N / 2^n, METIS's k-way to 3 %, the one more for the
 * rounding of a part to whole nodes), the same answer twice with another
 * graph mapped in between (no state kept between calls), and METIS's
 * relabelling a bijection of METIS's parts that makes no more word-hops
 * than METIS's own numbering.
 */
static void test_grid(void **state)
{
    (void)state;
    hd_graph g = king_grid(16, 16), other = king_grid(7, 5);
    int N = g.n, proc[256], again[256], part[256], scratch[35];
    char err[200];
    for (int n = 0; n <= MAXDIM; n++)
        for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
            err[0] = 0;
            int rc = mappers[m].map(&g, n, proc, err, sizeof err);
            TU_CHECK(rc == HD_OK, "%s, n = %d: %d (%s)", mappers[m].name, n, rc, err);
            check_range(proc, N, n, mappers[m].name);
            int bound = (N * 103 + 100 * (1 << n) - 1) / (100 * (1 << n)) + 1;
            int most = heaviest(proc, N, n);
            TU_CHECK(most <= bound, "%s, n = %d: %d nodes on a processor, bound %d",
                     mappers[m].name, n, most, bound);
            assert_int_equal(mappers[m].map(&other, n, scratch, err, sizeof err), HD_OK);
            assert_int_equal(mappers[m].map(&g, n, again, err, sizeof err), HD_OK);
            TU_CHECK(memcmp(proc, again, sizeof proc) == 0, "%s, n = %d: not deterministic",
                     mappers[m].name, n);
            if (m == 1 && n > 0) {
                metis_own(&g, 1 << n, part);
                check_same_classes(part, proc, N, n);
                TU_CHECK(word_hops(&g, proc) <= word_hops(&g, part),
                         "n = %d: relabelled %lld word-hops, METIS's numbering %lld", n,
                         word_hops(&g, proc), word_hops(&g, part));
            }
        }
    graph_free(&g);
    graph_free(&other);
}

/* Grids of 2 x 2 to 7 x 7 nodes on cubes of fewer processors than nodes
 * but not many fewer, where METIS's k-way misses its balance and the
 * recursive bisection is used (at least once here): the same checks as
 * test_grid's. */
static void test_small_grids(void **state)
{
    (void)state;
    int proc[49], part[49];
    char err[200];
    bool bisected = false;
    for (int nx = 2; nx <= 7; nx++)
        for (int ny = 1; ny <= nx; ny++) {
            hd_graph g = king_grid(nx, ny);
            for (int n = 1; n <= MAXDIM && 1 << n < g.n; n++)
                for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
                    int rc = mappers[m].map(&g, n, proc, err, sizeof err);
                    TU_CHECK(rc == HD_OK, "%s, %dx%d, n = %d: %s", mappers[m].name, nx, ny, n, err);
                    check_range(proc, g.n, n, mappers[m].name);
                    int bound = (g.n * 103 + 100 * (1 << n) - 1) / (100 * (1 << n)) + 1;
                    TU_CHECK(heaviest(proc, g.n, n) <= bound, "%s, %dx%d, n = %d: %d > %d",
                             mappers[m].name, nx, ny, n, heaviest(proc, g.n, n), bound);
                    if (m == 1) {
                        bisected |= metis_own(&g, 1 << n, part);
                        check_same_classes(part, proc, g.n, n);
                        TU_CHECK(word_hops(&g, proc) <= word_hops(&g, part),
                                 "%dx%d, n = %d: %lld word-hops, METIS's numbering %lld", nx,
                                 ny, n, word_hops(&g, proc), word_hops(&g, part));
                    }
                }
            graph_free(&g);
        }
    assert_true(bisected);
}

/* On a quad grid a good mapping keeps neighbours close: both baselines
 * make fewer word-hops than a row-by-row deal of the nodes (the 2^n
 * bands of rows, numbered in order, on the 4-cube). */
static void test_better_than_bands(void **state)
{
    (void)state;
    hd_graph g = king_grid(16, 16);
    int proc[256], bands[256], n = 4;
    char err[200];
    for (int v = 0; v < 256; v++)
        bands[v] = v / 16;
    for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
        assert_int_equal(mappers[m].map(&g, n, proc, err, sizeof err), HD_OK);
        TU_CHECK(word_hops(&g, proc) < word_hops(&g, bands), "%s: %lld word-hops, bands %lld",
                 mappers[m].name, word_hops(&g, proc), word_hops(&g, bands));
    }
    graph_free(&g);
}

/* More processors than nodes: METIS gives each node a processor of its
 * own (its relabelling no worse than node v on processor v); Scotch
 * leaves none doubly loaded either. */
static void test_more_processors_than_nodes(void **state)
{
    (void)state;
    hd_graph g = king_grid(3, 3), one = king_grid(1, 1);
    int proc[9], identity[9];
    char err[200];
    for (int v = 0; v < 9; v++)
        identity[v] = v;
    for (int n = 4; n <= MAXDIM; n++)
        for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
            int rc = mappers[m].map(&g, n, proc, err, sizeof err);
            TU_CHECK(rc == HD_OK, "%s, n = %d: %s", mappers[m].name, n, err);
            check_range(proc, 9, n, mappers[m].name);
            TU_CHECK(heaviest(proc, 9, n) == 1, "%s, n = %d: a processor with two nodes",
                     mappers[m].name, n);
            if (m == 1)
                TU_CHECK(word_hops(&g, proc) <= word_hops(&g, identity),
                         "n = %d: %lld word-hops, identity %lld", n, word_hops(&g, proc),
                         word_hops(&g, identity));
            rc = mappers[m].map(&one, n, proc, err, sizeof err);
            TU_CHECK(rc == HD_OK && proc[0] >= 0 && proc[0] < 1 << n, "%s, one node, n = %d",
                     mappers[m].name, n);
        }
    graph_free(&g);
    graph_free(&one);
}

/* No nodes: nothing to do, and no array needed.  No edges: 20 isolated
 * nodes still spread over the 2-cube. */
static void test_empty_and_edgeless(void **state)
{
    (void)state;
    int xadj[21] = { 0 }, proc[20];
    hd_graph empty = { 0, xadj, NULL }, edgeless = { 20, xadj, xadj };
    char err[200];
    for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
        for (int n = 0; n <= MAXDIM; n++)
            assert_int_equal(mappers[m].map(&empty, n, NULL, err, sizeof err), HD_OK);
        int rc = mappers[m].map(&edgeless, 2, proc, err, sizeof err);
        TU_CHECK(rc == HD_OK, "%s: %s", mappers[m].name, err);
        check_range(proc, 20, 2, mappers[m].name);
        TU_CHECK(heaviest(proc, 20, 2) <= 6, "%s: %d isolated nodes on a processor",
                 mappers[m].name, heaviest(proc, 20, 2));
    }
}

/* The 0-cube: everything on processor 0. */
static void test_one_processor(void **state)
{
    (void)state;
    hd_graph g = king_grid(5, 4);
    int proc[20];
    char err[200];
    for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
        memset(proc, 0x55, sizeof proc);
        assert_int_equal(mappers[m].map(&g, 0, proc, err, sizeof err), HD_OK);
        for (int v = 0; v < 20; v++)
            assert_int_equal(proc[v], 0);
    }
    graph_free(&g);
}

/* Arguments outside the domain: HD_EINVAL and a reason, or none when
 * there is no buffer for it. */
static void test_errors(void **state)
{
    (void)state;
    hd_graph g = king_grid(4, 4);
    int proc[16];
    char err[200];
    for (size_t m = 0; m < sizeof mappers / sizeof *mappers; m++) {
        const char *who = mappers[m].name;
        err[0] = 0;
        assert_int_equal(mappers[m].map(NULL, 2, proc, err, sizeof err), HD_EINVAL);
        TU_CHECK(err[0] != 0, "%s: no reason for a missing graph", who);
        assert_int_equal(mappers[m].map(&g, -1, proc, err, sizeof err), HD_EINVAL);
        assert_int_equal(mappers[m].map(&g, 31, proc, err, sizeof err), HD_EINVAL);
        assert_int_equal(mappers[m].map(&g, 2, NULL, err, sizeof err), HD_EINVAL);
        assert_int_equal(mappers[m].map(&g, 31, proc, NULL, 0), HD_EINVAL);

        int saved = g.adj[3];
        g.adj[3] = 16;          /* node 1's neighbour 16: no such node */
        err[0] = 0;
        assert_int_equal(mappers[m].map(&g, 2, proc, err, sizeof err), HD_EINVAL);
        TU_CHECK(strstr(err, "out of range") != NULL, "%s: %s", who, err);
        g.adj[3] = 1;           /* node 1 its own neighbour */
        assert_int_equal(mappers[m].map(&g, 2, proc, err, sizeof err), HD_EINVAL);
        g.adj[3] = saved;

        saved = g.xadj[3];
        g.xadj[3] = g.xadj[4] + 1;  /* decreasing */
        assert_int_equal(mappers[m].map(&g, 2, proc, err, sizeof err), HD_EINVAL);
        g.xadj[3] = saved;
        assert_int_equal(mappers[m].map(&g, 2, proc, err, sizeof err), HD_OK);
    }
    /* METIS's relabelling is limited to 2^20 processors. */
    assert_int_equal(call_metis(&g, 21, proc, err, sizeof err), HD_EINVAL);
    /* Scotch needs a symmetric graph: 0 -> 1 without 1 -> 0. */
    int xadj[3] = { 0, 1, 1 }, adj[1] = { 1 }, two[2];
    hd_graph oneway = { 2, xadj, adj };
    err[0] = 0;
    assert_int_equal(call_scotch(&oneway, 1, two, err, sizeof err), HD_EINVAL);
    TU_CHECK(err[0] != 0, "no reason for an asymmetric graph");
    graph_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_small_grids),
        cmocka_unit_test(test_better_than_bands),
        cmocka_unit_test(test_more_processors_than_nodes),
        cmocka_unit_test(test_empty_and_edgeless),
        cmocka_unit_test(test_one_processor),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
