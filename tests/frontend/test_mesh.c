/*
 * test_mesh.c — meshes and their graphs (frontend/mesh.c: the NB and ADJ
 * graphs of Chung and Ranka 1990, Definitions 4 and 5, and the quad
 * grids, cylinders and tori) and the mesh and graph files
 * (frontend/mesh_read.c, docs/meshes.md "Input formats").
 *
 * Every expectation is built here without the library's method:
 *   - for grids, from the nodes' coordinates: NB joins nodes whose
 *     coordinates differ by at most 1 on every axis (cyclically where the
 *     mesh wraps), ADJ those at Manhattan distance 1;
 *   - for any mesh, from the definitions pair by pair: u ~ v in NB when
 *     some element holds both, in ADJ when some element has them at the
 *     ends of one of its edges, the edges of a quad being consecutive
 *     corners, of a hexahedron the corners whose unit-cube coordinates in
 *     Gmsh's node order differ on one axis;
 *   - every graph is also checked to be sorted, symmetric and loop-free.
 * The files of every format are written into a temporary directory, the
 * nodes of the Gmsh ones under scattered tags listed out of order.  Each
 * malformed input gives ESYNTAX (or EIO) with the line of the offending
 * text; every prefix and many random mutations of the good files give OK
 * or an error on a line the prefix has, never a crash.
 */
#include "testutil.h"

#include "frontend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HYPERDO_SOURCE_DIR
#error "HYPERDO_SOURCE_DIR (the source tree, for samples/meshes) must be defined"
#endif

/* ------------------------------------------------------ temp files */

static char tmpdir[256];
static char paths[256][320];
static int npaths;

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/hyperdo-mesh-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int k = 0; k < npaths; k++)
        unlink(paths[k]);
    rmdir(tmpdir);
    return 0;
}

/* The path of `name` in the temporary directory, to be removed at the end. */
static const char *tmp_path(const char *name)
{
    for (int k = 0; k < npaths; k++)
        if (strcmp(strrchr(paths[k], '/') + 1, name) == 0)
            return paths[k];
    assert_true(npaths < 256);
    snprintf(paths[npaths], sizeof paths[npaths], "%s/%s", tmpdir, name);
    return paths[npaths++];
}

static const char *write_bytes(const char *name, const char *text, size_t len)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

static const char *write_file(const char *name, const char *text)
{
    return write_bytes(name, text, strlen(text));
}

/* A file's text, built a printf at a time. */
typedef struct {
    char s[8192];
    size_t n;
} filetext;

static void put(filetext *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(filetext *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    assert_true(k >= 0 && (size_t)k < sizeof t->s - t->n);
    t->n += (size_t)k;
}

/* A whole file, NUL-terminated; *len its bytes. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t n = 0, got;
    do {
        buf = realloc(buf, n + 4096 + 1);
        got = fread(buf + n, 1, 4096, f);
        n += got;
    } while (got > 0);
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void read_ok(const char *path, hd_mesh_input *in)
{
    hd_diag err;
    int rc = hd_read_mesh_file(path, in, &err);
    if (rc != HD_SPEC_OK)
        fprintf(stderr, "%s:%d: error: %s\n", err.path, err.line, err.message);
    assert_int_equal(rc, HD_SPEC_OK);
}

/* ----------------------------------------------- expected graphs */

/* An expected graph as an n x n matrix of 0/1. */
typedef struct {
    int n;
    unsigned char *m;
} dense;

static dense dense_new(int n)
{
    return (dense){ n, calloc((size_t)n * (size_t)n, 1) };
}

static void dense_set(dense *d, int u, int v)
{
    d->m[(size_t)u * (size_t)d->n + (size_t)v] = d->m[(size_t)v * (size_t)d->n + (size_t)u] = 1;
}

/* The graph is sorted, loop-free and symmetric (by its own rows), and is
 * exactly d. */
static void check_graph(const hd_graph *g, const dense *d, const char *what)
{
    TU_CHECK_EQ(g->n, d->n, what);
    TU_CHECK_EQ(g->xadj[0], 0, what);
    long expected = 0;
    for (size_t k = 0; k < (size_t)d->n * (size_t)d->n; k++)
        expected += d->m[k];
    TU_CHECK_EQ(g->xadj[g->n], expected, what);
    for (int v = 0; v < g->n; v++) {
        TU_CHECK(g->xadj[v] <= g->xadj[v + 1], "%s: row %d", what, v);
        for (int i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
            int u = g->adj[i];
            TU_CHECK(u >= 0 && u < g->n && u != v, "%s: row %d holds %d", what, v, u);
            TU_CHECK(i == g->xadj[v] || g->adj[i - 1] < u, "%s: row %d unsorted", what, v);
            TU_CHECK(d->m[(size_t)v * (size_t)d->n + (size_t)u], "%s: %d ~ %d unexpected",
                     what, v, u);
        }
    }
}

/* For large graphs: sorted, loop-free, symmetric, every degree `deg`. */
static void check_regular(const hd_graph *g, int deg, const char *what)
{
    for (int v = 0; v < g->n; v++) {
        TU_CHECK(g->xadj[v + 1] - g->xadj[v] == deg, "%s: vertex %d has degree %d", what, v,
                 g->xadj[v + 1] - g->xadj[v]);
        for (int i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
            int u = g->adj[i], found = 0;
            TU_CHECK(u != v && (i == g->xadj[v] || g->adj[i - 1] < u), "%s: row %d", what, v);
            for (int j = g->xadj[u]; j < g->xadj[u + 1]; j++)
                found |= g->adj[j] == v;
            TU_CHECK(found, "%s: %d ~ %d one way only", what, v, u);
        }
    }
}

static int cyc(int a, int b, int n, bool wrap)
{
    int d = abs(a - b);
    return wrap && n - d < d ? n - d : d;
}

/* The NB and ADJ graphs of an nx x ny x nz grid of nodes (x + nx y +
 * nx ny z), x wrapped (wx) and y wrapped (wy), from coordinates. */
static void grid_graphs(int nx, int ny, int nz, bool wx, bool wy, dense *nb, dense *adj)
{
    int n = nx * ny * nz;
    *nb = dense_new(n);
    *adj = dense_new(n);
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++) {
            int dx = cyc(u % nx, v % nx, nx, wx), dy = cyc(u / nx % ny, v / nx % ny, ny, wy);
            int dz = abs(u / (nx * ny) - v / (nx * ny));
            if (u != v && dx <= 1 && dy <= 1 && dz <= 1)
                dense_set(nb, u, v);
            if (dx + dy + dz == 1)
                dense_set(adj, u, v);
        }
}

/* Unit-cube coordinates of a hexahedron's corners in Gmsh's order (Gmsh
 * reference manual, "Node ordering"). */
static const int hex_corner[8][3] = {
    { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 },
    { 0, 0, 1 }, { 1, 0, 1 }, { 1, 1, 1 }, { 0, 1, 1 },
};

/* Positions i and j of an element of kind k are the ends of one of its
 * edges: any pair for a triangle or a tetrahedron, consecutive corners
 * for a quad, corners one axis apart for a hexahedron. */
static bool is_edge(int k, int i, int j)
{
    if (i == j)
        return false;
    if (k == HD_ELEM_QUAD)
        return (i + 1) % 4 == j || (j + 1) % 4 == i;
    if (k == HD_ELEM_HEXA) {
        int axes = 0;
        for (int a = 0; a < 3; a++)
            axes += hex_corner[i][a] != hex_corner[j][a];
        return axes == 1;
    }
    return true;
}

/* NB and ADJ of any mesh, pair by pair from the definitions. */
static void mesh_graphs(const hd_mesh *m, dense *nb, dense *adj)
{
    *nb = dense_new(m->nnodes);
    *adj = dense_new(m->nnodes);
    for (int u = 0; u < m->nnodes; u++)
        for (int v = u + 1; v < m->nnodes; v++)
            for (int e = 0; e < m->nelems; e++) {
                const int *nd = m->eind + m->eptr[e];
                int k = m->eptr[e + 1] - m->eptr[e];
                for (int i = 0; i < k; i++)
                    for (int j = 0; j < k; j++)
                        if (nd[i] == u && nd[j] == v) {
                            dense_set(nb, u, v);
                            if (is_edge(m->kind[e], i, j))
                                dense_set(adj, u, v);
                        }
            }
}

/* The input is the mesh's and its graphs are nb and adj. */
static void check_input(const hd_mesh_input *in, const dense *nb, const dense *adj,
                        const char *what)
{
    char w[128];
    snprintf(w, sizeof w, "%s NB", what);
    check_graph(&in->nb, nb, w);
    snprintf(w, sizeof w, "%s ADJ", what);
    check_graph(&in->adj, adj, w);
}

static void check_mesh_graphs(const hd_mesh *m, const char *what)
{
    dense nb, adj;
    hd_graph g;
    mesh_graphs(m, &nb, &adj);
    assert_int_equal(hd_mesh_nb_graph(m, &g), HD_SPEC_OK);
    check_graph(&g, &nb, what);
    hd_graph_free(&g);
    assert_int_equal(hd_mesh_adj_graph(m, &g), HD_SPEC_OK);
    check_graph(&g, &adj, what);
    hd_graph_free(&g);
    free(nb.m);
    free(adj.m);
}

/* The mesh's elements are these, node for node. */
static void check_elements(const hd_mesh *m, int ne, const int (*nodes)[8], const int *kinds)
{
    assert_int_equal(m->nelems, ne);
    for (int e = 0; e < ne; e++) {
        int k = m->eptr[e + 1] - m->eptr[e];
        TU_CHECK_EQ(m->kind[e], kinds[e], "element kind");
        TU_CHECK_EQ(k, kinds[e] == HD_ELEM_TRIANGLE ? 3 : kinds[e] == HD_ELEM_HEXA ? 8 : 4,
                    "element size");
        for (int i = 0; i < k; i++)
            TU_CHECK(m->eind[m->eptr[e] + i] == nodes[e][i], "element %d node %d: %d, not %d",
                     e, i, m->eind[m->eptr[e] + i], nodes[e][i]);
    }
}

/* ------------------------------------------------------ quad meshes */

static void test_quads(void **state)
{
    (void)state;
    for (int nx = 2; nx <= 6; nx++)
        for (int ny = 2; ny <= 6; ny++)
            for (int wrap = 0; wrap < 4; wrap++) {
                bool wx = wrap & 1, wy = wrap & 2;
                if ((wx && nx < 3) || (wy && ny < 3))
                    continue;
                tu_case(nx * 100 + ny * 10 + wrap, NULL, 0, NULL);
                hd_mesh m;
                assert_int_equal(hd_mesh_quads(nx, ny, wx, wy, &m), HD_SPEC_OK);
                int ex = wx ? nx : nx - 1, ey = wy ? ny : ny - 1;
                assert_int_equal(m.nnodes, nx * ny);
                assert_int_equal(m.nelems, ex * ey);
                /* Quad (x, y), row-major: its corners around it. */
                for (int e = 0; e < m.nelems; e++) {
                    int x = e % ex, y = e / ex;
                    int want[4] = { x + nx * y, (x + 1) % nx + nx * y,
                                    (x + 1) % nx + nx * ((y + 1) % ny), x + nx * ((y + 1) % ny) };
                    assert_int_equal(m.kind[e], HD_ELEM_QUAD);
                    assert_int_equal(m.eptr[e + 1] - m.eptr[e], 4);
                    for (int i = 0; i < 4; i++)
                        TU_CHECK_EQ(m.eind[m.eptr[e] + i], want[i], "quad corner");
                }
                dense nb, adj;
                hd_graph g;
                grid_graphs(nx, ny, 1, wx, wy, &nb, &adj);
                assert_int_equal(hd_mesh_nb_graph(&m, &g), HD_SPEC_OK);
                check_graph(&g, &nb, "quads NB");
                hd_graph_free(&g);
                assert_int_equal(hd_mesh_adj_graph(&m, &g), HD_SPEC_OK);
                check_graph(&g, &adj, "quads ADJ");
                hd_graph_free(&g);
                check_mesh_graphs(&m, "quads by definition");
                free(nb.m);
                free(adj.m);
                hd_mesh_free(&m);
            }
}

static void test_quads_invalid(void **state)
{
    (void)state;
    static const struct { int nx, ny; bool wx, wy; int rc; } cases[] = {
        { 1, 5, false, false, HD_SPEC_ESYNTAX }, { 5, 1, false, false, HD_SPEC_ESYNTAX },
        { 0, 0, false, false, HD_SPEC_ESYNTAX }, { -3, 4, false, false, HD_SPEC_ESYNTAX },
        { 2, 5, true, false, HD_SPEC_ESYNTAX }, { 5, 2, false, true, HD_SPEC_ESYNTAX },
        { 2, 2, true, true, HD_SPEC_ESYNTAX }, { 100000, 100000, false, false, HD_SPEC_ENOMEM },
        { 46341, 46341, true, true, HD_SPEC_ENOMEM },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hd_mesh m;
        assert_int_equal(hd_mesh_quads(cases[k].nx, cases[k].ny, cases[k].wx, cases[k].wy, &m),
                         cases[k].rc);
        assert_null(m.eptr);
        assert_int_equal(m.nelems, 0);
    }
}

/* A million nodes: every node of a torus has 8 NB and 4 ADJ neighbours. */
static void test_quads_large(void **state)
{
    (void)state;
    hd_mesh m;
    hd_graph g;
    assert_int_equal(hd_mesh_quads(1000, 1000, true, true, &m), HD_SPEC_OK);
    assert_int_equal(hd_mesh_nb_graph(&m, &g), HD_SPEC_OK);
    check_regular(&g, 8, "torus NB");
    hd_graph_free(&g);
    assert_int_equal(hd_mesh_adj_graph(&m, &g), HD_SPEC_OK);
    check_regular(&g, 4, "torus ADJ");
    hd_graph_free(&g);
    hd_mesh_free(&m);
}

/* ------------------------------------------------- element kinds */

static void test_element_kinds(void **state)
{
    (void)state;
    static const int sizes[4] = { 3, 4, 4, 8 }, nadj[4] = { 3, 4, 6, 12 };
    for (int k = 0; k < 4; k++) {
        int eptr[2] = { 0, sizes[k] }, eind[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
        unsigned char kind = (unsigned char)k;
        hd_mesh m = { sizes[k], 1, eptr, eind, &kind };
        hd_graph nb, adj;
        assert_int_equal(hd_mesh_nb_graph(&m, &nb), HD_SPEC_OK);
        assert_int_equal(hd_mesh_adj_graph(&m, &adj), HD_SPEC_OK);
        assert_int_equal(nb.xadj[nb.n], sizes[k] * (sizes[k] - 1));
        assert_int_equal(adj.xadj[adj.n], 2 * nadj[k]);
        check_mesh_graphs(&m, "one element");
        hd_graph_free(&nb);
        hd_graph_free(&adj);
    }
    /* The hexahedron's edges are the unit cube's. */
    dense nb, adj;
    hd_graph g;
    int eptr[2] = { 0, 8 }, eind[8];
    for (int i = 0; i < 8; i++)
        eind[i] = hex_corner[i][0] + 2 * hex_corner[i][1] + 4 * hex_corner[i][2];
    unsigned char kind = HD_ELEM_HEXA;
    hd_mesh m = { 8, 1, eptr, eind, &kind };
    grid_graphs(2, 2, 2, false, false, &nb, &adj);
    assert_int_equal(hd_mesh_adj_graph(&m, &g), HD_SPEC_OK);
    check_graph(&g, &adj, "cube ADJ");
    hd_graph_free(&g);
    free(nb.m);
    free(adj.m);
}

/* Random meshes of every kind, repeated and degenerate nodes included. */
static void test_random_meshes(void **state)
{
    (void)state;
    static const int sizes[4] = { 3, 4, 4, 8 };
    tu_rng_init("random_meshes");
    for (long c = 0; c < tu_cases(200); c++) {
        tu_case(c, NULL, 0, NULL);
        int n = 1 + (int)tu_below(30), ne = (int)tu_below(12);
        int *eptr = malloc(((size_t)ne + 1) * sizeof *eptr);
        int *eind = malloc(8 * (size_t)ne * sizeof *eind + 1);
        unsigned char *kind = malloc((size_t)ne + 1);
        eptr[0] = 0;
        for (int e = 0; e < ne; e++) {
            kind[e] = (unsigned char)tu_below(4);
            eptr[e + 1] = eptr[e] + sizes[kind[e]];
            for (int i = eptr[e]; i < eptr[e + 1]; i++)
                eind[i] = (int)tu_below((uint64_t)n);
        }
        hd_mesh m = { n, ne, eptr, eind, kind };
        check_mesh_graphs(&m, "random mesh");
        free(eptr);
        free(eind);
        free(kind);
    }
}

static void test_invalid_meshes(void **state)
{
    (void)state;
    int eptr[2] = { 0, 4 }, eind[4] = { 0, 1, 2, 3 };
    unsigned char kind = HD_ELEM_HEXA;
    hd_mesh m = { 4, 1, eptr, eind, &kind };
    hd_graph g;
    assert_int_equal(hd_mesh_adj_graph(&m, &g), HD_SPEC_ESYNTAX);   /* 4 nodes, a hexahedron */
    assert_null(g.xadj);
    assert_int_equal(hd_mesh_nb_graph(&m, &g), HD_SPEC_OK);         /* NB reads no kind */
    hd_graph_free(&g);
    eind[2] = 4;
    assert_int_equal(hd_mesh_nb_graph(&m, &g), HD_SPEC_ESYNTAX);    /* node 4 of 4 */
    eind[2] = -1;
    assert_int_equal(hd_mesh_nb_graph(&m, &g), HD_SPEC_ESYNTAX);
    hd_mesh empty = { 3, 0, NULL, NULL, NULL };
    assert_int_equal(hd_mesh_nb_graph(&empty, &g), HD_SPEC_OK);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.xadj[3], 0);
    hd_graph_free(&g);
}

/* ------------------------------------------------- the 3 x 3 grid */

/* The 3 x 3-node grid's four quads, node x + 3y, counterclockwise. */
static const int grid_quads[4][8] = {
    { 0, 1, 4, 3 }, { 1, 2, 5, 4 }, { 3, 4, 7, 6 }, { 4, 5, 8, 7 },
};
static const int four_quads[4] = { HD_ELEM_QUAD, HD_ELEM_QUAD, HD_ELEM_QUAD, HD_ELEM_QUAD };

/* Gmsh tags of the grid's nodes: scattered, in the nodes' order. */
static int grid_tag(int node)
{
    return 7 + 5 * node;
}

static void check_grid(const char *path, bool is_mesh)
{
    hd_mesh_input in;
    dense nb, adj;
    read_ok(path, &in);
    grid_graphs(3, 3, 1, false, false, &nb, &adj);
    assert_int_equal(in.has_mesh, is_mesh);
    if (is_mesh) {
        assert_int_equal(in.mesh.nnodes, 9);
        check_elements(&in.mesh, 4, grid_quads, four_quads);
        check_input(&in, &nb, &adj, path);
    } else
        check_input(&in, &adj, &adj, path);
    free(nb.m);
    free(adj.m);
    hd_mesh_input_free(&in);
}

static void test_gmsh22(void **state)
{
    (void)state;
    filetext t = { .n = 0 };
    put(&t, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
        "$PhysicalNames\n1\n2 1 \"plate\"\n$EndPhysicalNames\n"
        "$Nodes\n9\n");
    for (int v = 8; v >= 0; v--)        /* out of order */
        put(&t, "%d %d.0 %d 0\n", grid_tag(v), v % 3, v / 3);
    put(&t, "$EndNodes\n$Elements\n7\n"
        "1 15 2 0 1 %d\n"                /* a point */
        "2 1 2 0 1 %d %d\n",             /* a line */
        grid_tag(0), grid_tag(0), grid_tag(1));
    for (int e = 0; e < 4; e++)
        put(&t, "%d 3 2 1 1 %d %d %d %d\n", 10 + e,
            grid_tag(grid_quads[e][0]), grid_tag(grid_quads[e][1]),
            grid_tag(grid_quads[e][2]), grid_tag(grid_quads[e][3]));
    put(&t, "20 8 0 %d %d %d\n$EndElements\n"
        "$NodeData\n1\n\"t\"\n0\n$EndNodeData\n",
        grid_tag(6), grid_tag(8), grid_tag(7));    /* a second-order line */
    check_grid(write_file("grid22.msh", t.s), true);
    /* CRLF line ends read the same. */
    char crlf[8192];
    size_t k = 0;
    for (const char *p = t.s; *p; p++) {
        if (*p == '\n')
            crlf[k++] = '\r';
        crlf[k++] = *p;
    }
    crlf[k] = '\0';
    check_grid(write_file("grid22crlf.msh", crlf), true);
}

static void test_gmsh41(void **state)
{
    (void)state;
    filetext t = { .n = 0 };
    put(&t, "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
        "$Entities\n1 1 1 0\n1 0 0 0 0\n1 0 0 0 1 0 0 0 2 1 -1\n"
        "1 0 0 0 2 2 0 0 0\n$EndEntities\n"
        "$Nodes\n3 9 %d %d\n", grid_tag(0), grid_tag(8));
    /* The corners on points, the sides' middles on a curve (parametric:
     * a u after x y z), the centre on the surface. */
    static const int corners[4] = { 0, 2, 6, 8 }, sides[4] = { 7, 5, 3, 1 };
    put(&t, "0 1 0 4\n");
    for (int i = 0; i < 4; i++)
        put(&t, "%d\n", grid_tag(corners[i]));
    for (int i = 0; i < 4; i++)
        put(&t, "%d %d 0\n", corners[i] % 3, corners[i] / 3);
    put(&t, "1 1 1 4\n");
    for (int i = 0; i < 4; i++)
        put(&t, "%d\n", grid_tag(sides[i]));
    for (int i = 0; i < 4; i++)
        put(&t, "%d %d 0 0.5\n", sides[i] % 3, sides[i] / 3);
    put(&t, "2 1 0 1\n%d\n1 1 0\n$EndNodes\n", grid_tag(4));
    put(&t, "$Elements\n3 7 1 7\n0 1 15 1\n1 %d\n1 1 1 2\n2 %d %d\n3 %d %d\n2 1 3 4\n",
        grid_tag(0), grid_tag(0), grid_tag(1), grid_tag(1), grid_tag(2));
    for (int e = 0; e < 4; e++)
        put(&t, "%d %d %d %d %d\n", 4 + e,
            grid_tag(grid_quads[e][0]), grid_tag(grid_quads[e][1]),
            grid_tag(grid_quads[e][2]), grid_tag(grid_quads[e][3]));
    put(&t, "$EndElements\n");
    check_grid(write_file("grid41.msh", t.s), true);
}

/* A volume mesh: two hexahedra side by side and the faces, a triangle and
 * the lines of its boundary, which are not elements of the volume. */
static void test_gmsh_volume(void **state)
{
    (void)state;
    /* Nodes x + 3y + 6z of the 3 x 2 x 2 grid; hexahedron c spans x = c .. c+1. */
    int hex[2][8];
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 8; i++)
            hex[c][i] = c + hex_corner[i][0] + 3 * hex_corner[i][1] + 6 * hex_corner[i][2];
    filetext t = { .n = 0 };
    put(&t, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n12\n");
    for (int v = 0; v < 12; v++)
        put(&t, "%d %d %d %d\n", grid_tag(v), v % 3, v / 3 % 2, v / 6);
    put(&t, "$EndNodes\n$Elements\n5\n"
        "1 3 0 %d %d %d %d\n2 2 0 %d %d %d\n3 1 0 %d %d\n",
        grid_tag(0), grid_tag(1), grid_tag(4), grid_tag(3),
        grid_tag(0), grid_tag(1), grid_tag(4), grid_tag(0), grid_tag(1));
    for (int c = 0; c < 2; c++) {
        put(&t, "%d 5 0", 4 + c);
        for (int i = 0; i < 8; i++)
            put(&t, " %d", grid_tag(hex[c][i]));
        put(&t, "\n");
    }
    put(&t, "$EndElements\n");
    hd_mesh_input in;
    dense nb, adj;
    read_ok(write_file("hexes.msh", t.s), &in);
    static const int two_hexes[2] = { HD_ELEM_HEXA, HD_ELEM_HEXA };
    assert_int_equal(in.mesh.nnodes, 12);
    check_elements(&in.mesh, 2, (const int (*)[8])hex, two_hexes);
    grid_graphs(3, 2, 2, false, false, &nb, &adj);
    check_input(&in, &nb, &adj, "hexahedra");
    assert_int_equal(in.adj.xadj[12], 2 * 20);
    free(nb.m);
    free(adj.m);
    hd_mesh_input_free(&in);

    /* Two tetrahedra on a shared face, MSH 4.1. */
    read_ok(write_file("tets.msh",
                       "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
                       "$Nodes\n1 5 1 5\n3 1 0 5\n1\n2\n3\n4\n5\n"
                       "0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n$EndNodes\n"
                       "$Elements\n2 3 1 3\n2 1 2 1\n3 1 2 3\n3 1 4 2\n1 1 2 3 4\n2 2 3 4 5\n"
                       "$EndElements\n"), &in);
    static const int tets[2][8] = { { 0, 1, 2, 3 }, { 1, 2, 3, 4 } };
    static const int two_tets[2] = { HD_ELEM_TETRA, HD_ELEM_TETRA };
    check_elements(&in.mesh, 2, tets, two_tets);
    mesh_graphs(&in.mesh, &nb, &adj);
    check_input(&in, &nb, &adj, "tetrahedra");
    assert_int_equal(in.nb.xadj[5], 2 * 9);
    free(nb.m);
    free(adj.m);
    hd_mesh_input_free(&in);
}

/* ------------------------------------------------------------ METIS */

static void test_metis_mesh(void **state)
{
    (void)state;
    /* METIS 5: comments, blank lines, node numbers from 1. */
    check_grid(write_file("grid.mesh",
                          "% the 3 x 3 grid\n4\n1 2 5 4\n  2 3 6 5\n\n% more\n4 5 8 7\n5 6 9 8\n"),
               true);
    /* METIS 5 with two weights per element. */
    check_grid(write_file("gridw.mesh",
                          "4 2\n1 1 1 2 5 4\n1 1 2 3 6 5\n2 0 4 5 8 7\n9 9 5 6 9 8\n"), true);
    /* METIS 4's element type 4, quadrilaterals. */
    check_grid(write_file("grid4.mesh", "4 4\n1 2 5 4\n2 3 6 5\n4 5 8 7\n5 6 9 8\n"), true);

    /* METIS 4's tetrahedra (type 2) are tetrahedra, METIS 5's 4-node
     * elements quadrilaterals; mixed triangles and hexahedra. */
    hd_mesh_input in;
    read_ok(write_file("tet4.mesh", "1 2\n1 2 3 4\n"), &in);
    assert_int_equal(in.mesh.kind[0], HD_ELEM_TETRA);
    assert_int_equal(in.adj.xadj[4], 12);
    hd_mesh_input_free(&in);
    read_ok(write_file("mixed.mesh", "3\n1 2 3\n2 3 4 5 6 7 8 9\n9 10 11 12\n"), &in);
    static const int mixed[3][8] = { { 0, 1, 2 }, { 1, 2, 3, 4, 5, 6, 7, 8 }, { 8, 9, 10, 11 } };
    static const int mixed_kinds[3] = { HD_ELEM_TRIANGLE, HD_ELEM_HEXA, HD_ELEM_QUAD };
    check_elements(&in.mesh, 3, mixed, mixed_kinds);
    dense nb, adj;
    mesh_graphs(&in.mesh, &nb, &adj);
    check_input(&in, &nb, &adj, "mixed");
    free(nb.m);
    free(adj.m);
    hd_mesh_input_free(&in);
}

/* The grid's ADJ graph as vertex lines, 1-based; with `weights`, edge
 * weight 7 after each neighbour. */
static void grid_rows(filetext *t, const char *prefix, bool weights)
{
    for (int v = 0; v < 9; v++) {
        put(t, "%s", prefix);
        int nbr[4] = { v % 3 ? v - 1 : -1, v % 3 < 2 ? v + 1 : -1,
                       v >= 3 ? v - 3 : -1, v < 6 ? v + 3 : -1 };
        for (int i = 3; i >= 0; i--)
            if (nbr[i] >= 0)
                put(t, weights ? " %d 7" : " %d", nbr[i] + 1);
        put(t, "\n");
    }
}

static void test_graph_files(void **state)
{
    (void)state;
    filetext t = { .n = 0 };
    put(&t, "%% a comment\n9 12\n");
    grid_rows(&t, "", false);
    check_grid(write_file("grid.graph", t.s), false);
    t.n = 0;
    put(&t, "9 12 1\n");
    grid_rows(&t, "", true);
    check_grid(write_file("gridew.metis", t.s), false);
    t.n = 0;
    put(&t, "9 12 111 2\n");
    grid_rows(&t, "1 3 0", true);   /* size, two weights */
    check_grid(write_file("gridall.graph", t.s), false);
    /* Chaco: vertex weights (10) and real edge weights (1). */
    t.n = 0;
    put(&t, "9 12 11\n");
    grid_rows(&t, "2", true);
    check_grid(write_file("grid.chaco", t.s), false);

    /* Chaco's numbered lines (100), vertex 5 on two lines. */
    check_grid(write_file("numbered.chaco",
                          "9 12 100\n1 2 4\n2 1 3 5\n3 2 6\n4 1 5 7\n5 2 4\n% between\n5 6 8\n"
                          "6 3 5 9\n7 4 8\n8 5 7 9\n9 6 8\n"), false);

    /* An isolated vertex is an empty line. */
    hd_mesh_input in;
    read_ok(write_file("isolated.graph", "3 1\n3\n\n1\n"), &in);
    assert_int_equal(in.nb.n, 3);
    assert_int_equal(in.nb.xadj[1], 1);
    assert_int_equal(in.nb.xadj[2], 1);
    assert_int_equal(in.nb.adj[0], 2);
    assert_int_equal(in.adj.adj[1], 0);
    assert_true(in.nb.adj != in.adj.adj);
    hd_mesh_input_free(&in);
}

/* ---------------------------------------------------- Matrix Market */

static void test_matrix_market(void **state)
{
    (void)state;
    /* The grid's pattern, one triangle of it with the diagonal, one
     * entry twice and one both ways. */
    filetext t = { .n = 0 };
    put(&t, "%%%%MatrixMarket matrix coordinate pattern general\n"
        "%% comment\n\n9 9 23\n");
    for (int v = 0; v < 9; v++) {
        put(&t, "%d %d\n", v + 1, v + 1);
        if (v % 3 < 2)
            put(&t, "%d %d\n", v + 2, v + 1);
        if (v < 6)
            put(&t, "%d %d\n", v + 1, v + 4);
    }
    put(&t, "1 2\n2 1\n");
    check_grid(write_file("grid.mtx", t.s), false);

    static const char *const banners[] = {
        "%%MatrixMarket matrix coordinate real symmetric\n9 9 12\n",
        "%%matrixmarket MATRIX Coordinate Complex Hermitian\n9 9 12\n",
        "%%MatrixMarket matrix coordinate integer skew-symmetric\n9 9 12\n",
    };
    static const char *const values[] = { " 1.5e3", " -1 2.5", " -4" };
    for (int b = 0; b < 3; b++) {
        t.n = 0;
    put(&t, "%s", banners[b]);
        for (int v = 0; v < 9; v++) {
            if (v % 3 < 2)
                put(&t, "%d %d%s\n", v + 2, v + 1, values[b]);
            if (v < 6)
                put(&t, "%d %d%s\n", v + 4, v + 1, values[b]);
        }
        char name[32];
        snprintf(name, sizeof name, "grid%d.mtx", b);
        check_grid(write_file(name, t.s), false);
    }
}

/* --------------------------------------------------- names, samples */

static void test_sniffing(void **state)
{
    (void)state;
    const char *text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n"
                       "2 1 0 0\n3 0 1 0\n$EndNodes\n$Elements\n1\n1 2 0 1 2 3\n$EndElements\n";
    hd_mesh_input in;
    read_ok(write_file("tri.txt", text), &in);
    assert_true(in.has_mesh);
    assert_int_equal(in.mesh.nelems, 1);
    hd_mesh_input_free(&in);
    read_ok(write_file("noext", "\xef\xbb\xbf%%MatrixMarket matrix coordinate pattern general\n"
                                "2 2 1\n1 2\n"), &in);
    assert_false(in.has_mesh);
    assert_int_equal(in.nb.xadj[2], 2);
    hd_mesh_input_free(&in);
    read_ok(write_file("UPPER.MSH", text), &in);
    hd_mesh_input_free(&in);

    hd_diag err;
    const char *path = write_file("data.dat", "\n\n1 2 3\n");
    assert_int_equal(hd_read_mesh_file(path, &in, &err), HD_SPEC_ESYNTAX);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.message, "cannot tell the format"));
    assert_int_equal(hd_read_mesh_file(tmp_path("absent.msh"), &in, &err), HD_SPEC_EIO);
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.message, "absent.msh"));
    assert_int_equal(hd_read_mesh_file(tmpdir, &in, &err), HD_SPEC_EIO);
    assert_int_equal(err.line, 0);
    assert_null(in.nb.xadj);
}

static void sample_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/samples/meshes/%s", HYPERDO_SOURCE_DIR, name);
}

static void test_samples(void **state)
{
    (void)state;
    char path[512];
    hd_mesh_input msh, metis;
    dense nb, adj;
    /* The 8 x 8-node grid of sample 1, node x + 8y, in both formats. */
    sample_path(path, sizeof path, "grid8x8.msh");
    read_ok(path, &msh);
    sample_path(path, sizeof path, "grid8x8.mesh");
    read_ok(path, &metis);
    grid_graphs(8, 8, 1, false, false, &nb, &adj);
    check_input(&msh, &nb, &adj, "grid8x8.msh");
    check_input(&metis, &nb, &adj, "grid8x8.mesh");
    assert_int_equal(msh.mesh.nelems, 49);
    assert_int_equal(metis.mesh.nelems, 49);
    assert_memory_equal(msh.mesh.eind, metis.mesh.eind, 4 * 49 * sizeof(int));
    hd_mesh grid;
    assert_int_equal(hd_mesh_quads(8, 8, false, false, &grid), HD_SPEC_OK);
    assert_memory_equal(msh.mesh.eind, grid.eind, 4 * 49 * sizeof(int));
    hd_mesh_free(&grid);
    for (int e = 0; e < 49; e++) {
        int x = e % 7, y = e / 7;
        assert_int_equal(msh.mesh.eind[4 * e], x + 8 * y);
        assert_int_equal(msh.mesh.eind[4 * e + 2], x + 1 + 8 * (y + 1));
    }
    free(nb.m);
    free(adj.m);
    hd_mesh_input_free(&msh);
    hd_mesh_input_free(&metis);

    /* Gmsh's own triangulation of a plate with a hole, as MSH 4.1 and 2.2:
     * the same mesh; Euler's V - E + F = 0 for the annulus; a triangle
     * mesh's NB graph is its ADJ graph. */
    sample_path(path, sizeof path, "plate.msh");
    read_ok(path, &msh);
    sample_path(path, sizeof path, "plate22.msh");
    read_ok(path, &metis);
    assert_int_equal(msh.mesh.nnodes, metis.mesh.nnodes);
    assert_int_equal(msh.mesh.nelems, metis.mesh.nelems);
    assert_memory_equal(msh.mesh.eind, metis.mesh.eind, 3 * (size_t)msh.mesh.nelems * sizeof(int));
    for (int e = 0; e < msh.mesh.nelems; e++)
        assert_int_equal(msh.mesh.kind[e], HD_ELEM_TRIANGLE);
    int edges = msh.adj.xadj[msh.adj.n] / 2;
    assert_int_equal(msh.mesh.nnodes - edges + msh.mesh.nelems, 0);
    assert_int_equal(msh.nb.xadj[msh.nb.n], msh.adj.xadj[msh.adj.n]);
    assert_memory_equal(msh.nb.adj, msh.adj.adj, (size_t)msh.adj.xadj[msh.adj.n] * sizeof(int));
    mesh_graphs(&msh.mesh, &nb, &adj);
    check_input(&msh, &nb, &adj, "plate.msh");
    free(nb.m);
    free(adj.m);
    hd_mesh_input_free(&msh);
    hd_mesh_input_free(&metis);
}

/* ------------------------------------------------------- malformed */

#define GMSH22 "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
#define GMSH41 "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
#define NODES3 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
#define MM "%%MatrixMarket matrix coordinate pattern general\n"

static const struct {
    const char *name, *text;
    int line;
    const char *says;
} bad[] = {
    /* Gmsh */
    { "bin.msh", "$MeshFormat\n4.1 1 8\n$EndMeshFormat\n", 2, "binary MSH" },
    { "v40.msh", "$MeshFormat\n4 0 8\n$EndMeshFormat\n", 2, "MSH 4.0" },
    { "v3.msh", "$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", 2, "2.2 or 4.1, found '3.0'" },
    { "nofmt.msh", NODES3, 1, "expected $MeshFormat" },
    { "empty.msh", "", 1, "empty file" },
    { "noendfmt.msh", "$MeshFormat\n2.2 0 8\n$Nodes\n",
      3, "expected $EndMeshFormat, found '$Nodes'" },
    { "shortnodes.msh", GMSH22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n",
      7, "expected 3 nodes, found 2 before the end" },
    { "endnodes.msh", GMSH22 "$Nodes\n3\n1 0 0 0\n2 1 0 0\n$EndNodes\n",
      8, "expected 3 nodes, found 2" },
    { "hugenodes.msh", GMSH22 "$Nodes\n999999999999\n1 0 0 0\n$EndNodes\n",
      5, "999999999999, more than the file's 7 lines" },
    { "hugeint.msh", GMSH22 "$Nodes\n99999999999999999999999\n",
      5, "expected the number of nodes, found '9999" },
    { "coord.msh", GMSH22 "$Nodes\n2\n1 0 0 0\n2 1 x 0\n$EndNodes\n",
      7, "expected a coordinate, found 'x'" },
    { "fewcoords.msh", GMSH22 "$Nodes\n1\n1 0 0\n$EndNodes\n",
      6, "expected a coordinate, found the end of the line" },
    { "negtag.msh", GMSH22 "$Nodes\n1\n-1 0 0 0\n$EndNodes\n",
      6, "node tag of at least 1, found -1" },
    { "extra.msh", GMSH22 "$Nodes\n1\n1 0 0 0 5\n$EndNodes\n", 6, "found '5'" },
    { "short.msh", GMSH22 NODES3 "$Elements\n1\n1 3 0 1 2 3\n$EndElements\n",
      12, "expected 4 node tags for element 1 (a quadrangle), found 3" },
    { "long.msh", GMSH22 NODES3 "$Elements\n1\n1 2 2 0 1 1 2 3 3\n$EndElements\n",
      12, "expected 3 node tags for element 1 (a triangle), found 4" },
    { "notag.msh", GMSH22 NODES3 "$Elements\n1\n1 2 0 1 2 z\n$EndElements\n",
      12, "expected a node tag of element 1, found 'z'" },
    { "ntags.msh", GMSH22 NODES3 "$Elements\n1\n1 2 9 1 2 3\n$EndElements\n",
      12, "expected a tag" },
    { "unknown.msh", GMSH22 NODES3 "$Elements\n2\n1 2 0 1 2 3\n2 2 0 1 2 4\n$EndElements\n",
      13, "node 4 is not listed in $Nodes" },
    { "dup.msh", GMSH22 "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n2 0 0 0\n$EndNodes\n"
      "$Elements\n1\n1 2 0 1 2 3\n$EndElements\n", 9, "node 2 is listed twice (first at line 7)" },
    { "noelems.msh", GMSH22 NODES3, 9, "no $Elements section" },
    { "nonodes.msh", GMSH22 "$Elements\n1\n1 2 0 1 2 3\n$EndElements\n", 7, "no $Nodes section" },
    { "twice.msh", GMSH22 NODES3 NODES3, 10, "a second $Nodes section (the first at line 4)" },
    { "noend.msh", GMSH22 NODES3 "$Elements\n1\n1 2 0 1 2 3\n",
      12, "expected $EndElements, found the end of the file" },
    { "prism.msh", GMSH22 NODES3 "$Elements\n1\n1 6 0 1 2 3 1 2 3\n$EndElements\n",
      12, "element type 6 is not read" },
    { "lines.msh", GMSH22 NODES3 "$Elements\n1\n1 1 0 1 2\n$EndElements\n",
      10, "$Elements holds no triangles" },
    { "neverends.msh", GMSH22 "$Comments\nhello\n",
      4, "section '$Comments' never ends: expected $EndComments" },
    { "stray.msh", GMSH22 "hello\n",
      4, "expected a section such as $Nodes or $Elements, found 'hello'" },
    { "strayend.msh", GMSH22 "$EndNodes\n", 4, "unexpected '$EndNodes'" },
    { "sum.msh", GMSH41 "$Nodes\n1 2 1 2\n2 1 0 1\n1\n0 0 0\n$EndNodes\n",
      5, "the header says 2 nodes, the blocks hold 1" },
    { "coordlines.msh", GMSH41 "$Nodes\n1 2 1 2\n2 1 0 2\n1\n2\n0 0 0\n$EndNodes\n",
      10, "expected 2 node coordinate lines in the block, found 1" },
    { "param.msh", GMSH41 "$Nodes\n1 1 1 1\n1 1 1 1\n1\n0 0 0\n$EndNodes\n",
      8, "expected a coordinate, found the end of the line" },
    { "blocks.msh", GMSH41 "$Nodes\n2 1 1 1\n2 1 0 1\n1\n0 0 0\n$EndNodes\n",
      9, "expected 2 entity blocks, found 1" },
    { "dim.msh", GMSH41 "$Nodes\n1 1 1 1\n4 1 0 1\n1\n0 0 0\n$EndNodes\n",
      6, "entity dimension in 0 .. 3, found 4" },
    { "elem41.msh", GMSH41 "$Nodes\n1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n"
      "$Elements\n1 1 1 1\n2 1 3 1\n1 1 2 3\n$EndElements\n",
      17, "expected 4 node tags for element 1 (a quadrangle), found 3" },
    { "pyr41.msh", GMSH41 "$Elements\n1 1 1 1\n3 1 7 1\n1 1 2 3 4 5\n$EndElements\n",
      6, "element type 7 is not read" },
    /* METIS meshes */
    { "trunc.mesh", "2\n1 2 3\n", 2, "expected 2 elements, found 1 before the end of the file" },
    { "hugene.mesh", "1000000\n1 2 3\n", 1, "more than the file's 2 lines" },
    { "zero.mesh", "0\n", 1, "at least 1, found 0" },
    { "nan.mesh", "1\n1 2 x\n",
      2, "expected a node number (1 .. 2147483647) of element 1, found 'x'" },
    { "node0.mesh", "% c\n1\n1 0 3\n", 3, "found '0'" },
    { "neg.mesh", "1\n1 -2 3\n", 2, "found '-2'" },
    { "five.mesh", "1\n1 2 3 4 5\n", 2, "element 1 has 5 nodes" },
    { "metis4.mesh", "2 4\n1 2 3 4\n1 2 3\n", 3, "expected 4 node numbers for element 2, found 3" },
    { "hugenode.mesh", "1\n1 2 1000000000\n",
      2, "node number 1000000000 exceeds the 3 node numbers" },
    { "more.mesh", "1\n1 2 3\n\n2 3 4\n", 4, "the header says 1 elements, found more" },
    { "badhdr.mesh", "2 x\n1 2 3\n", 1, "METIS 4), found 'x'" },
    { "weights.mesh", "1 3\n1 2 3 4\n", 2, "element 1 has 1 nodes" },
    { "emptyfile.mesh", "% only a comment\n", 1, "empty file" },
    /* METIS and Chaco graphs */
    { "asym.graph", "3 2\n2 3\n1\n\n",
      2, "vertex 1 lists 3 as a neighbour, but vertex 3 (line 4) does not list 1" },
    { "self.graph", "2 1\n1 2\n1\n", 2, "vertex 1 lists itself" },
    { "twice.graph", "2 2\n2 2\n1 1\n", 2, "vertex 1 lists 2 twice" },
    { "count.graph", "2 2\n2\n1\n",
      1, "the header says 2 edges, but the vertex lines list 2 neighbours" },
    { "toomany.graph", "2 1\n2 2\n1\n", 3, "more neighbours than the header's 1 edges allow" },
    { "range.graph", "2 1\n3\n1\n", 2, "expected a neighbour in 1 .. 2, found 3" },
    { "nan.graph", "2 1\nx\n1\n", 2, "expected a neighbour, found 'x'" },
    { "few.graph", "3 1\n2\n1\n", 3, "expected 3 vertex lines, found 2" },
    { "hugen.graph", "1000000000 1\n", 1, "more than the file's 1 lines" },
    { "hugem.graph", "2 99999999999\n2\n1\n", 1, "more than the file's 18 bytes" },
    { "fmt.graph", "2 1 12\n2\n1\n", 1, "expected the format, up to three digits 0 or 1" },
    { "ncon.graph", "2 1 1 3\n2 1\n1 1\n", 1, "needs the format's vertex weight digit" },
    { "extra.graph", "2 1\n2\n1\n1\n", 4, "the header says 2 vertices, found more lines" },
    { "ewgt.graph", "2 1 1\n2\n1 1\n", 2, "expected an edge weight, found the end of the line" },
    { "vwgt.metis", "2 1 10\n\n1 1\n", 2, "expected a vertex weight" },
    { "hdr.graph", "x 1\n", 1, "expected the number of vertices, found 'x'" },
    { "order.chaco", "3 2 100\n1 2\n3 2\n2 1 3\n",
      3, "expected the vertex number in 1 .. 2, found 3" },
    { "fewv.chaco", "3 2 100\n1 2\n2 1 3\n", 3, "expected 3 vertices, found 2" },
    { "cw.chaco", "2 1 1\n2 x\n1 1\n", 2, "expected an edge weight, found 'x'" },
    /* Matrix Market */
    { "rect.mtx", MM "2 3 1\n1 2\n", 2, "the matrix is 2 x 3: a graph's matrix is square" },
    { "array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
      1, "expected 'coordinate'" },
    { "field.mtx", "%%MatrixMarket matrix coordinate text general\n", 1, "expected the field" },
    { "sym.mtx", "%%MatrixMarket matrix coordinate real lower\n", 1, "expected the symmetry" },
    { "nobanner.mtx", "2 2 1\n1 2\n", 1, "expected the banner" },
    { "vector.mtx", "%%MatrixMarket vector coordinate real general\n", 1, "expected 'matrix'" },
    { "row.mtx", MM "2 2 1\n3 1\n", 3, "expected a row number in 1 .. 2, found 3" },
    { "col.mtx", MM "2 2 1\n1 0\n", 3, "expected a column number in 1 .. 2, found 0" },
    { "fewnz.mtx", MM "2 2 2\n1 2\n", 3, "expected 2 entries, found 1 before the end of the file" },
    { "morenz.mtx", MM "2 2 1\n1 2\n2 1\n", 4, "the size line says 1 entries, found more" },
    { "value.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n",
      3, "expected a value, found the end of the line" },
    { "ivalue.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n",
      3, "expected an integer value, found '1.5'" },
    { "pattern.mtx", MM "2 2 1\n1 2 1.0\n",
      3, "expected the end of the line after a pattern entry" },
    { "bigmtx.mtx", MM "1000000000 1000000000 1\n1 2\n",
      2, "has 1000000000 rows but 1 entries: at most 2 rows" },
    { "hugennz.mtx", MM "2 2 1000000\n1 2\n", 2, "more than the file's 3 lines" },
    { "nosize.mtx", MM "% only comments\n", 2, "expected the size line" },
    /* sniffing */
    { "what.dat", "hello\n", 1, "cannot tell the format" },
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        hd_mesh_input in;
        hd_diag err;
        const char *path = write_file(bad[k].name, bad[k].text);
        int rc = hd_read_mesh_file(path, &in, &err);
        TU_CHECK(rc == HD_SPEC_ESYNTAX, "%s: status %d (%s:%d: %s)", bad[k].name, rc, err.path,
                 err.line, err.message);
        TU_CHECK(err.path == path, "%s: err.path", bad[k].name);
        TU_CHECK(err.line == bad[k].line && strstr(err.message, bad[k].says),
                 "%s: got line %d '%s', want line %d '...%s...'", bad[k].name, err.line,
                 err.message,
                 bad[k].line, bad[k].says);
        TU_CHECK(!in.has_mesh && !in.nb.xadj && !in.adj.xadj && !in.mesh.eptr, "%s: output left",
                 bad[k].name);
        unlink(path);
    }
}

/* ------------------------------------------------- never a crash */

static int count_lines(const char *text, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n + (len > 0 && text[len - 1] != '\n');
}

/* The file as it reads: fine, or an error on one of its lines. */
static void read_any(const char *name, const char *text, size_t len)
{
    hd_mesh_input in;
    hd_diag err;
    int rc = hd_read_mesh_file(write_bytes(name, text, len), &in, &err);
    int lines = count_lines(text, len);
    TU_CHECK(rc == HD_SPEC_OK || rc == HD_SPEC_ESYNTAX, "%s of %zu bytes: status %d", name, len,
             rc);
    TU_CHECK(rc == HD_SPEC_OK || (err.line >= 1 && err.line <= (lines > 0 ? lines : 1)),
             "%s of %zu bytes (%d lines): error on line %d: %s", name, len, lines, err.line,
             err.message);
    TU_CHECK(strlen(err.message) < sizeof err.message, "%s: message", name);
    if (rc == HD_SPEC_OK)
        TU_CHECK(in.nb.n == in.adj.n && in.nb.xadj && in.adj.xadj, "%s: graphs", name);
    hd_mesh_input_free(&in);
}

static void test_truncated_and_mutated(void **state)
{
    (void)state;
    static const char *const samples[] = { "grid8x8.msh", "grid8x8.mesh", "plate.msh",
                                           "plate22.msh" };
    static const char *const made[] = { "grid22.msh", "grid41.msh", "hexes.msh", "gridall.graph",
                                        "numbered.chaco", "grid.mtx", "gridw.mesh" };
    static const char noise[] = "0123456789-+ .e\n\n$%x\t\r";
    tu_rng_init("truncated_and_mutated");
    for (size_t f = 0; f < 11; f++) {
        char buf[512];
        const char *name = f < 4 ? samples[f] : made[f - 4], *path = buf;
        if (f < 4)
            sample_path(buf, sizeof buf, name);
        else
            path = tmp_path(name);
        if (access(path, R_OK) != 0)
            continue;   /* a test that writes it did not run (a filter) */
        size_t len;
        char *text = slurp(path, &len), *copy = malloc(len + 2);
        const char *ext = strrchr(name, '.');
        char fuzz[32];
        snprintf(fuzz, sizeof fuzz, "fuzz%s", ext);
        for (size_t cut = 0; cut < len; cut++)
            read_any(fuzz, text, cut);
        for (long c = 0; c < tu_cases(300); c++) {
            size_t n = len;
            memcpy(copy, text, len);
            for (int edits = 1 + (int)tu_below(3); edits > 0; edits--) {
                size_t at = (size_t)tu_below(n);
                if (tu_chance(1, 4)) {             /* delete a byte */
                    memmove(copy + at, copy + at + 1, n - at - 1);
                    n--;
                } else if (tu_chance(1, 10))
                    copy[at] = '\0';
                else
                    copy[at] = noise[tu_below(sizeof noise - 1)];
            }
            read_any(fuzz, copy, n);
        }
        free(copy);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quads),
        cmocka_unit_test(test_quads_invalid),
        cmocka_unit_test(test_quads_large),
        cmocka_unit_test(test_element_kinds),
        cmocka_unit_test(test_random_meshes),
        cmocka_unit_test(test_invalid_meshes),
        cmocka_unit_test(test_gmsh22),
        cmocka_unit_test(test_gmsh41),
        cmocka_unit_test(test_gmsh_volume),
        cmocka_unit_test(test_metis_mesh),
        cmocka_unit_test(test_graph_files),
        cmocka_unit_test(test_matrix_market),
        cmocka_unit_test(test_sniffing),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_truncated_and_mutated),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
