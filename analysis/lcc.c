/*
 * lcc.c — linear-complement communications (Section 2.2) and how a
 * reordering mapping transforms them (Theorem 2).
 */
#include "gf2.h"

hd_lcc_class hd_lcc_classify(const hd_lcc *c)
{
    if (hd_rank(&c->A) == c->A.n)
        return HD_LCP;
    return c->dir == HD_GATHER ? HD_LCG : HD_LCS;
}

bool hd_lcc_equal(const hd_lcc *a, const hd_lcc *b)
{
    return a->dir == b->dir && a->b == b->b && hd_matrix_equal(&a->A, &b->A);
}

size_t hd_lcc_hash(const hd_lcc *c)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)c->dir ^ (c->b * 31);
    for (int i = 0; i < c->A.n; i++)
        h = (h ^ c->A.row[i]) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

const char *hd_lcc_class_name(hd_lcc_class k)
{
    switch (k) {
    case HD_LCP: return "LCP";
    case HD_LCG: return "LCG";
    case HD_LCS: return "LCS";
    }
    return "?";
}

bool hd_lcc_is_bpc(const hd_lcc *c)
{
    return hd_matrix_is_permutation(&c->A);
}

bool hd_lcc_dim_is_fixed(const hd_lcc *c, int i)
{
    return c->A.row[i] == UINT64_C(1) << i && !((c->b >> i) & 1);
}

/* Q A Q^-1 has entry (k, l) = a_{r_k, r_l}, because Q^-1 = Q^t. */
hd_lcc hd_lcc_reorder(const hd_lcc *c, const hd_order *o)
{
    hd_lcc d = *c;
    for (int k = 0; k < o->n; k++)
        d.A.row[k] = hd_order_apply(o, c->A.row[o->r[k]]);
    d.b = hd_order_apply(o, c->b);
    return d;
}

void hd_lcc_message(const hd_lcc *c, uint64_t t, uint64_t *src, uint64_t *dst)
{
    uint64_t image = hd_matrix_apply(&c->A, t) ^ c->b;
    if (c->dir == HD_GATHER) {
        *src = t;
        *dst = image;
    } else {
        *src = image;
        *dst = t;
    }
}
