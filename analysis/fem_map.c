/*
 * fem_map.c — the 2-way stripes partition mapping of Chung and Ranka 1990
 * (Section 3), with the corrections docs/meshes.md gives:
 *
 *   Phase I   two breadth-first stripes partitions of the NB graph, from
 *             node 0 and node floor(N/2) (the paper's node(1) and
 *             node(floor(N/2) + 1)); each node's two labels are its rows
 *             and columns of a 2^x x 2^y processor mesh (Lemma 2: NB
 *             neighbours' labels differ by at most 1), stripes merged in
 *             adjacent pairs of least total until 2^x and 2^y remain
 *             (ties: the lowest pair), the mesh placed on the cube by the
 *             binary reflected Gray code, row bits high (Eqs. 5-7, with
 *             Eq. 7's bound <= 2^x - 1);
 *   Phase II  the load transfer matrix of Rules 1-3 (quotas floor(N/M)
 *             or one more, the first N mod M processors in mesh order
 *             taking one more: the paper assumes M divides N), then
 *             load_transfer moving nodes along it while every NB edge
 *             stays within two bits (first nodes with a neighbour on the
 *             receiver, then any);
 *   driver    every shape x = 0 .. n (log M + 1 of them, not log M), the
 *             one of least C kept (the printed "best < cost" keeps the
 *             largest).
 */
#include "analysis.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static unsigned gray(unsigned r)
{
    return r ^ (r >> 1);
}

/* Breadth-first labels from `start`; components it does not reach follow,
 * each from its lowest node, with labels after the last (the paper's
 * graphs are connected).  Returns the largest label. */
static int stripes(const hd_graph *g, int start, int *label, int *queue)
{
    for (int v = 0; v < g->n; v++)
        label[v] = -1;
    int top = -1, next = 0;
    for (int root = start;; root = next) {
        int head = 0, tail = 0, base = top + 1;
        label[root] = base;
        queue[tail++] = root;
        while (head < tail) {
            int v = queue[head++];
            if (label[v] > top)
                top = label[v];
            for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++)
                if (label[g->adj[e]] < 0) {
                    label[g->adj[e]] = label[v] + 1;
                    queue[tail++] = g->adj[e];
                }
        }
        while (next < g->n && label[next] >= 0)
            next++;
        if (next == g->n)
            return top;
    }
}

/* A pair of adjacent groups, left and right (ids: their first stripe),
 * and their total when pushed. */
typedef struct {
    long long sum;
    int left, right;
} pair;

static bool before(const pair *a, const pair *b)
{
    return a->sum < b->sum || (a->sum == b->sum && a->left < b->left);
}

static void push(pair *h, int *n, pair p)
{
    int i = (*n)++;
    for (; i > 0 && before(&p, &h[(i - 1) / 2]); i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = p;
}

static pair pop(pair *h, int *n)
{
    pair top = h[0], last = h[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = last;
    return top;
}

/* Section 3.1's merge: while more than `want` groups of stripes remain,
 * the adjacent pair of least total count becomes one (ties: the lowest
 * pair).  The paper rescans all pairs per merge, O(L^2) for L stripes; a
 * heap of the pairs, ordered by (total, position), finds the same pair in
 * O(log L): a group's id is its first stripe, so ids increase with
 * position, and an entry whose groups have merged since it was pushed no
 * longer matches (counts only grow, partners only change by a merge) and
 * is dropped when it comes up.  into[b] = the group of stripe b, 0 .. */
int hd_fem_merge_stripes(const long long *count, int L, int want, int *into)
{
    long long *total = malloc(((size_t)L + 1) * sizeof *total);
    int *next = malloc(((size_t)L + 1) * sizeof *next), *prev = malloc(((size_t)L + 1) * sizeof *prev);
    pair *heap = malloc(((size_t)(2 * L) + 1) * sizeof *heap);
    if (!total || !next || !prev || !heap) {
        free(total);
        free(next);
        free(prev);
        free(heap);
        return HD_ENOMEM;
    }
    int n = 0, groups = L;
    for (int b = 0; b < L; b++) {
        total[b] = count[b];
        next[b] = b + 1 < L ? b + 1 : -1;
        prev[b] = b - 1;
    }
    for (int b = 0; b + 1 < L; b++)
        push(heap, &n, (pair){ total[b] + total[b + 1], b, b + 1 });
    while (groups > want && n > 0) {
        pair p = pop(heap, &n);
        if (next[p.left] != p.right || prev[p.right] != p.left ||
            total[p.left] + total[p.right] != p.sum)
            continue;   /* stale */
        total[p.left] = p.sum;
        next[p.left] = next[p.right];
        if (next[p.right] >= 0)
            prev[next[p.right]] = p.left;
        prev[p.right] = next[p.right] = -2;   /* merged away */
        groups--;
        if (prev[p.left] >= 0)
            push(heap, &n, (pair){ total[prev[p.left]] + total[p.left], prev[p.left], p.left });
        if (next[p.left] >= 0)
            push(heap, &n, (pair){ total[p.left] + total[next[p.left]], p.left, next[p.left] });
    }
    for (int b = 0, k = -1; b < L; b++) {
        if (prev[b] != -2)   /* a group starts here */
            k++;
        into[b] = k;
    }
    free(total);
    free(next);
    free(prev);
    free(heap);
    return HD_OK;
}

/* The stripes' labels merged into `want` groups (hd_fem_merge_stripes). */
static int merge(const int *label, int N, int last, int want, int *into)
{
    int L = last + 1;
    long long *count = calloc((size_t)L, sizeof *count);
    if (!count)
        return HD_ENOMEM;
    for (int v = 0; v < N; v++)
        count[label[v]]++;
    int rc = hd_fem_merge_stripes(count, L, want, into);
    free(count);
    return rc;
}

/* The mesh of 2^x rows and 2^y columns, positions row-major. */
typedef struct {
    int x, y, rows, cols, M;
    const hd_graph *g;
    int *pos;          /* per node: its mesh position */
    int **own;         /* per position: its nodes, increasing (load of them) */
    int *cap;          /* per position: own's room */
    int *load;         /* per position */
    int *net;          /* [4 pos + d]: nodes pos still gives its neighbour
                        * in direction d (right, down, left, up); < 0: gets */
    int *with_load;    /* [l]: positions of load l (N + 1 entries) */
    unsigned *cube;    /* [pos]: its processor (addr), computed once */
    int most;          /* the largest load */
} mesh;

static int addr(const mesh *m, int p)
{
    return (int)((gray((unsigned)(p / m->cols)) << m->y) | gray((unsigned)(p % m->cols)));
}

/* The neighbour of p in direction d, or -1. */
static int step(const mesh *m, int p, int d)
{
    int r = p / m->cols, c = p % m->cols;
    switch (d) {
    case 0: return c + 1 < m->cols ? p + 1 : -1;
    case 1: return r + 1 < m->rows ? p + m->cols : -1;
    case 2: return c > 0 ? p - 1 : -1;
    default: return r > 0 ? p - m->cols : -1;
    }
}

/* p gives q (in direction d) one node of the transfer matrix. */
static void owe(mesh *m, int p, int d)
{
    m->net[4 * p + d]++;
    m->net[4 * step(m, p, d) + (d + 2) % 4]--;
}

/* Section 3.2, step 1: Rules 1-3 on the loads alone, processors in mesh
 * order; an absent right or down counts +inf for Rule 1, -inf for Rule 2.
 * Ties go right, as "otherwise" reads. */
static int transfer_matrix(mesh *m, int N)
{
    int *vl = malloc((size_t)m->M * sizeof *vl);
    if (!vl)
        return HD_ENOMEM;
    memcpy(vl, m->load, (size_t)m->M * sizeof *vl);
    for (int p = 0; p < m->M; p++) {
        int quota = N / m->M + (p < N % m->M);
        int right = step(m, p, 0), down = step(m, p, 1);
        if (right < 0 && down < 0)
            break;
        while (vl[p] > quota) {
            long long lr = right < 0 ? LLONG_MAX : vl[right], ld = down < 0 ? LLONG_MAX : vl[down];
            int d = ld < lr ? 1 : 0;
            owe(m, p, d);
            vl[p]--;
            vl[step(m, p, d)]++;
        }
        while (vl[p] < quota) {
            long long lr = right < 0 ? LLONG_MIN : vl[right], ld = down < 0 ? LLONG_MIN : vl[down];
            int d = ld > lr ? 1 : 0;
            owe(m, step(m, p, d), (d + 2) % 4);
            vl[p]++;
            vl[step(m, p, d)]--;
        }
    }
    free(vl);
    return HD_OK;
}

/* Would node x on position q keep every NB edge within two bits? */
static bool keeps_neighbour_mapping(const mesh *m, int v, int q)
{
    unsigned a = m->cube[q];
    for (int e = m->g->xadj[v]; e < m->g->xadj[v + 1]; e++) {
        /* More than two bits apart: x without its two lowest set bits. */
        unsigned x = a ^ m->cube[m->pos[m->g->adj[e]]];
        x &= x - 1;
        if (x & (x - 1))
            return false;
    }
    return true;
}

static bool has_neighbour_on(const mesh *m, int v, int q)
{
    for (int e = m->g->xadj[v]; e < m->g->xadj[v + 1]; e++)
        if (m->pos[m->g->adj[e]] == q)
            return true;
    return false;
}

static bool gives(const mesh *m, int p)
{
    for (int d = 0; d < 4; d++)
        if (m->net[4 * p + d] > 0)
            return true;
    return false;
}

/* Where v is, or goes, in the increasing a[0 .. n). */
static int place_of(const int *a, int n, int v)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Node v leaves position p for q: own's sorted lists follow (a binary
 * search and a shift each: a processor's nodes, not all N). */
static int relocate(mesh *m, int v, int p, int q)
{
    int *a = m->own[p], n = m->load[p], lo = place_of(a, n, v);
    memmove(a + lo, a + lo + 1, (size_t)(n - lo - 1) * sizeof *a);
    if (m->load[q] == m->cap[q]) {
        int nc = m->cap[q] ? 2 * m->cap[q] : 8;
        int *b = realloc(m->own[q], (size_t)nc * sizeof *b);
        if (!b)
            return HD_ENOMEM;
        m->own[q] = b;
        m->cap[q] = nc;
    }
    a = m->own[q];
    n = m->load[q];
    lo = place_of(a, n, v);
    memmove(a + lo + 1, a + lo, (size_t)(n - lo) * sizeof *a);
    a[lo] = v;
    m->pos[v] = q;
    m->with_load[m->load[p]]--;
    m->with_load[m->load[q]]--;
    m->load[p]--;
    m->load[q]++;
    m->with_load[m->load[p]]++;
    m->with_load[m->load[q]]++;
    if (m->load[q] > m->most)
        m->most = m->load[q];
    while (m->most > 0 && !m->with_load[m->most])
        m->most--;
    return HD_OK;
}

/* One move of load_transfer's lines 5-10 (first loop: near, a node with
 * a neighbour on the receiver; second: any node): from p, along a
 * direction it still owes, to a receiver below the largest load, the
 * lowest such node.  Returns the node moved, -1 for none, -2 out of
 * memory. */
static int move_one(mesh *m, int p, bool near)
{
    int most = m->most;
    for (int d = 0; d < 4; d++) {
        int q = step(m, p, d);
        if (m->net[4 * p + d] <= 0 || m->load[q] >= most)
            continue;
        for (int i = 0; i < m->load[p]; i++) {
            int v = m->own[p][i];
            if ((near && !has_neighbour_on(m, v, q)) || !keeps_neighbour_mapping(m, v, q))
                continue;
            if (relocate(m, v, p, q) != HD_OK)
                return -2;
            m->net[4 * p + d]--;
            m->net[4 * q + (d + 2) % 4]++;
            return v;
        }
    }
    return -1;
}

/* load_transfer's candidates: (load, position) in a heap, the largest
 * load first, then the lowest position, as the paper's scan "the active
 * one of most load" picks them.  An entry is pushed whenever its
 * position's load changes or it wakes, and checked when it comes up
 * (awake, still owing, the load it was pushed with): every candidate has
 * an entry of its current key, so the first valid one is the scan's
 * choice, in O(log M) instead of O(M) per move. */
typedef struct {
    int load, pos;
} candidate;

static bool above(candidate a, candidate b)
{
    return a.load > b.load || (a.load == b.load && a.pos < b.pos);
}

typedef struct {
    candidate *h;
    size_t n, cap;
} candidates;

static int offer(candidates *c, const mesh *m, int p)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        candidate *h = realloc(c->h, cap * sizeof *h);
        if (!h)
            return HD_ENOMEM;
        c->h = h;
        c->cap = cap;
    }
    candidate x = { m->load[p], p };
    size_t i = c->n++;
    for (; i > 0 && above(x, c->h[(i - 1) / 2]); i = (i - 1) / 2)
        c->h[i] = c->h[(i - 1) / 2];
    c->h[i] = x;
    return HD_OK;
}

static candidate take(candidates *c)
{
    candidate top = c->h[0], last = c->h[--c->n];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= c->n)
            break;
        if (k + 1 < c->n && above(c->h[k + 1], c->h[k]))
            k++;
        if (!above(c->h[k], last))
            break;
        c->h[i] = c->h[k];
        i = k;
    }
    if (c->n > 0)
        c->h[i] = last;
    return top;
}

/* Section 3.2, step 2: load_transfer.  Q: the positions that still owe;
 * the active one of most load (ties: the lowest) moves a node or goes
 * inactive; a move wakes the inactive ones holding a neighbour of the
 * node.  Both loops, again, until nothing is owed or nothing moves. */
static int load_transfer(mesh *m)
{
    bool *asleep = calloc((size_t)m->M, sizeof *asleep);
    candidates c = { NULL, 0, 0 };
    int rc = asleep ? HD_OK : HD_ENOMEM;
    for (bool moved = true; moved && rc == HD_OK;) {
        moved = false;
        for (int loop = 0; loop < 2 && rc == HD_OK; loop++) {
            memset(asleep, 0, (size_t)m->M * sizeof *asleep);
            c.n = 0;
            for (int q = 0; q < m->M && rc == HD_OK; q++)
                if (gives(m, q))
                    rc = offer(&c, m, q);
            while (rc == HD_OK && c.n > 0) {
                candidate top = take(&c);
                int p = top.pos;
                if (asleep[p] || !gives(m, p) || m->load[p] != top.load)
                    continue;
                int v = move_one(m, p, loop == 0);
                if (v == -2) {
                    rc = HD_ENOMEM;
                    break;
                }
                if (v < 0) {
                    asleep[p] = true;
                    continue;
                }
                moved = true;
                int q = m->pos[v];
                rc = offer(&c, m, p);
                if (rc == HD_OK)
                    rc = offer(&c, m, q);
                for (int e = m->g->xadj[v]; e < m->g->xadj[v + 1] && rc == HD_OK; e++) {
                    int w = m->pos[m->g->adj[e]];
                    if (asleep[w]) {
                        asleep[w] = false;
                        rc = offer(&c, m, w);
                    }
                }
            }
        }
    }
    free(c.h);
    free(asleep);
    return rc;
}

/* The mapping of one shape into proc. */
static int map_shape(const hd_graph *g, int n, int x, const int *l1, int last1, const int *l2,
                     int last2, int *proc)
{
    mesh m = { .x = x, .y = n - x, .rows = 1 << x, .cols = 1 << (n - x), .M = 1 << n, .g = g };
    int *into1 = malloc(((size_t)last1 + 1) * sizeof *into1);
    int *into2 = malloc(((size_t)last2 + 1) * sizeof *into2);
    m.pos = malloc(((size_t)g->n + 1) * sizeof *m.pos);
    m.load = calloc((size_t)m.M, sizeof *m.load);
    m.net = calloc(4 * (size_t)m.M, sizeof *m.net);
    m.own = calloc((size_t)m.M, sizeof *m.own);
    m.cap = calloc((size_t)m.M, sizeof *m.cap);
    m.with_load = calloc((size_t)g->n + 2, sizeof *m.with_load);
    m.cube = malloc((size_t)m.M * sizeof *m.cube);
    int rc = into1 && into2 && m.pos && m.load && m.net && m.own && m.cap && m.with_load &&
             m.cube ? HD_OK : HD_ENOMEM;
    for (int p = 0; rc == HD_OK && p < m.M; p++)
        m.cube[p] = (unsigned)addr(&m, p);
    if (rc == HD_OK) {
        rc = merge(l1, g->n, last1, m.rows, into1);
        if (rc == HD_OK)
            rc = merge(l2, g->n, last2, m.cols, into2);
        for (int v = 0; rc == HD_OK && v < g->n; v++) {
            m.pos[v] = into1[l1[v]] * m.cols + into2[l2[v]];
            m.load[m.pos[v]]++;
        }
        for (int p = 0; p < m.M && rc == HD_OK; p++) {
            m.with_load[m.load[p]]++;
            if (m.load[p] > m.most)
                m.most = m.load[p];
            m.cap[p] = m.load[p] + 1;
            m.own[p] = malloc((size_t)m.cap[p] * sizeof **m.own);
            rc = m.own[p] ? HD_OK : HD_ENOMEM;
        }
    }
    if (rc == HD_OK) {
        int *fill = calloc((size_t)m.M, sizeof *fill);
        rc = fill ? HD_OK : HD_ENOMEM;
        for (int v = 0; fill && v < g->n; v++)
            m.own[m.pos[v]][fill[m.pos[v]]++] = v;   /* increasing: v in order */
        free(fill);
    }
    if (rc == HD_OK) {
        rc = transfer_matrix(&m, g->n);
        if (rc == HD_OK)
            rc = load_transfer(&m);
    }
    if (rc == HD_OK)
        for (int v = 0; v < g->n; v++)
            proc[v] = addr(&m, m.pos[v]);
    for (int p = 0; m.own && p < m.M; p++)
        free(m.own[p]);
    free(m.own);
    free(m.cap);
    free(into1);
    free(into2);
    free(m.pos);
    free(m.load);
    free(m.net);
    free(m.with_load);
    free(m.cube);
    return rc;
}

int hd_fem_stripes(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                   int *proc, int *shape_x, FILE *progress)
{
    if (n < 0 || n > 20)
        return HD_EINVAL;
    int N = nb->n;
    int *l1 = malloc(((size_t)N + 1) * sizeof *l1), *l2 = malloc(((size_t)N + 1) * sizeof *l2);
    int *queue = malloc(((size_t)N + 1) * sizeof *queue);
    int *try = malloc(((size_t)N + 1) * sizeof *try);
    int rc = l1 && l2 && queue && try ? HD_OK : HD_ENOMEM;
    double best = -1;
    *shape_x = -1;
    if (rc == HD_OK && N == 0)
        *shape_x = 0;
    if (rc == HD_OK && N > 0) {
        int last1 = stripes(nb, 0, l1, queue), last2 = stripes(nb, N / 2, l2, queue);
        for (int x = 0; x <= n && rc == HD_OK; x++) {
            rc = map_shape(nb, n, x, l1, last1, l2, last2, try);
            hd_fem_report r;
            if (rc == HD_OK)
                rc = hd_fem_cost(nb, n, try, t, &r);
            if (rc != HD_OK)
                break;
            if (progress)
                fprintf(progress, "hyperdo map: stripes, mesh %d x %d: max load %d, C_bi %.0f us, "
                                  "C_uni %.0f us%s\n", 1 << x, 1 << (n - x), r.max_load,
                        r.c_us[HD_FEM_BI], r.c_us[HD_FEM_UNI],
                        r.neighbour_mapping ? "" : " (no neighbour mapping)");
            if (best < 0 || r.c_us[ch] < best) {
                best = r.c_us[ch];
                *shape_x = x;
                memcpy(proc, try, (size_t)N * sizeof *proc);
            }
            hd_fem_report_free(&r);
        }
    }
    free(l1);
    free(l2);
    free(queue);
    free(try);
    return rc;
}

/* The next permutation of r[0 .. n-1] in lexicographic order; false after
 * the last. */
static bool next_order(int *r, int n)
{
    int i = n - 2;
    while (i >= 0 && r[i] > r[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (r[j] < r[i])
        j--;
    int t = r[i];
    r[i] = r[j];
    r[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        t = r[a];
        r[a] = r[b];
        r[b] = t;
    }
    return true;
}

int hd_fem_reorder_bits(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                        int *proc)
{
    if (n > 7)
        return HD_ETOOBIG;
    int N = nb->n, r[8], best_r[8];
    int *try = malloc(((size_t)N + 1) * sizeof *try);
    if (!try)
        return HD_ENOMEM;
    for (int k = 0; k < n; k++)
        r[k] = best_r[k] = k;
    double best[2] = { -1, -1 };
    int rc = HD_OK;
    do {
        for (int v = 0; v < N; v++) {
            int p = 0;
            for (int k = 0; k < n; k++)
                p |= (proc[v] >> k & 1) << r[k];
            try[v] = p;
        }
        hd_fem_report rep;
        rc = hd_fem_cost(nb, n, try, t, &rep);
        if (rc != HD_OK)
            break;
        double c = rep.c_us[ch], other = rep.c_us[!ch];
        if (best[0] < 0 || c < best[0] || (c == best[0] && other < best[1])) {
            best[0] = c;
            best[1] = other;
            memcpy(best_r, r, sizeof r);
        }
        hd_fem_report_free(&rep);
    } while (next_order(r, n));
    if (rc == HD_OK)
        for (int v = 0; v < N; v++) {
            int p = 0;
            for (int k = 0; k < n; k++)
                p |= (proc[v] >> k & 1) << best_r[k];
            proc[v] = p;
        }
    free(try);
    return rc;
}
