/*
 * test_fem_stripes.c — the whole 2-way stripes partition mapping
 * (analysis/fem_map.c, hd_fem_stripes) against a second implementation
 * written here from Chung and Ranka 1990, Section 3, and the corrections
 * and tie-breaks docs/meshes.md ("The mappings") and fem_map.c's comments
 * state.  The reference is deliberately plain: every choice is a rescan
 * (the least adjacent pair of stripes, the active giver of most load),
 * the Gray code is built by Eq. 5's reflection, the load transfer matrix
 * is an M x M matrix as the paper has it.  fem_map.c finds the same
 * choices from heaps and histograms; the two must give the same proc[]
 * and the same shape on every mesh, cube and channel model tried.
 *
 * What the reference does, step by step:
 *
 *  - Stripes: breadth-first labels from node 0 and node floor(N/2) (the
 *    paper's node(1) and node(floor(N/2) + 1)); a component not reached
 *    continues from its lowest unlabelled node, labelled one after the
 *    largest label so far.
 *  - Merge (Section 3.1): while more than 2^x (2^y) groups remain, the
 *    adjacent pair of least total becomes one, ties the lowest pair;
 *    fewer stripes than rows leave rows empty.
 *  - Placement (Eqs. 5-7): row i, column j -> N_x(i) N_y(j), N_k the
 *    binary reflected Gray code, the row's bits high.
 *  - Transfer matrix (Rules 1-3): positions in mesh row-major order, the
 *    last (no right, no down) skipped; quota floor(N/M), one more for the
 *    first N mod M positions; Rule 1 gives down when down's load is below
 *    right's (absent: +inf), else right; Rule 2 takes from down when
 *    down's load is above right's (absent: -inf), else from right.
 *  - load_transfer: two loops (near: only nodes with an NB neighbour on
 *    the receiver; then any node), repeated while either moves a node.
 *    In a loop every giver starts active; the active giver of most load
 *    (ties: the lowest mesh position) tries its receivers in the order
 *    right, down, left, up, each one it still owes a node whose load is
 *    below the largest load of all, and moves the lowest of its nodes that
 *    qualifies and keeps all of that node's NB pairs within two bits; if
 *    none, it goes inactive; a move wakes every processor holding an NB
 *    neighbour of the node moved.
 *  - Driver: shapes x = 0 .. n, the one of least C (hd_fem_cost) under the
 *    chosen channel model kept, the first on ties.
 *
 * Meshes: quad grids (the 8-neighbourhood, built here and checked against
 * hd_mesh_quads + hd_mesh_nb_graph), cylinders and tori from
 * hd_mesh_quads, grids with their nodes renumbered at random, and random
 * graphs (a random spanning tree plus extra edges; one of several
 * components and isolated nodes; 40 more of random sizes), on cubes
 * n = 1 .. 6 under both channel models.  Breaking any one tie-break of
 * fem_map.c (the giver, Rules 1 and 2, the merge, the driver, the lowest
 * node, the wake-ups, the second start, the quotas, the row bits) makes
 * dozens to hundreds of these cases differ.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis.h"

/* ------------------------------------------------------------ graphs */

/* A graph from a symmetric 0/1 adjacency matrix (row-major, n x n). */
static hd_graph from_matrix(int n, const unsigned char *a)
{
    int m = 0;
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++)
            m += u != v && a[(size_t)u * n + v];
    hd_graph g = { n, calloc((size_t)n + 1, sizeof(int)), calloc((size_t)m + 1, sizeof(int)) };
    assert_non_null(g.xadj);
    assert_non_null(g.adj);
    int k = 0;
    for (int u = 0; u < n; u++) {
        for (int v = 0; v < n; v++)
            if (u != v && a[(size_t)u * n + v])
                g.adj[k++] = v;
        g.xadj[u + 1] = k;
    }
    return g;
}

/* The NB graph of an nx x ny quad grid, node x + nx y: nodes sharing a
 * quad are the 8-neighbourhood. */
static hd_graph grid_nb(int nx, int ny)
{
    int n = nx * ny;
    unsigned char *a = calloc((size_t)n * n, 1);
    assert_non_null(a);
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x2 = x + dx, y2 = y + dy;
                    if ((dx || dy) && x2 >= 0 && x2 < nx && y2 >= 0 && y2 < ny)
                        a[(size_t)(x + nx * y) * n + (x2 + nx * y2)] = 1;
                }
    hd_graph g = from_matrix(n, a);
    free(a);
    return g;
}

static hd_graph quads_nb(int nx, int ny, bool wrap_x, bool wrap_y)
{
    hd_mesh m;
    hd_graph g;
    assert_int_equal(hd_mesh_quads(nx, ny, wrap_x, wrap_y, &m), HD_SPEC_OK);
    assert_int_equal(hd_mesh_nb_graph(&m, &g), HD_SPEC_OK);
    hd_mesh_free(&m);
    return g;
}

static bool same_graph(const hd_graph *a, const hd_graph *b)
{
    if (a->n != b->n)
        return false;
    for (int v = 0; v <= a->n; v++)
        if (a->xadj[v] != b->xadj[v])
            return false;
    for (int e = 0; e < a->xadj[a->n]; e++)
        if (a->adj[e] != b->adj[e])
            return false;
    return true;
}

static unsigned long long rng_state;

static unsigned rnd(unsigned bound)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % bound);
}

/* g with its nodes renumbered by a random permutation. */
static hd_graph renumber(const hd_graph *g)
{
    int n = g->n;
    int *perm = malloc((size_t)n * sizeof *perm);
    unsigned char *a = calloc((size_t)n * n, 1);
    assert_non_null(perm);
    assert_non_null(a);
    for (int v = 0; v < n; v++)
        perm[v] = v;
    for (int v = n - 1; v > 0; v--) {
        int w = (int)rnd((unsigned)v + 1), t = perm[v];
        perm[v] = perm[w];
        perm[w] = t;
    }
    for (int v = 0; v < n; v++)
        for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            a[(size_t)perm[v] * n + perm[g->adj[e]]] = 1;
    hd_graph h = from_matrix(n, a);
    free(a);
    free(perm);
    return h;
}

/* A random graph of n nodes in `parts` components (node v in component
 * v % parts, so the components interleave): a random spanning tree of
 * each (every node joined to an earlier one of its component) plus
 * `extra` random edges inside components.  Nodes alone in their
 * component are isolated. */
static hd_graph random_graph(int n, int parts, int extra)
{
    unsigned char *a = calloc((size_t)n * n, 1);
    assert_non_null(a);
    for (int v = parts; v < n; v++) {
        int k = (v - v % parts) / parts;   /* earlier nodes of v's component */
        int u = v % parts + parts * (int)rnd((unsigned)k);
        a[(size_t)u * n + v] = a[(size_t)v * n + u] = 1;
    }
    for (int i = 0; i < extra; i++) {
        int u = (int)rnd((unsigned)n), v = (int)rnd((unsigned)n);
        if (u != v && u % parts == v % parts)
            a[(size_t)u * n + v] = a[(size_t)v * n + u] = 1;
    }
    hd_graph g = from_matrix(n, a);
    free(a);
    return g;
}

/* --------------------------------------------------------- reference */

/* Breadth-first labels from start, level by level; unreached components
 * continue from their lowest node, one label after the largest so far.
 * Returns the largest label. */
static int ref_stripes(const hd_graph *g, int start, int *label)
{
    int N = g->n, top = -1;
    for (int v = 0; v < N; v++)
        label[v] = -1;
    int root = start;
    for (;;) {
        label[root] = top + 1;
        for (int d = top + 1;; d++) {
            bool grew = false;
            for (int v = 0; v < N; v++) {
                if (label[v] != d)
                    continue;
                if (d > top)
                    top = d;
                for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++)
                    if (label[g->adj[e]] < 0) {
                        label[g->adj[e]] = d + 1;
                        grew = true;
                    }
            }
            if (!grew)
                break;
        }
        root = -1;
        for (int v = 0; v < N && root < 0; v++)
            if (label[v] < 0)
                root = v;
        if (root < 0)
            return top;
    }
}

/* Section 3.1's merge by rescanning: group[b] for each stripe b. */
static void ref_merge(const int *label, int N, int last, int want, int *group)
{
    int L = last + 1, groups = L;
    long long *total = calloc((size_t)L, sizeof *total);
    int *first = malloc((size_t)L * sizeof *first);   /* first stripe of each group */
    assert_non_null(total);
    assert_non_null(first);
    for (int v = 0; v < N; v++)
        total[label[v]]++;
    for (int b = 0; b < L; b++)
        first[b] = b;
    while (groups > want) {
        int m = 0;
        for (int k = 1; k + 1 < groups; k++)
            if (total[k] + total[k + 1] < total[m] + total[m + 1])
                m = k;
        total[m] += total[m + 1];
        for (int k = m + 1; k + 1 < groups; k++) {
            total[k] = total[k + 1];
            first[k] = first[k + 1];
        }
        groups--;
    }
    for (int b = 0; b < L; b++) {
        int k = 0;
        while (k + 1 < groups && first[k + 1] <= b)
            k++;
        group[b] = k;
    }
    free(total);
    free(first);
}

/* Eq. 5: N_1 = (0, 1), N_k = 0 N_{k-1} + 1 N_{k-1}*.  code[r] = N_k(r). */
static void ref_brgc(int k, unsigned *code)
{
    code[0] = 0;
    for (int len = 1, bit = 0; bit < k; len *= 2, bit++)
        for (int r = 0; r < len; r++)
            code[2 * len - 1 - r] = code[r] | 1u << bit;
}

static int bits(unsigned x)
{
    int c = 0;
    for (; x; x >>= 1)
        c += (int)(x & 1);
    return c;
}

typedef struct {
    const hd_graph *g;
    int rows, cols, M;
    int *pos;          /* node -> mesh position, row-major */
    int *load;         /* position -> nodes */
    int *a;            /* M x M: a[i M + j] nodes position i owes position j */
    unsigned *addr;    /* position -> processor */
} ref_mesh;

/* Position p's neighbour in direction d (right, down, left, up), or -1. */
static int ref_neighbour(const ref_mesh *m, int p, int d)
{
    int r = p / m->cols, c = p % m->cols;
    if (d == 0)
        return c + 1 < m->cols ? p + 1 : -1;
    if (d == 1)
        return r + 1 < m->rows ? p + m->cols : -1;
    if (d == 2)
        return c > 0 ? p - 1 : -1;
    return r > 0 ? p - m->cols : -1;
}

static void ref_owe(ref_mesh *m, int from, int to)
{
    m->a[from * m->M + to]++;
    m->a[to * m->M + from]--;
}

/* Rules 1-3. */
static void ref_transfer_matrix(ref_mesh *m)
{
    int N = m->g->n, M = m->M;
    long long *load = malloc((size_t)M * sizeof *load);
    assert_non_null(load);
    for (int p = 0; p < M; p++)
        load[p] = m->load[p];
    for (int p = 0; p + 1 < M; p++) {
        int quota = N / M + (p < N % M ? 1 : 0);
        int right = ref_neighbour(m, p, 0), down = ref_neighbour(m, p, 1);
        while (load[p] > quota) {   /* Rule 1 */
            long long lr = right >= 0 ? load[right] : LLONG_MAX;
            long long ld = down >= 0 ? load[down] : LLONG_MAX;
            int q = ld < lr ? down : right;
            ref_owe(m, p, q);
            load[p]--;
            load[q]++;
        }
        while (load[p] < quota) {   /* Rule 2 */
            long long lr = right >= 0 ? load[right] : LLONG_MIN;
            long long ld = down >= 0 ? load[down] : LLONG_MIN;
            int q = ld > lr ? down : right;
            ref_owe(m, q, p);
            load[p]++;
            load[q]--;
        }
    }
    free(load);
}

static bool ref_gives(const ref_mesh *m, int p)
{
    for (int q = 0; q < m->M; q++)
        if (m->a[p * m->M + q] > 0)
            return true;
    return false;
}

/* Line 7 (near) or 17 (any): p moves its lowest qualifying node to the
 * first receiver that takes one; the node, or -1. */
static int ref_move(ref_mesh *m, int p, bool near)
{
    const hd_graph *g = m->g;
    int most = 0;
    for (int k = 0; k < m->M; k++)
        if (m->load[k] > most)
            most = m->load[k];
    for (int d = 0; d < 4; d++) {
        int q = ref_neighbour(m, p, d);
        if (q < 0 || m->a[p * m->M + q] <= 0 || m->load[q] >= most)
            continue;
        for (int v = 0; v < g->n; v++) {
            if (m->pos[v] != p)
                continue;
            bool has = false, keeps = true;
            for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
                int w = g->adj[e];
                if (m->pos[w] == q)
                    has = true;
                if (bits(m->addr[q] ^ m->addr[m->pos[w]]) > 2)
                    keeps = false;
            }
            if ((near && !has) || !keeps)
                continue;
            m->pos[v] = q;
            m->load[p]--;
            m->load[q]++;
            m->a[p * m->M + q]--;
            m->a[q * m->M + p]++;
            return v;
        }
    }
    return -1;
}

static void ref_load_transfer(ref_mesh *m)
{
    bool *active = malloc((size_t)m->M * sizeof *active);
    assert_non_null(active);
    for (bool moved = true; moved;) {
        moved = false;
        for (int loop = 0; loop < 2; loop++) {
            for (int p = 0; p < m->M; p++)
                active[p] = true;
            for (;;) {
                int p = -1;
                for (int k = 0; k < m->M; k++)
                    if (active[k] && ref_gives(m, k) && (p < 0 || m->load[k] > m->load[p]))
                        p = k;
                if (p < 0)
                    break;
                int v = ref_move(m, p, loop == 0);
                if (v < 0) {
                    active[p] = false;
                    continue;
                }
                moved = true;
                for (int e = m->g->xadj[v]; e < m->g->xadj[v + 1]; e++)
                    active[m->pos[m->g->adj[e]]] = true;
            }
        }
    }
    free(active);
}

static void ref_shape(const hd_graph *g, int n, int x, const int *l1, int last1, const int *l2,
                      int last2, int *proc)
{
    int y = n - x, N = g->n;
    ref_mesh m = { g, 1 << x, 1 << y, 1 << n, NULL, NULL, NULL, NULL };
    int *g1 = malloc(((size_t)last1 + 1) * sizeof *g1), *g2 = malloc(((size_t)last2 + 1) * sizeof *g2);
    unsigned *cx = malloc((size_t)m.rows * sizeof *cx), *cy = malloc((size_t)m.cols * sizeof *cy);
    m.pos = malloc((size_t)N * sizeof *m.pos);
    m.load = calloc((size_t)m.M, sizeof *m.load);
    m.a = calloc((size_t)m.M * m.M, sizeof *m.a);
    m.addr = malloc((size_t)m.M * sizeof *m.addr);
    assert_true(g1 && g2 && cx && cy && m.pos && m.load && m.a && m.addr);
    ref_merge(l1, N, last1, m.rows, g1);
    ref_merge(l2, N, last2, m.cols, g2);
    ref_brgc(x, cx);
    ref_brgc(y, cy);
    for (int i = 0; i < m.rows; i++)
        for (int j = 0; j < m.cols; j++)
            m.addr[i * m.cols + j] = cx[i] << y | cy[j];
    for (int v = 0; v < N; v++) {
        m.pos[v] = g1[l1[v]] * m.cols + g2[l2[v]];
        m.load[m.pos[v]]++;
    }
    ref_transfer_matrix(&m);
    ref_load_transfer(&m);
    for (int v = 0; v < N; v++)
        proc[v] = (int)m.addr[m.pos[v]];
    free(g1);
    free(g2);
    free(cx);
    free(cy);
    free(m.pos);
    free(m.load);
    free(m.a);
    free(m.addr);
}

static void ref_stripes_mapping(const hd_graph *g, int n, hd_fem_channels ch, int *proc,
                                int *shape_x)
{
    int N = g->n;
    hd_fem_times t = HD_FEM_TIMES_DEFAULT;
    int *l1 = malloc(((size_t)N + 1) * sizeof *l1), *l2 = malloc(((size_t)N + 1) * sizeof *l2);
    int *try = malloc(((size_t)N + 1) * sizeof *try);
    assert_true(l1 && l2 && try);
    int last1 = ref_stripes(g, 0, l1), last2 = ref_stripes(g, N / 2, l2);
    double best = 0;
    *shape_x = -1;
    for (int x = 0; x <= n; x++) {
        ref_shape(g, n, x, l1, last1, l2, last2, try);
        hd_fem_report r;
        assert_int_equal(hd_fem_cost(g, n, try, &t, &r), HD_OK);
        if (*shape_x < 0 || r.c_us[ch] < best) {
            best = r.c_us[ch];
            *shape_x = x;
            memcpy(proc, try, (size_t)N * sizeof *proc);
        }
        hd_fem_report_free(&r);
    }
    free(l1);
    free(l2);
    free(try);
}

/* ------------------------------------------------------- comparisons */

static int cases, mismatches;

/* hd_fem_stripes against the reference on cubes 1 .. 6, both models. */
static void compare(const char *name, const hd_graph *g)
{
    int N = g->n;
    int *got = malloc(((size_t)N + 1) * sizeof *got), *want = malloc(((size_t)N + 1) * sizeof *want);
    assert_true(got && want);
    hd_fem_times t = HD_FEM_TIMES_DEFAULT;
    for (int n = 1; n <= 6; n++)
        for (int c = 0; c < 2; c++) {
            hd_fem_channels ch = c ? HD_FEM_UNI : HD_FEM_BI;
            int got_x = -2, want_x = -3;
            assert_int_equal(hd_fem_stripes(g, n, ch, &t, got, &got_x, NULL), HD_OK);
            ref_stripes_mapping(g, n, ch, want, &want_x);
            cases++;
            int v = 0;
            while (v < N && got[v] == want[v])
                v++;
            if (v < N || got_x != want_x) {
                mismatches++;
                print_error("%s, n = %d, %s: shape x %d (reference %d)", name, n,
                            c ? "uni" : "bi", got_x, want_x);
                if (v < N)
                    print_error(", node %d on %d (reference %d)", v, got[v], want[v]);
                print_error("\n");
            }
        }
    free(got);
    free(want);
}

static void check_no_mismatch(void)
{
    assert_int_equal(mismatches, 0);
}

static void grids(void **state)
{
    (void)state;
    mismatches = 0;
    static const int sizes[][2] = { { 8, 8 }, { 8, 5 }, { 16, 10 }, { 101, 5 }, { 30, 3 },
                                    { 13, 11 }, { 2, 2 }, { 2, 9 }, { 5, 1 }, { 1, 7 } };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int nx = sizes[k][0], ny = sizes[k][1];
        char name[64];
        snprintf(name, sizeof name, "grid:%dx%d", nx, ny);
        hd_graph g = grid_nb(nx, ny);
        if (nx >= 2 && ny >= 2) {
            hd_graph h = quads_nb(nx, ny, false, false);
            assert_true(same_graph(&g, &h));
            hd_graph_free(&h);
        }
        compare(name, &g);
        hd_graph_free(&g);
    }
    check_no_mismatch();
}

static void wrapped(void **state)
{
    (void)state;
    mismatches = 0;
    static const struct {
        int nx, ny;
        bool wx, wy;
        const char *kind;
    } m[] = {
        { 16, 10, true, true, "torus" },    { 20, 17, true, false, "cylinder" },
        { 18, 11, true, false, "cylinder" }, { 3, 3, true, true, "torus" },
        { 7, 4, false, true, "wrap-y" },     { 9, 6, true, false, "cylinder" },
    };
    for (size_t k = 0; k < sizeof m / sizeof *m; k++) {
        char name[64];
        snprintf(name, sizeof name, "%s:%dx%d", m[k].kind, m[k].nx, m[k].ny);
        hd_graph g = quads_nb(m[k].nx, m[k].ny, m[k].wx, m[k].wy);
        compare(name, &g);
        hd_graph_free(&g);
    }
    check_no_mismatch();
}

static void renumbered(void **state)
{
    (void)state;
    mismatches = 0;
    rng_state = 1990;
    static const int sizes[][2] = { { 8, 8 }, { 8, 8 }, { 8, 8 }, { 12, 7 }, { 16, 10 } };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        char name[64];
        snprintf(name, sizeof name, "grid:%dx%d renumbered #%zu", sizes[k][0], sizes[k][1], k);
        hd_graph g = grid_nb(sizes[k][0], sizes[k][1]);
        hd_graph h = renumber(&g);
        compare(name, &h);
        hd_graph_free(&g);
        hd_graph_free(&h);
    }
    check_no_mismatch();
}

static void random_graphs(void **state)
{
    (void)state;
    mismatches = 0;
    rng_state = 19900101;
    static const int spec[][3] = {   /* nodes, components, extra edges */
        { 40, 1, 20 }, { 64, 1, 60 }, { 100, 1, 40 }, { 150, 1, 300 }, { 73, 1, 0 },
        { 90, 3, 50 }, { 60, 2, 10 }, { 33, 40, 0 },   /* 33 isolated nodes */
        { 50, 5, 30 }, { 1, 1, 0 },   { 2, 1, 0 },
    };
    for (size_t k = 0; k < sizeof spec / sizeof *spec; k++) {
        char name[64];
        snprintf(name, sizeof name, "random %d nodes, %d parts, %d extra", spec[k][0],
                 spec[k][1], spec[k][2]);
        hd_graph g = random_graph(spec[k][0], spec[k][1], spec[k][2]);
        compare(name, &g);
        hd_graph_free(&g);
    }
    /* 40 more of random sizes, mostly connected. */
    for (int k = 0; k < 40; k++) {
        int n = 2 + (int)rnd(199), parts = k % 4 ? 1 : 1 + (int)rnd(4), extra = (int)rnd(3 * (unsigned)n);
        char name[80];
        snprintf(name, sizeof name, "random #%d: %d nodes, %d parts, %d extra", k, n, parts, extra);
        hd_graph g = random_graph(n, parts, extra);
        compare(name, &g);
        hd_graph_free(&g);
    }
    check_no_mismatch();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grids),
        cmocka_unit_test(wrapped),
        cmocka_unit_test(renumbered),
        cmocka_unit_test(random_graphs),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    printf("%d cases (mesh x cube x channel model) compared\n", cases);
    fflush(stdout);
    return rc;
}
