/*
 * fem_greedy.c — the greedy assignment mapping of Chung and Ranka 1990
 * (Section 4): the node of most ADJ neighbours goes to processor 0; then,
 * repeatedly, the waiting node of most ADJ neighbours (ADJ neighbours of
 * assigned nodes wait) goes to the least loaded processor within two bits
 * of every processor holding one of its NB neighbours, P(POS(node)); an
 * empty P(POS) ends the mapping (the tables' "-").  The paper leaves the
 * ties open; here: the lowest node among equal degrees, the lowest
 * address among equal loads (docs/meshes.md measures how much they
 * matter).  A graph that is not connected continues from its next
 * component's node of most neighbours, on the least loaded processor.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* A max-heap of nodes by (degree, -node). */
typedef struct {
    int *a, n;
    const hd_graph *g;
} heap;

static bool before(const heap *h, int u, int v)
{
    int du = h->g->xadj[u + 1] - h->g->xadj[u], dv = h->g->xadj[v + 1] - h->g->xadj[v];
    return du != dv ? du > dv : u < v;
}

static void push(heap *h, int v)
{
    int i = h->n++;
    h->a[i] = v;
    while (i > 0 && before(h, h->a[i], h->a[(i - 1) / 2])) {
        int p = (i - 1) / 2, t = h->a[p];
        h->a[p] = h->a[i];
        h->a[i] = t;
        i = p;
    }
}

static int pop(heap *h)
{
    int top = h->a[0];
    h->a[0] = h->a[--h->n];
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && before(h, h->a[l], h->a[m]))
            m = l;
        if (r < h->n && before(h, h->a[r], h->a[m]))
            m = r;
        if (m == i)
            break;
        int t = h->a[m];
        h->a[m] = h->a[i];
        h->a[i] = t;
        i = m;
    }
    return top;
}

/* P(POS(v)): the processor of least load (lowest address on ties) within
 * two bits of every processor holding an assigned NB neighbour of v;
 * the candidates are those within two bits of the first one.  -1: none. */
static int place(const hd_graph *nb, int n, const int *proc, const int *load, int v)
{
    int first = -1;
    for (int e = nb->xadj[v]; e < nb->xadj[v + 1] && first < 0; e++)
        first = proc[nb->adj[e]];
    int best = -1, M = 1 << n;
    for (int i = -1; i < n; i++)
        for (int j = i; j < n; j++) {
            if (j == i && i >= 0)
                continue;            /* masks 0, 1 << j, (1 << i) | (1 << j) */
            int mask = (i >= 0 ? 1 << i : 0) | (j >= 0 ? 1 << j : 0);
            for (int p = first < 0 ? 0 : first ^ mask; p < M; p++) {
                bool ok = true;
                for (int e = nb->xadj[v]; e < nb->xadj[v + 1] && ok; e++) {
                    int q = proc[nb->adj[e]];
                    ok = q < 0 || __builtin_popcount((unsigned)(p ^ q)) <= 2;
                }
                if (ok && (best < 0 || load[p] < load[best] || (load[p] == load[best] && p < best)))
                    best = p;
                if (first >= 0)
                    break;           /* one candidate per mask */
            }
            if (first < 0)
                return best;         /* no neighbour placed yet: any processor */
        }
    return best;
}

int hd_fem_greedy(const hd_graph *nb, const hd_graph *adj, int n, int *proc)
{
    if (n < 0 || n > 30 || nb->n != adj->n)
        return HD_EINVAL;
    int N = nb->n, M = 1 << n;
    int *load = calloc((size_t)M, sizeof *load);
    bool *waiting = calloc((size_t)N + 1, sizeof *waiting);
    heap h = { malloc(((size_t)N + 1) * sizeof *h.a), 0, adj };
    if (!load || !waiting || !h.a) {
        free(load);
        free(waiting);
        free(h.a);
        return HD_ENOMEM;
    }
    for (int v = 0; v < N; v++)
        proc[v] = -1;
    int rc = HD_OK, done = 0;
    while (done < N && rc == HD_OK) {
        /* A component's start: its node of most ADJ neighbours. */
        int a = -1;
        for (int v = 0; v < N; v++)
            if (proc[v] < 0 && (a < 0 || before(&h, v, a)))
                a = v;
        int p0 = 0;
        for (int p = 1; p < M; p++)
            if (load[p] < load[p0])
                p0 = p;
        proc[a] = p0;
        load[p0]++;
        done++;
        for (int e = adj->xadj[a]; e < adj->xadj[a + 1]; e++)
            if (proc[adj->adj[e]] < 0 && !waiting[adj->adj[e]]) {
                waiting[adj->adj[e]] = true;
                push(&h, adj->adj[e]);
            }
        while (h.n > 0) {
            int v = pop(&h);
            waiting[v] = false;
            int p = place(nb, n, proc, load, v);
            if (p < 0) {
                rc = HD_EINVAL;   /* "The neighbor mapping is impossible" */
                break;
            }
            proc[v] = p;
            load[p]++;
            done++;
            for (int e = adj->xadj[v]; e < adj->xadj[v + 1]; e++)
                if (proc[adj->adj[e]] < 0 && !waiting[adj->adj[e]]) {
                    waiting[adj->adj[e]] = true;
                    push(&h, adj->adj[e]);
                }
        }
    }
    free(load);
    free(waiting);
    free(h.a);
    return rc;
}
