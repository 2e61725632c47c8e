/*
 * coset.c — subspaces of GF(2)^k and the solution sets of linear systems
 * over GF(2): which iterations a processor runs, which ones read its
 * elements, and which elements one processor sends another.
 *
 * Under owner computes, iteration i runs on the processor given by a few
 * GF(2)-affine bits of i (Hou et al. 2001, Section 3: the owner of b[i] under
 * block, cyclic and block-cyclic layouts is a bit field of the element's
 * index, and an affine index keeps it affine).  So "the iterations of
 * processor p" is the solution set of M i = p + c: a particular solution
 * plus the null space of M, a coset.  Enumerating that coset visits
 * exactly p's iterations, 2^(k - rank M) of them, with no test.
 *
 * A subspace is kept in reduced echelon form by highest bit: each basis
 * vector has a leading (highest) bit that no other basis vector has.  Two
 * facts make that form the useful one:
 *   - x -> x with its leading-bit components removed (hd_space_reduce) is
 *     linear and picks one canonical element of each coset x + S;
 *   - with the basis sorted by leading bit, j -> x0 + sum_{bit t of j} v_t
 *     is increasing in j whenever x0 is reduced (the highest bit where two
 *     elements differ is always a leading bit, and there the larger j has
 *     the 1), so a processor runs its iterations in the sequential order.
 */
#include "gf2.h"

#include <string.h>

static int highest_bit(uint64_t x)
{
    return 63 - __builtin_clzll(x);
}

/* The sum of the vectors v[t] for the bits t set in `pick`: an element of
 * a space from its coordinates, or a particular solution from the bits of
 * a right-hand side. */
static uint64_t sum_picked(const uint64_t *v, int n, uint64_t pick)
{
    uint64_t x = 0;
    for (int t = 0; t < n; t++)
        if ((pick >> t) & 1)
            x ^= v[t];
    return x;
}

hd_space hd_space_zero(int k)
{
    hd_space s;
    memset(&s, 0, sizeof s);
    s.k = k;
    return s;
}

uint64_t hd_space_leads(const hd_space *s)
{
    uint64_t m = 0;
    for (int t = 0; t < s->dim; t++)
        m |= UINT64_C(1) << highest_bit(s->v[t]);
    return m;
}

uint64_t hd_space_reduce(const hd_space *s, uint64_t x)
{
    for (int t = 0; t < s->dim; t++)
        if ((x >> highest_bit(s->v[t])) & 1)
            x ^= s->v[t];
    return x;
}

bool hd_space_contains(const hd_space *s, uint64_t x)
{
    return hd_space_reduce(s, x) == 0;
}

/* Inserting a vector whose leading bit is new: clear that bit from the
 * others (they may have it below their own lead), and keep the order. */
bool hd_space_add(hd_space *s, uint64_t x)
{
    x = hd_space_reduce(s, x & hd_mask(s->k));
    if (!x)
        return false;
    int h = highest_bit(x);
    for (int t = 0; t < s->dim; t++)
        if ((s->v[t] >> h) & 1)
            s->v[t] ^= x;
    int at = s->dim;
    while (at > 0 && highest_bit(s->v[at - 1]) > h) {
        s->v[at] = s->v[at - 1];
        at--;
    }
    s->v[at] = x;
    s->dim++;
    return true;
}

uint64_t hd_space_element(const hd_space *s, uint64_t j)
{
    return sum_picked(s->v, s->dim, j);
}

bool hd_space_is_coordinate(const hd_space *s)
{
    for (int t = 0; t < s->dim; t++)
        if (s->v[t] & (s->v[t] - 1))
            return false;
    return true;
}

/* The image of a subspace under the linear part of f. */
hd_space hd_space_image(const hd_space *s, const hd_affine *f, int out_bits)
{
    hd_space img = hd_space_zero(out_bits);
    uint64_t base = hd_affine_apply(f, 0);
    for (int t = 0; t < s->dim; t++)
        hd_space_add(&img, hd_affine_apply(f, s->v[t]) ^ base);
    return img;
}

/* A complement of `sub` inside `whole` (sub must lie in whole): a space T
 * with T + sub = whole and T and sub meeting in 0 only.  Its vectors are
 * reduced modulo sub, so they have no leading bit of sub. */
hd_space hd_space_complement(const hd_space *whole, const hd_space *sub)
{
    hd_space t = hd_space_zero(whole->k);
    for (int i = 0; i < whole->dim; i++)
        hd_space_add(&t, hd_space_reduce(sub, whole->v[i]));
    /* hd_space_add reduces against t only; its vectors stay free of
     * sub's leading bits because every input was. */
    return t;
}

/*
 * Gaussian elimination of the m equations parity(rows[r] & i) = y_r.
 * Each surviving row keeps the combination of equations it sums (comb),
 * and its pivot is its lowest bit; a row that vanishes gives a check on
 * y.  When m > 64 the combinations are not kept (checks and particular
 * solutions are then not asked for).
 */
typedef struct {
    uint64_t row[64], comb[64];
    int rank;
} elimination;

static void eliminate(const uint64_t *rows, int m, int k, elimination *el,
                      uint64_t *checks, int *nchecks)
{
    el->rank = 0;
    if (nchecks)
        *nchecks = 0;
    for (int r = 0; r < m; r++) {
        uint64_t v = rows[r] & hd_mask(k);
        uint64_t comb = r < 64 ? UINT64_C(1) << r : 0;
        for (int p = 0; p < el->rank && v; p++)
            if (v & (el->row[p] & -el->row[p])) {
                v ^= el->row[p];
                comb ^= el->comb[p];
            }
        if (!v) {
            if (checks)
                checks[(*nchecks)++] = comb;
            continue;
        }
        /* Reduced form: clear the new pivot from the earlier rows. */
        uint64_t piv = v & -v;
        for (int p = 0; p < el->rank; p++)
            if (el->row[p] & piv) {
                el->row[p] ^= v;
                el->comb[p] ^= comb;
            }
        el->row[el->rank] = v;
        el->comb[el->rank++] = comb;
    }
}

/* The null space from a reduced elimination: for each free bit f, the
 * vector with x_f = 1, the other free bits 0, and each pivot bit p equal to
 * bit f of p's row. */
static hd_space null_of(const elimination *el, int k)
{
    uint64_t pivots = 0;
    for (int p = 0; p < el->rank; p++)
        pivots |= el->row[p] & -el->row[p];
    hd_space s = hd_space_zero(k);
    for (int f = 0; f < k; f++) {
        uint64_t bit = UINT64_C(1) << f;
        if (pivots & bit)
            continue;
        uint64_t x = bit;
        for (int p = 0; p < el->rank; p++)
            if (el->row[p] & bit)
                x |= el->row[p] & -el->row[p];
        hd_space_add(&s, x);
    }
    return s;
}

hd_space hd_null_space(const uint64_t *rows, int m, int k)
{
    /* More than 64 equations: at most k <= 64 of them are independent, so
     * eliminate in chunks, carrying the independent rows forward. */
    elimination el;
    uint64_t carry[128];
    int ncarry = 0;
    el.rank = 0;
    for (int r = 0; r < m; r++) {
        carry[ncarry++] = rows[r];
        if (ncarry == 128 || r == m - 1) {
            eliminate(carry, ncarry, k, &el, NULL, NULL);
            ncarry = el.rank;
            memcpy(carry, el.row, (size_t)el.rank * sizeof *carry);
        }
    }
    if (m == 0)
        el.rank = 0;
    return null_of(&el, k);
}

int hd_system_solve(const uint64_t *rows, int m, int k, hd_system *out)
{
    if (m < 0 || m > 64 || k < 0 || k > 64)
        return HD_EINVAL;
    memset(out, 0, sizeof *out);
    out->m = m;
    out->k = k;
    elimination el;
    eliminate(rows, m, k, &el, out->check, &out->nchecks);
    out->null = null_of(&el, k);
    /* With every free bit 0, pivot bit p is parity(comb_p & y): equation
     * r contributes the pivot bits of the rows whose comb holds r. */
    for (int p = 0; p < el.rank; p++)
        for (int r = 0; r < m; r++)
            if ((el.comb[p] >> r) & 1)
                out->part[r] ^= el.row[p] & -el.row[p];
    for (int r = 0; r < m; r++)
        out->part[r] = hd_space_reduce(&out->null, out->part[r]);
    return HD_OK;
}

bool hd_system_consistent(const hd_system *s, uint64_t y)
{
    for (int c = 0; c < s->nchecks; c++)
        if (__builtin_parityll(s->check[c] & y))
            return false;
    return true;
}

uint64_t hd_system_particular(const hd_system *s, uint64_t y)
{
    return sum_picked(s->part, s->m, y);
}

/* Elimination with right-hand sides, any number of equations: the pivot
 * rows (at most k of them) are kept reduced, each with its right-hand
 * bit; a row that vanishes with a 1 on the right is a contradiction. */
bool hd_solve_one(const uint64_t *rows, const uint8_t *rhs, int m, int k, uint64_t *x)
{
    uint64_t piv_row[64];
    uint8_t piv_rhs[64];
    int rank = 0;
    for (int r = 0; r < m; r++) {
        uint64_t v = rows[r] & hd_mask(k);
        uint8_t b = rhs[r] & 1;
        for (int p = 0; p < rank && v; p++)
            if (v & (piv_row[p] & -piv_row[p])) {
                v ^= piv_row[p];
                b ^= piv_rhs[p];
            }
        if (!v) {
            if (b)
                return false;
            continue;
        }
        uint64_t lo = v & -v;
        for (int p = 0; p < rank; p++)
            if (piv_row[p] & lo) {
                piv_row[p] ^= v;
                piv_rhs[p] ^= b;
            }
        piv_row[rank] = v;
        piv_rhs[rank++] = b;
    }
    /* Free bits 0: each pivot bit is its row's right-hand side. */
    uint64_t sol = 0;
    for (int p = 0; p < rank; p++)
        if (piv_rhs[p])
            sol |= piv_row[p] & -piv_row[p];
    if (x)
        *x = sol;
    return true;
}

/*
 * A flow dependence between affine references: iterations iw < ir with
 * w(iw) = r(ir) on the low `bits` output bits.  With w one-to-one, the
 * writer of r(ir) is iw = G ir + g wherever r(ir) is an element w writes
 * (a linear condition on ir).  ir > iw means that at the highest bit h
 * where they differ, ir has the 1: for each h, "bits of iw + ir above h
 * are 0, bit h is 1, bit h of ir is 1" are linear too, so k systems
 * decide it exactly, whatever the loop's size.
 */
int hd_affine_flow_conflict(const hd_affine *w, const hd_affine *r, int bits,
                            uint64_t *iw, uint64_t *ir)
{
    int k = w->in;
    if (r->in != k || bits < 0 || bits > 62 || k > 64)
        return HD_EINVAL;
    uint64_t wrows[64];
    for (int j = 0; j < bits; j++)
        wrows[j] = w->row[j] & hd_mask(k);
    hd_system sys;
    hd_system_solve(wrows, bits, k, &sys);
    if (sys.null.dim > 0)
        return HD_EINVAL;     /* two iterations write one element */
    uint64_t c = (w->c ^ r->c) & hd_mask(bits);
    /* y = R ir + c must satisfy the checks; iw = sum of part[j] over y_j. */
    uint64_t rows[64 + 64 + 2];
    uint8_t rhs[64 + 64 + 2];
    int m0 = 0;
    for (int t = 0; t < sys.nchecks; t++) {
        uint64_t row = 0;
        for (int j = 0; j < bits; j++)
            if ((sys.check[t] >> j) & 1)
                row ^= r->row[j];
        rows[m0] = row & hd_mask(k);
        rhs[m0++] = (uint8_t)__builtin_parityll(sys.check[t] & c);
    }
    uint64_t G[64], g = 0;
    for (int b = 0; b < k; b++) {
        G[b] = 0;
        for (int j = 0; j < bits; j++)
            if ((sys.part[j] >> b) & 1) {
                G[b] ^= r->row[j];
                g ^= ((c >> j) & 1) << b;
            }
        G[b] &= hd_mask(k);
    }
    for (int h = k - 1; h >= 0; h--) {
        int m = m0;
        /* d = iw ^ ir = (G + I) ir + g: d_j = 0 for j > h, d_h = 1. */
        for (int j = k - 1; j >= h; j--) {
            rows[m] = G[j] ^ (UINT64_C(1) << j);
            rhs[m++] = (uint8_t)(((g >> j) & 1) ^ (j == h));
        }
        rows[m] = UINT64_C(1) << h;
        rhs[m++] = 1;
        uint64_t x;
        if (hd_solve_one(rows, rhs, m, k, &x)) {
            if (ir)
                *ir = x;
            if (iw) {
                uint64_t v = 0;
                for (int b = 0; b < k; b++)
                    v |= (uint64_t)(__builtin_parityll(G[b] & x) ^ ((g >> b) & 1)) << b;
                *iw = v;
            }
            return 1;
        }
    }
    return 0;
}
