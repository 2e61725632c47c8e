/*
 * mapping.c — one reordering mapping for a set of LCCs (Section 5) or for
 * one LCC alone (Section 4): the three objectives, the dispatch on the
 * target's kind, and for the e-cube
 * hypercube Theorem 5's dynamic program over subsets of address bits and
 * the exhaustive search over all n! orderings it is checked against.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

static const char *const objective_names[] = { "max", "maxsum", "sum" };

const char *hd_objective_name(hd_objective obj)
{
    return (unsigned)obj < 3 ? objective_names[obj] : "?";
}

bool hd_objective_parse(const char *s, hd_objective *obj)
{
    for (int k = 0; k < 3; k++)
        if (strcmp(s, objective_names[k]) == 0) {
            *obj = (hd_objective)k;
            return true;
        }
    return false;
}

/* What one dimension contributes: the max over LCCs of T_i for HD_OBJ_MAX,
 * the sum over LCCs otherwise; dimensions are then combined by max
 * (HD_OBJ_MAX, HD_OBJ_MAXSUM) or by sum (HD_OBJ_SUM). */
static bool per_dim_is_max(hd_objective obj) { return obj == HD_OBJ_MAX; }
static bool across_dims_is_max(hd_objective obj) { return obj != HD_OBJ_SUM; }

static uint64_t combine(bool is_max, uint64_t acc, uint64_t v)
{
    return is_max ? (v > acc ? v : acc) : acc + v;
}

/* Are the set's LCCs and the order all of t's dimension?  m >= 0 and c
 * given when m > 0. */
static bool set_fits(const hd_target *t, const hd_lcc *c, int m, const hd_order *o)
{
    if (m < 0 || (m > 0 && !c) || o->n != t->n)
        return false;
    for (int r = 0; r < m; r++)
        if (c[r].A.n != t->n)
            return false;
    return true;
}

/* The objective from every T_i of every LCC under o, Theorems 1 and 2
 * (the set fits t, an e-cube hypercube). */
static uint64_t ecube_objective_cost(const hd_target *t, hd_objective obj, const hd_lcc *c,
                                     int m, const hd_order *o)
{
    uint64_t T[HD_MAX_DIM], dim[HD_MAX_DIM] = { 0 }, cost = 0;
    for (int r = 0; r < m; r++) {
        hd_contention_after(t, &c[r], o, T);
        for (int i = 0; i < o->n; i++)
            dim[i] = combine(per_dim_is_max(obj), dim[i], T[i]);
    }
    for (int i = 0; i < o->n; i++)
        cost = combine(across_dims_is_max(obj), cost, dim[i]);
    return cost;
}

int hd_objective_cost(const hd_target *t, hd_objective obj, const hd_lcc *c, int m,
                      const hd_order *o, uint64_t *cost)
{
    if (!set_fits(t, c, m, o))
        return HD_EINVAL;
    switch (t->kind) {
    case HD_TARGET_ECUBE_HYPERCUBE:
        *cost = ecube_objective_cost(t, obj, c, m, o);
        return HD_OK;
    case HD_TARGET_OMEGA:
    case HD_TARGET_BUTTERFLY:   /* counted in passes: omega.c */
        break;
    }
    return HD_EINVAL;
}

/* ------------------------------------------------------ subset tables */

/*
 * After the reordering r, the T_i of a gather depends only on the set
 * U = {r_0..r_{i-1}} of bits placed before dimension i and the bit j = r_i
 * placed at it:
 *     exponent = |U| - rank(A_{U+j, U})                       (Theorem 1),
 * and that of a scatter on the complement C = L_n - U, which contains j:
 *     exponent = (n-1-i) - rank(A_{C, C-j})              (contention.c).
 * Both follow from two facts about the square submatrix M = A_{X,X}:
 *   rank(A_{X+j, X}) = rank(M) + 1  iff  row j restricted to X leaves the row
 *       space of M, iff A u has bit j set for some u in the null space of M;
 *   rank(A_{X, X-j}) = rank(M) - 1  iff  column j is no sum of the other
 *       columns of M, iff no null vector of M contains j.
 * So a table over all X of rank(M) and one bit mask (the j of the first fact
 * for gathers, of the second for scatters) prices every transition of the
 * dynamic program in O(1).
 *
 * The tables are filled by walking the subsets as a trie, each X reached
 * from X minus its lowest element k; one column-elimination state per trie
 * level is updated in O(n) word operations when k joins X, instead of the
 * O(n^3) elimination from scratch that the paper's O(m n^4 2^n) assumes.
 * A state holds pairs (u, w = A u) spanning all of GF(2)^X: pivot pairs
 * whose w, restricted to X, are independent (each one free of the pivots
 * of the pivot pairs before it), and null pairs with w zero on X.
 */
typedef struct {
    uint64_t u, w;
} colpair;

typedef struct {
    colpair piv[HD_DP_MAX_DIM], null[HD_DP_MAX_DIM];
    uint8_t pivbit[HD_DP_MAX_DIM];
    int npiv, nnull;
} elim_state;

typedef struct {
    const hd_lcc *lcc;
    uint64_t col[HD_DP_MAX_DIM];   /* columns of A */
    uint64_t full;                 /* L_n */
    uint8_t *rank;                 /* indexed by U, see above */
    uint32_t *mask;
} subset_table;

static void elim_add(elim_state *s, uint64_t x, int k, uint64_t colk)
{
    uint64_t kbit = UINT64_C(1) << k, xk = x | kbit;
    /* Row k joins: a null pair with bit k set becomes the pivot for k. */
    int first = -1;
    for (int t = 0; t < s->nnull; t++) {
        if (!(s->null[t].w & kbit))
            continue;
        if (first < 0) {
            first = t;
        } else {
            s->null[t].u ^= s->null[first].u;
            s->null[t].w ^= s->null[first].w;
        }
    }
    if (first >= 0) {
        s->pivbit[s->npiv] = (uint8_t)k;
        s->piv[s->npiv++] = s->null[first];
        s->null[first] = s->null[--s->nnull];
    }
    /* Column k joins. */
    colpair p = { kbit, colk };
    for (int t = 0; t < s->npiv; t++)
        if ((p.w >> s->pivbit[t]) & 1) {
            p.u ^= s->piv[t].u;
            p.w ^= s->piv[t].w;
        }
    if (p.w & xk) {
        s->pivbit[s->npiv] = (uint8_t)__builtin_ctzll(p.w & xk);
        s->piv[s->npiv++] = p;
    } else {
        s->null[s->nnull++] = p;
    }
}

/* Only the pairs in use: the whole struct is mostly empty on small sets. */
static void elim_copy(elim_state *to, const elim_state *from)
{
    to->npiv = from->npiv;
    to->nnull = from->nnull;
    memcpy(to->piv, from->piv, (size_t)from->npiv * sizeof *from->piv);
    memcpy(to->pivbit, from->pivbit, (size_t)from->npiv);
    memcpy(to->null, from->null, (size_t)from->nnull * sizeof *from->null);
}

static void table_store(subset_table *tb, const elim_state *s, uint64_t x)
{
    uint64_t nullw = 0, nullu = 0;
    for (int t = 0; t < s->nnull; t++) {
        nullw |= s->null[t].w;
        nullu |= s->null[t].u;
    }
    if (tb->lcc->dir == HD_GATHER) {
        tb->rank[x] = (uint8_t)s->npiv;
        tb->mask[x] = (uint32_t)(nullw & ~x & tb->full);
    } else {
        uint64_t u = tb->full & ~x;   /* the scatter's U for C = x */
        tb->rank[u] = (uint8_t)s->npiv;
        tb->mask[u] = (uint32_t)(x & ~nullu);
    }
}

static void table_walk(subset_table *tb, const elim_state *s, uint64_t x,
                       int lowest)
{
    for (int k = 0; k < lowest; k++) {
        elim_state next;
        elim_copy(&next, s);
        elim_add(&next, x, k, tb->col[k]);
        table_store(tb, &next, x | (UINT64_C(1) << k));
        table_walk(tb, &next, x | (UINT64_C(1) << k), k);
    }
}

static void table_fill(subset_table *tb)
{
    elim_state empty;
    memset(&empty, 0, sizeof empty);
    table_store(tb, &empty, 0);
    table_walk(tb, &empty, 0, (int)__builtin_popcountll(tb->full));
}

/* ---------------------------------------------------- the DP (Theorem 5) */

typedef struct {
    int n, m;
    hd_objective obj;
    subset_table *tb;
    uint64_t *fixed;   /* per LCC, the bits j with T = 0 wherever placed */
    uint64_t *weight;  /* how many of the input LCCs are this one */
} dp_problem;

/* The primary cost g of placing bit j at position i after the set u, and
 * the total contention s of that dimension (the tie-break). */
static void dim_cost(const dp_problem *p, uint32_t u, int j, int i,
                     uint64_t *g, uint64_t *s)
{
    *g = *s = 0;
    for (int r = 0; r < p->m; r++) {
        const subset_table *tb = &p->tb[r];
        if ((p->fixed[r] >> j) & 1)
            continue;
        int hit = (tb->mask[u] >> j) & 1, e;
        if (tb->lcc->dir == HD_GATHER)
            e = i - tb->rank[u] - hit;
        else
            e = (p->n - 1 - i) - tb->rank[u] + hit;
        uint64_t T = UINT64_C(1) << e;
        *g = per_dim_is_max(p->obj) ? (T > *g ? T : *g) : *g + T * p->weight[r];
        *s += T * p->weight[r];
    }
}

#define INFINITE_COST UINT64_MAX

/*
 * f[S] is the optimum over orderings of the bits in S placed first;
 * Theorem 5 gives f[S] = min over j in S of f[S-j] combined with the cost of
 * j placed at position |S|-1.  Subsets are visited in numeric order, which
 * puts every S-j before S.  With a bound (second pass), dimensions whose
 * primary cost exceeds it are forbidden and the total is minimised.
 */
static void dp_run(const dp_problem *p, uint64_t *f, uint8_t *last,
                   bool tie_break, uint64_t bound)
{
    uint32_t full = (uint32_t)hd_mask(p->n);
    bool is_max = !tie_break && across_dims_is_max(p->obj);
    f[0] = 0;
    for (uint32_t set = 1; set <= full; set++) {
        int i = __builtin_popcount(set) - 1;
        uint64_t best = INFINITE_COST;
        int best_j = 0;
        for (uint32_t s = set; s; s &= s - 1) {
            int j = __builtin_ctz(s);
            uint32_t u = set & ~(UINT32_C(1) << j);
            uint64_t g, sum, v;
            if (f[u] == INFINITE_COST)
                continue;
            dim_cost(p, u, j, i, &g, &sum);
            if (tie_break && g > bound)
                continue;
            v = combine(is_max, f[u], tie_break ? sum : g);
            /* On a tie the larger bit goes last: ties keep the original
             * order, and a set with nothing to gain keeps the identity. */
            if (v <= best && v != INFINITE_COST) {
                best = v;
                best_j = j;
            }
        }
        f[set] = best;
        last[set] = (uint8_t)best_j;
    }
}

static hd_order dp_order(const uint8_t *last, int n)
{
    hd_order o = hd_order_identity(n);
    uint32_t set = (uint32_t)hd_mask(n);
    for (int i = n - 1; i >= 0; i--) {
        o.r[i] = last[set];
        set &= ~(UINT32_C(1) << last[set]);
    }
    return o;
}

static int check_set(const hd_lcc *c, int m, int n, int limit)
{
    if (m < 0 || (m > 0 && !c) || n < 1 || n > HD_MAX_DIM)
        return HD_EINVAL;
    for (int r = 0; r < m; r++)
        if (c[r].A.n != n)
            return HD_EINVAL;
    return n > limit ? HD_ETOOBIG : HD_OK;
}

/* Orders LCCs so that equal ones are adjacent. */
static int compare_lcc(const void *x, const void *y)
{
    const hd_lcc *a = *(const hd_lcc *const *)x, *b = *(const hd_lcc *const *)y;
    if (a->dir != b->dir)
        return a->dir < b->dir ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    for (int i = 0; i < a->A.n; i++)
        if (a->A.row[i] != b->A.row[i])
            return a->A.row[i] < b->A.row[i] ? -1 : 1;
    return 0;
}

/* Equal LCCs cost the same under every ordering, so the DP prices each
 * distinct one once and weighs it by how often it occurs (a program's
 * loops often repeat a pattern).  Returns the number of distinct ones. */
static int distinct_lccs(const hd_lcc *c, int m, const hd_lcc **uniq,
                         uint64_t *weight)
{
    const hd_lcc **sorted = hd_xmalloc((size_t)m * sizeof *sorted);
    int u = 0;
    for (int r = 0; r < m; r++)
        sorted[r] = &c[r];
    qsort(sorted, (size_t)m, sizeof *sorted, compare_lcc);
    for (int r = 0; r < m; r++) {
        if (u > 0 && compare_lcc(&uniq[u - 1], &sorted[r]) == 0) {
            weight[u - 1]++;
            continue;
        }
        uniq[u] = sorted[r];
        weight[u++] = 1;
    }
    free(sorted);
    return u;
}

/* Section 5's DP over m LCCs, the r-th counted weight[r] times. */
static void optimize_weighted(const hd_lcc *const *c, const uint64_t *weight, int m,
                              int n, hd_objective obj, hd_order *order, uint64_t *cost)
{
    size_t states = (size_t)1 << n;
    dp_problem p = { n, m, obj, hd_xcalloc((size_t)m, sizeof *p.tb),
                     hd_xcalloc((size_t)m, sizeof *p.fixed),
                     hd_xcalloc((size_t)m, sizeof *p.weight) };
    uint64_t *f = hd_xmalloc(states * sizeof *f);
    uint8_t *last = hd_xmalloc(states);
    for (int r = 0; r < m; r++) {
        subset_table *tb = &p.tb[r];
        p.weight[r] = weight[r];
        tb->lcc = c[r];
        tb->full = hd_mask(n);
        for (int j = 0; j < n; j++) {
            tb->col[j] = hd_matrix_column(&c[r]->A, j);
            if (hd_lcc_dim_is_fixed(c[r], j))
                p.fixed[r] |= UINT64_C(1) << j;
        }
        tb->rank = hd_xmalloc(states);
        tb->mask = hd_xmalloc(states * sizeof *tb->mask);
        table_fill(tb);
    }
    dp_run(&p, f, last, false, 0);
    *cost = f[states - 1];
    if (obj != HD_OBJ_SUM)
        dp_run(&p, f, last, true, *cost);
    *order = dp_order(last, n);
    for (int r = 0; r < m; r++) {
        free(p.tb[r].rank);
        free(p.tb[r].mask);
    }
    free(p.tb);
    free(p.fixed);
    free(p.weight);
    free(f);
    free(last);
}

int hd_optimize_set(const hd_target *t, const hd_lcc *c, int m, hd_objective obj,
                    hd_order *order, uint64_t *cost)
{
    int rc = check_set(c, m, t->n, HD_DP_MAX_DIM);
    if (rc != HD_OK)
        return rc;
    const hd_lcc **uniq = hd_xmalloc((size_t)(m ? m : 1) * sizeof *uniq);
    uint64_t *weight = hd_xmalloc((size_t)(m ? m : 1) * sizeof *weight);
    int u = m ? distinct_lccs(c, m, uniq, weight) : 0;
    rc = hd_optimize_weighted(t, uniq, weight, u, obj, order, cost);
    free(uniq);
    free(weight);
    return rc;
}

int hd_optimize_weighted(const hd_target *t, const hd_lcc *const *c, const uint64_t *weight,
                         int m, hd_objective obj, hd_order *order, uint64_t *cost)
{
    int n = t->n;
    if (m < 0 || (m > 0 && (!c || !weight)) || n < 1 || n > HD_MAX_DIM)
        return HD_EINVAL;
    for (int r = 0; r < m; r++)
        if (c[r]->A.n != n)
            return HD_EINVAL;
    if (n > HD_DP_MAX_DIM)
        return HD_ETOOBIG;
    switch (t->kind) {
    case HD_TARGET_ECUBE_HYPERCUBE:
        if (m == 0) {
            *order = hd_order_identity(n);
            *cost = 0;
        } else {
            optimize_weighted(c, weight, m, n, obj, order, cost);
        }
        return HD_OK;
    case HD_TARGET_OMEGA:
    case HD_TARGET_BUTTERFLY:   /* counted in passes: omega.c */
        break;
    }
    return HD_EINVAL;
}

int hd_optimize_one(const hd_target *t, const hd_lcc *c, hd_order *order)
{
    if (c->A.n != t->n || t->n < 1 || t->n > HD_MAX_DIM)
        return HD_EINVAL;
    switch (t->kind) {
    case HD_TARGET_ECUBE_HYPERCUBE:
        *order = hd_optimize_alone(c);
        return HD_OK;
    case HD_TARGET_OMEGA:
    case HD_TARGET_BUTTERFLY:   /* counted in passes: omega.c */
        break;
    }
    return HD_EINVAL;
}

/* ------------------------------------------------- exhaustive search */

/* Next permutation in lexicographic order; false after the last. */
static bool next_permutation(uint8_t *r, int n)
{
    int i = n - 2;
    while (i >= 0 && r[i] >= r[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (r[j] <= r[i])
        j--;
    uint8_t t = r[i]; r[i] = r[j]; r[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        t = r[a]; r[a] = r[b]; r[b] = t;
    }
    return true;
}

/* Every ordering, priced by Theorems 1 and 2; the first of least cost. */
static void ecube_optimize_exhaustive(const hd_target *t, const hd_lcc *c, int m,
                                      hd_objective obj, hd_order *order, uint64_t *cost)
{
    hd_order o = hd_order_identity(t->n);
    *order = o;
    *cost = ecube_objective_cost(t, obj, c, m, &o);
    while (next_permutation(o.r, t->n)) {
        uint64_t v = ecube_objective_cost(t, obj, c, m, &o);
        if (v < *cost) {
            *cost = v;
            *order = o;
        }
    }
}

int hd_optimize_exhaustive(const hd_target *t, const hd_lcc *c, int m, hd_objective obj,
                           hd_order *order, uint64_t *cost)
{
    int rc = check_set(c, m, t->n, HD_EXHAUSTIVE_MAX_DIM);
    if (rc != HD_OK)
        return rc;
    switch (t->kind) {
    case HD_TARGET_ECUBE_HYPERCUBE:
        ecube_optimize_exhaustive(t, c, m, obj, order, cost);
        return HD_OK;
    case HD_TARGET_OMEGA:
    case HD_TARGET_BUTTERFLY:   /* counted in passes: omega.c */
        break;
    }
    return HD_EINVAL;
}
