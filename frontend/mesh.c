/*
 * mesh.c — finite element meshes and their graphs (model.h): the NB and
 * ADJ graphs of Chung and Ranka 1990 (Definitions 4 and 5), and quad
 * meshes of the paper's kinds (grids, cylinders, tori).
 *
 * Both graphs are built the same way, in time linear in the mesh plus the
 * sorting of each row (O(N log N) in all, rows being short): every element
 * contributes its pairs of nodes, both ways, counted in one pass and
 * written into compressed rows in a second; each row is then sorted and
 * its repeats dropped (a pair two elements share is written twice).
 */
#include "model.h"

#include <limits.h>
#include <stdlib.h>

#include "hd_alloc.h"

void hd_mesh_free(hd_mesh *m)
{
    free(m->eptr);
    free(m->eind);
    free(m->kind);
    m->eptr = m->eind = NULL;
    m->kind = NULL;
    m->nnodes = m->nelems = 0;
}

void hd_graph_free(hd_graph *g)
{
    free(g->xadj);
    free(g->adj);
    g->xadj = g->adj = NULL;
    g->n = 0;
}

/* The edges of each kind of element, as pairs of positions in its node
 * list.  A quad's are its four sides, not its diagonals (Chung and Ranka
 * 1990, Definition 4).  The hexahedron's follow Gmsh's node order (Gmsh
 * reference manual, "Node ordering"): the face 0-1-2-3, the face 4-5-6-7
 * above it, and the four edges joining them. */
static const unsigned char tri_edges[] = { 0, 1, 1, 2, 2, 0 };
static const unsigned char quad_edges[] = { 0, 1, 1, 2, 2, 3, 3, 0 };
static const unsigned char tet_edges[] = { 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3 };
static const unsigned char hex_edges[] = {
    0, 1, 1, 2, 2, 3, 3, 0,
    4, 5, 5, 6, 6, 7, 7, 4,
    0, 4, 1, 5, 2, 6, 3, 7,
};

static const struct {
    int nodes, nedges;
    const unsigned char *edges;
} kinds[] = {
    [HD_ELEM_TRIANGLE] = { 3, 3, tri_edges },
    [HD_ELEM_QUAD] = { 4, 4, quad_edges },
    [HD_ELEM_TETRA] = { 4, 6, tet_edges },
    [HD_ELEM_HEXA] = { 8, 12, hex_edges },
};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts a row in place: insertion sort for the short rows of a mesh, the
 * library's sort for the long ones a graph file may hold. */
static void sort_row(int *v, int n)
{
    if (n > 32) {
        qsort(v, (size_t)n, sizeof *v, cmp_int);
        return;
    }
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* The mesh's nodes are numbers 0 .. nnodes - 1; with `kinds_too`, each
 * element also has the nodes its kind says. */
static bool mesh_valid(const hd_mesh *m, bool kinds_too)
{
    if (m->nnodes < 0 || m->nelems < 0)
        return false;
    if (m->nelems > 0 && (!m->eptr || m->eptr[0] != 0 || (m->eptr[m->nelems] > 0 && !m->eind)))
        return false;
    for (int e = 0; e < m->nelems; e++) {
        int b = m->eptr[e], k = m->eptr[e + 1] - b;
        if (k < 0)
            return false;
        if (kinds_too && (!m->kind || m->kind[e] > HD_ELEM_HEXA || kinds[m->kind[e]].nodes != k))
            return false;
        for (int i = 0; i < k; i++)
            if (m->eind[b + i] < 0 || m->eind[b + i] >= m->nnodes)
                return false;
    }
    return true;
}

/* The graph joining, in every element, the pairs of positions the element
 * kind's edge list names (adj_only) or all its pairs (the NB graph). */
static int mesh_graph(const hd_mesh *m, bool adj_only, hd_graph *out)
{
    *out = (hd_graph){ 0, NULL, NULL };
    if (!mesh_valid(m, adj_only))
        return HD_SPEC_ESYNTAX;
    int n = m->nnodes;
    int *xadj = hd_xcalloc((size_t)n + 1, sizeof *xadj);
    int *fill = NULL, *adj = NULL;
    long long total = 0;
    /* Pass 0 counts each node's pairs, pass 1 writes them. */
    for (int pass = 0; pass < 2; pass++) {
        for (int e = 0; e < m->nelems; e++) {
            const int *nd = m->eind + m->eptr[e];
            long long k = m->eptr[e + 1] - m->eptr[e];
            long long npairs = adj_only ? kinds[m->kind[e]].nedges : k * (k - 1) / 2;
            int i = 0, j = 1;
            for (long long p = 0; p < npairs; p++) {
                if (adj_only) {
                    i = kinds[m->kind[e]].edges[2 * p];
                    j = kinds[m->kind[e]].edges[2 * p + 1];
                }
                int u = nd[i], v = nd[j];
                if (u != v && pass == 0) {
                    /* More entries than INT_MAX cannot be indexed. */
                    if ((total += 2) > INT_MAX) {
                        free(xadj);
                        return HD_SPEC_ENOMEM;
                    }
                    xadj[u + 1]++;
                    xadj[v + 1]++;
                } else if (u != v) {
                    adj[fill[u]++] = v;
                    adj[fill[v]++] = u;
                }
                if (!adj_only && ++j == k)   /* the next pair (i, j), i < j */
                    j = ++i + 1;
            }
        }
        if (pass == 0) {
            for (int v = 0; v < n; v++)
                xadj[v + 1] += xadj[v];
            adj = hd_xmalloc(((size_t)total + 1) * sizeof *adj);
            fill = hd_xmalloc(((size_t)n + 1) * sizeof *fill);
            for (int v = 0; v <= n; v++)
                fill[v] = xadj[v];
        }
    }
    free(fill);
    /* Sort each row and drop its repeats, moving the rows down in place. */
    int w = 0;
    for (int v = 0; v < n; v++) {
        int b = xadj[v], end = xadj[v + 1];
        sort_row(adj + b, end - b);
        xadj[v] = w;
        for (int r = b; r < end; r++)
            if (r == b || adj[r] != adj[r - 1])
                adj[w++] = adj[r];
    }
    xadj[n] = w;
    out->n = n;
    out->xadj = xadj;
    out->adj = hd_xrealloc(adj, ((size_t)w + 1) * sizeof *adj);
    return HD_SPEC_OK;
}

int hd_mesh_nb_graph(const hd_mesh *m, hd_graph *out)
{
    return mesh_graph(m, false, out);
}

int hd_mesh_adj_graph(const hd_mesh *m, hd_graph *out)
{
    return mesh_graph(m, true, out);
}

/* Node (x, y) of the quad mesh, wrapping where the mesh does. */
static int grid_node(int nx, int ny, int x, int y)
{
    return x % nx + nx * (y % ny);
}

int hd_mesh_quads(int nx, int ny, bool wrap_x, bool wrap_y, hd_mesh *out)
{
    *out = (hd_mesh){ 0, 0, NULL, NULL, NULL };
    /* A wrapped direction of two nodes would join them twice: its one
     * band of quads would be the same quads again. */
    if (nx < (wrap_x ? 3 : 2) || ny < (wrap_y ? 3 : 2))
        return HD_SPEC_ESYNTAX;
    long long ex = wrap_x ? nx : nx - 1, ey = wrap_y ? ny : ny - 1;
    if ((long long)nx * ny > INT_MAX || 4 * ex * ey > INT_MAX)
        return HD_SPEC_ENOMEM;
    int ne = (int)(ex * ey);
    out->nnodes = nx * ny;
    out->nelems = ne;
    out->eptr = hd_xmalloc(((size_t)ne + 1) * sizeof *out->eptr);
    out->eind = hd_xmalloc(((size_t)4 * ne + 1) * sizeof *out->eind);
    out->kind = hd_xmalloc((size_t)ne + 1);
    int e = 0;
    for (int y = 0; y < ey; y++)
        for (int x = 0; x < ex; x++, e++) {
            /* Around the element, counterclockwise with y upwards. */
            int *q = out->eind + 4 * e;
            q[0] = grid_node(nx, ny, x, y);
            q[1] = grid_node(nx, ny, x + 1, y);
            q[2] = grid_node(nx, ny, x + 1, y + 1);
            q[3] = grid_node(nx, ny, x, y + 1);
            out->eptr[e] = 4 * e;
            out->kind[e] = HD_ELEM_QUAD;
        }
    out->eptr[ne] = 4 * ne;
    return HD_SPEC_OK;
}
