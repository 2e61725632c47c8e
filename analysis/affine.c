/*
 * affine.c — GF(2)-affine maps of a loop variable's bits, and the
 * communication two of them (a reader's and a writer's owners) define.
 */
#include "gf2.h"

#include <string.h>

hd_affine hd_affine_constant(int in, uint64_t value)
{
    hd_affine f;
    memset(&f, 0, sizeof f);
    f.in = in;
    f.c = value;
    return f;
}

hd_affine hd_affine_identity(int in)
{
    hd_affine f = hd_affine_constant(in, 0);
    for (int t = 0; t < in; t++)
        f.row[t] = UINT64_C(1) << t;
    return f;
}

uint64_t hd_affine_apply(const hd_affine *f, uint64_t i)
{
    uint64_t v = f->c;
    i &= hd_mask(f->in);
    for (int t = 0; t < 64; t++)
        v ^= (uint64_t)__builtin_parityll(f->row[t] & i) << t;
    return v;
}

uint64_t hd_affine_zero_bits(const hd_affine *f)
{
    uint64_t z = 0, live = hd_mask(f->in);
    for (int t = 0; t < 64; t++)
        if (!(f->row[t] & live) && !((f->c >> t) & 1))
            z |= UINT64_C(1) << t;
    return z;
}

hd_affine hd_affine_compose(const hd_affine *g, const hd_affine *f, int out)
{
    hd_affine h = hd_affine_constant(f->in, 0);
    for (int t = 0; t < out; t++) {
        uint64_t row = 0;
        for (uint64_t s = g->row[t]; s; s &= s - 1)
            row ^= f->row[__builtin_ctzll(s)];
        h.row[t] = row;
        h.c |= (uint64_t)((__builtin_popcountll(g->row[t] & f->c) ^ (g->c >> t)) & 1) << t;
    }
    return h;
}

bool hd_affine_is_constant(const hd_affine *f)
{
    uint64_t live = hd_mask(f->in);
    for (int t = 0; t < 64; t++)
        if (f->row[t] & live)
            return false;
    return true;
}

/* Column elimination over the input bits, remembering which input bits each
 * reduced column sums: a column that vanishes gives a kernel vector. */
uint64_t hd_affine_collision(const hd_affine *f, int bits)
{
    uint64_t pw[64], pu[64];
    int npiv = 0;
    for (int j = 0; j < f->in; j++) {
        uint64_t w = 0, u = UINT64_C(1) << j;
        for (int t = 0; t < bits; t++)
            w |= ((f->row[t] >> j) & 1) << t;
        for (int p = 0; p < npiv && w; p++)
            if (w & (pw[p] & -pw[p])) {
                w ^= pw[p];
                u ^= pu[p];
            }
        if (!w)
            return u;
        pw[npiv] = w;
        pu[npiv++] = u;
    }
    return 0;
}

/* Rows of `rows` (n of them, over k input bits) in echelon form, each with
 * the combination of original rows it sums. */
typedef struct {
    uint64_t v[64], comb[64];
    int rank;
} row_basis;

static void basis_build(row_basis *b, const hd_affine *f, int n)
{
    b->rank = 0;
    for (int t = 0; t < n; t++) {
        uint64_t v = f->row[t] & hd_mask(f->in), comb = UINT64_C(1) << t;
        for (int p = 0; p < b->rank && v; p++)
            if (v & (b->v[p] & -b->v[p])) {
                v ^= b->v[p];
                comb ^= b->comb[p];
            }
        if (v) {
            b->v[b->rank] = v;
            b->comb[b->rank++] = comb;
        }
    }
}

/* Writes into *coeff the combination of the basis's original rows that
 * equals v; false when v is outside their span. */
static bool basis_express(const row_basis *b, uint64_t v, uint64_t *coeff)
{
    uint64_t comb = 0;
    for (int p = 0; p < b->rank && v; p++)
        if (v & (b->v[p] & -b->v[p])) {
            v ^= b->v[p];
            comb ^= b->comb[p];
        }
    *coeff = comb;
    return v == 0;
}

/*
 * If dst = A src + const as functions of i, i.e. every row of dst's linear
 * part is a combination of src's rows, then dst(i) = A src(i) + b with
 * b = dst(0) + A src(0).  When src has rank n every processor is a source,
 * which Definition 1 (and Theorem 1's count) assumes.
 */
static bool express(int n, const hd_affine *from, const hd_affine *to,
                    hd_lcc *out)
{
    row_basis b;
    basis_build(&b, from, n);
    if (b.rank < n)
        return false;
    hd_matrix a = hd_matrix_zero(n);
    for (int t = 0; t < n; t++)
        if (!basis_express(&b, to->row[t] & hd_mask(to->in), &a.row[t]))
            return false;
    out->A = a;
    out->b = (to->c ^ hd_matrix_apply(&a, from->c)) & hd_mask(n);
    return true;
}

hd_comm hd_comm_from_owners(int n, const hd_affine *src, const hd_affine *dst,
                            hd_lcc *lcc)
{
    bool local = ((src->c ^ dst->c) & hd_mask(n)) == 0;
    for (int t = 0; t < n && local; t++)
        local = ((src->row[t] ^ dst->row[t]) & hd_mask(src->in)) == 0;
    if (local)
        return (hd_comm){ .kind = HD_COMM_LOCAL };
    lcc->dir = HD_GATHER;
    if (express(n, src, dst, lcc))
        return (hd_comm){ .kind = HD_COMM_LCC, .lcc = lcc };
    lcc->dir = HD_SCATTER;
    if (express(n, dst, src, lcc))
        return (hd_comm){ .kind = HD_COMM_LCC, .lcc = lcc };

    row_basis bs, bd;
    basis_build(&bs, src, n);
    basis_build(&bd, dst, n);
    return (hd_comm){ .kind = HD_COMM_GENERAL,
                      .reason = bs.rank < n && bd.rank < n
                          ? "only part of the processors send and only part receive"
                          : "a processor exchanges elements with several partners" };
}

/* b = dst.c + A src.c (a gather) or src.c + A dst.c (a scatter) is affine
 * in src's constant, so the values b takes as the unknown bits vary are
 * b0 + the span of what flipping each one changes. */
hd_comm hd_comm_family(int n, const hd_affine *src, uint64_t unknown,
                       const hd_affine *dst, hd_lcc *lcc)
{
    hd_comm base = hd_comm_from_owners(n, src, dst, lcc);
    unknown &= hd_mask(n);
    if (!unknown || base.kind == HD_COMM_GENERAL)
        return base;
    hd_lcc first = { 0 };
    bool have = base.kind == HD_COMM_LCC;
    if (have)
        first = *lcc;
    uint64_t varying = 0;
    for (int t = 0; t < n; t++) {
        if (!((unknown >> t) & 1))
            continue;
        hd_affine s = *src;
        hd_lcc other = { .A = hd_matrix_zero(n) };
        s.c ^= UINT64_C(1) << t;
        hd_comm c = hd_comm_from_owners(n, &s, dst, &other);
        if (c.kind == HD_COMM_GENERAL)
            return c;
        if (!have) {
            /* Local where the unknowns are as given: there b is 0. */
            first = other;
            first.b = 0;
            have = true;
        }
        varying |= other.b ^ first.b;
    }
    *lcc = first;
    lcc->b |= varying;
    return (hd_comm){ .kind = HD_COMM_LCC, .lcc = lcc, .b_runtime = varying };
}
