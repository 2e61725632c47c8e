/*
 * optimize.c — the optimal reordering mapping for one LCC (Section 4):
 * Fig. 3's LCP_Optimizer and the construction in the proof of Theorem 4.
 */
#include "analysis.h"

#include <assert.h>

static void swap_bits(uint64_t *v, int a, int b)
{
    uint64_t x = ((*v >> a) ^ (*v >> b)) & 1;
    *v ^= (x << a) | (x << b);
}

/* Exchange rows a, b and columns a, b: P V P^-1 for the transposition P. */
static void swap_dims(hd_matrix *v, int a, int b)
{
    uint64_t t = v->row[a];
    v->row[a] = v->row[b];
    v->row[b] = t;
    for (int k = 0; k < v->n; k++)
        swap_bits(&v->row[k], a, b);
}

static void swap_order(hd_order *o, int a, int b)
{
    uint8_t t = o->r[a];
    o->r[a] = o->r[b];
    o->r[b] = t;
}

/*
 * Fig. 3.  The order o stands for Q (line 13's RowSwap(Q, i+1, j) swaps its
 * entries); D = Q A Q^-1 and d = Q b follow from Theorem 2 when needed, so
 * they are not carried along.  V is D reduced so that its rows marked in R
 * hold a single 1 in columns < i and its other rows are zero there.
 */
hd_order hd_lcp_optimizer(const hd_matrix *a)
{
    int n = a->n;
    if (hd_rank(a) < n) {
        /* Outside Fig. 3's domain; Theorem 4's ordering is the optimum. */
        hd_lcc c = { HD_GATHER, *a, 0 };
        return hd_lcg_optimizer(&c);
    }
    hd_order q = hd_order_identity(n);
    hd_matrix v = *a;
    uint64_t marked = 0;
    for (int i = 0; i < n - 1; i++) {
        int j = 0;
        while (j < n && !(((v.row[j] >> i) & 1) && !((marked >> j) & 1)))
            j++;
        if (j > i + 1) {
            swap_dims(&v, i + 1, j);
            swap_bits(&marked, i + 1, j);
            swap_order(&q, i + 1, j);
            j = i + 1;
        }
        for (int k = 0; k < n; k++)
            if (k != j && ((v.row[k] >> i) & 1))
                v.row[k] ^= v.row[j];
        marked |= UINT64_C(1) << j;
    }
    return q;
}

/* The set {r_0, ..., r_{k-1}} of the first k old bits of an order. */
static uint64_t prefix_set(const uint8_t *r, int k)
{
    uint64_t s = 0;
    for (int p = 0; p < k; p++)
        s |= UINT64_C(1) << r[p];
    return s;
}

/*
 * Theorem 4.  Dimensions with T_i = 0 are set aside and put last (Section
 * 4, before Theorem 3); on the remaining n' bits, with B the reordered
 * matrix and bound = (n'-1) - rank(B) = (n-1) - rank(A):
 *   1. put last a column of B that depends on the others, so that
 *      rank(B_{L_n', L_{n'-1}}) = rank(B);
 *   2. for k = n'-1 down to 1, if (k-1) - rank(B_{L_k, L_{k-1}}) > bound,
 *      exchange bit k-1 with a bit j <= k-2 whose column of B_{L_k, L_k}
 *      depends on the others.  The paper prints "rows j and k+1"; the
 *      exchange must stay inside L_k to keep dimensions >= k as they are,
 *      and with k-1 the proof's chain of inequalities goes through.
 * Each step keeps i - rank(B_{L_{i+1}, L_i}) <= bound for all i >= k-1.
 */
hd_order hd_lcg_optimizer(const hd_lcc *c)
{
    const hd_matrix *a = &c->A;
    int n = a->n, m = 0;
    hd_order o = hd_order_identity(n);
    for (int i = 0; i < n; i++)
        if (!hd_lcc_dim_is_fixed(c, i))
            o.r[m++] = (uint8_t)i;
    for (int i = 0, f = m; i < n; i++)
        if (hd_lcc_dim_is_fixed(c, i))
            o.r[f++] = (uint8_t)i;
    if (m == 0)
        return o;

    uint64_t live = prefix_set(o.r, m);
    int bound = (m - 1) - hd_rank_sub(a, live, live);
    if (bound < 0)   /* nonsingular: outside Theorem 4, inside Fig. 3 */
        return hd_lcp_optimizer(a);
    uint64_t dep = hd_dependent_columns(a, live, live);
    int j = m - 1;
    while (!((dep >> o.r[j]) & 1))
        j--;
    swap_order(&o, j, m - 1);

    for (int k = m - 1; k >= 1; k--) {
        uint64_t sk = prefix_set(o.r, k);
        uint64_t sk1 = prefix_set(o.r, k - 1);
        if ((k - 1) - hd_rank_sub(a, sk, sk1) <= bound)
            continue;
        dep = hd_dependent_columns(a, sk, sk);
        j = k - 2;
        while (j >= 0 && !((dep >> o.r[j]) & 1))
            j--;
        assert(j >= 0 && "the proof of Theorem 4 guarantees such a column");
        swap_order(&o, j, k - 1);
    }
    return o;
}

/*
 * A scatter's T_i under an order equals the gather's T_{n-1-i} under the
 * reversed order (contention.c), so the reversed gather optimum is the
 * scatter optimum.
 */
hd_order hd_optimize_alone(const hd_lcc *c)
{
    hd_order o;
    if (hd_rank(&c->A) == c->A.n)
        o = hd_lcp_optimizer(&c->A);
    else
        o = hd_lcg_optimizer(c);
    return c->dir == HD_GATHER ? o : hd_order_reversed(&o);
}
