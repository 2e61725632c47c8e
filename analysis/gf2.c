/*
 * gf2.c — binary matrices over GF(2), one uint64_t per row, and the
 * reordering mappings (permutations of address bits) that act on them.
 */
#include "gf2.h"

#include <string.h>

uint64_t hd_mask(int n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

static int parity(uint64_t v)
{
    return __builtin_parityll(v);
}

hd_matrix hd_matrix_zero(int n)
{
    hd_matrix m;
    memset(&m, 0, sizeof m);
    m.n = n;
    return m;
}

hd_matrix hd_matrix_identity(int n)
{
    hd_matrix m = hd_matrix_zero(n);
    for (int i = 0; i < n; i++)
        m.row[i] = UINT64_C(1) << i;
    return m;
}

bool hd_matrix_equal(const hd_matrix *a, const hd_matrix *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++)
        if (a->row[i] != b->row[i])
            return false;
    return true;
}

uint64_t hd_matrix_apply(const hd_matrix *a, uint64_t x)
{
    uint64_t y = 0;
    for (int i = 0; i < a->n; i++)
        y |= (uint64_t)parity(a->row[i] & x) << i;
    return y;
}

/* Row i of A B is the sum of the rows of B selected by row i of A. */
hd_matrix hd_matrix_mul(const hd_matrix *a, const hd_matrix *b)
{
    hd_matrix p = hd_matrix_zero(a->n);
    for (int i = 0; i < a->n; i++)
        for (uint64_t s = a->row[i]; s; s &= s - 1)
            p.row[i] ^= b->row[__builtin_ctzll(s)];
    return p;
}

uint64_t hd_matrix_column(const hd_matrix *a, int j)
{
    uint64_t c = 0;
    for (int i = 0; i < a->n; i++)
        c |= ((a->row[i] >> j) & 1) << i;
    return c;
}

hd_matrix hd_matrix_transpose(const hd_matrix *a)
{
    hd_matrix t = hd_matrix_zero(a->n);
    for (int j = 0; j < a->n; j++)
        t.row[j] = hd_matrix_column(a, j);
    return t;
}

/*
 * Gaussian elimination on the rows of A_{R,C}, keeping each basis row's
 * pivot out of the rows inserted after it; that suffices to decide
 * membership by reducing in insertion order.
 */
int hd_rank_sub(const hd_matrix *a, uint64_t rows, uint64_t cols)
{
    uint64_t basis[HD_MAX_DIM];
    int rank = 0;
    for (uint64_t s = rows & hd_mask(a->n); s; s &= s - 1) {
        uint64_t v = a->row[__builtin_ctzll(s)] & cols;
        for (int t = 0; t < rank && v; t++)
            if (v & (basis[t] & -basis[t]))
                v ^= basis[t];
        if (v)
            basis[rank++] = v;
    }
    return rank;
}

int hd_rank(const hd_matrix *a)
{
    return hd_rank_sub(a, hd_mask(a->n), hd_mask(a->n));
}

int hd_rank_rows(const uint64_t *rows, int nrows)
{
    /* Each kept row reduced by the earlier pivots' lowest bits: the rows
     * that stay nonzero are independent. */
    uint64_t piv[64];
    int rank = 0;
    for (int r = 0; r < nrows && rank < 64; r++) {
        uint64_t w = rows[r];
        for (int t = 0; t < rank && w; t++)
            if (w & (piv[t] & -piv[t]))
                w ^= piv[t];
        if (w)
            piv[rank++] = w;
    }
    return rank;
}

/*
 * Column elimination of A_{R,C} that remembers, for every reduced column w,
 * the set u of original columns it sums (w = A u restricted to R).  The
 * columns whose reductions vanish give a basis of the null space; a column
 * depends on the others exactly when some null vector contains it.
 */
uint64_t hd_dependent_columns(const hd_matrix *a, uint64_t rows,
                              uint64_t cols)
{
    uint64_t pw[HD_MAX_DIM], pu[HD_MAX_DIM];
    int npiv = 0;
    uint64_t dependent = 0;
    rows &= hd_mask(a->n);
    for (uint64_t s = cols & hd_mask(a->n); s; s &= s - 1) {
        int j = __builtin_ctzll(s);
        uint64_t w = hd_matrix_column(a, j) & rows;
        uint64_t u = UINT64_C(1) << j;
        for (int t = 0; t < npiv && w; t++)
            if (w & (pw[t] & -pw[t])) {
                w ^= pw[t];
                u ^= pu[t];
            }
        if (w) {
            pw[npiv] = w;
            pu[npiv++] = u;
        } else {
            dependent |= u;
        }
    }
    return dependent;
}

/* Gauss-Jordan on [A | I]. */
bool hd_matrix_inverse(const hd_matrix *a, hd_matrix *inv)
{
    int n = a->n;
    hd_matrix m = *a, r = hd_matrix_identity(n);
    for (int col = 0; col < n; col++) {
        int p = col;
        while (p < n && !((m.row[p] >> col) & 1))
            p++;
        if (p == n)
            return false;
        uint64_t t = m.row[p]; m.row[p] = m.row[col]; m.row[col] = t;
        t = r.row[p]; r.row[p] = r.row[col]; r.row[col] = t;
        for (int i = 0; i < n; i++)
            if (i != col && ((m.row[i] >> col) & 1)) {
                m.row[i] ^= m.row[col];
                r.row[i] ^= r.row[col];
            }
    }
    *inv = r;
    return true;
}

bool hd_matrix_is_permutation(const hd_matrix *a)
{
    uint64_t seen = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t r = a->row[i];
        if (r == 0 || (r & (r - 1)) || (r & seen) || (r & ~hd_mask(a->n)))
            return false;
        seen |= r;
    }
    return true;
}

hd_order hd_order_identity(int n)
{
    hd_order o;
    memset(&o, 0, sizeof o);
    o.n = n;
    for (int k = 0; k < n; k++)
        o.r[k] = (uint8_t)k;
    return o;
}

bool hd_order_is_valid(const hd_order *o)
{
    uint64_t seen = 0;
    if (o->n < 1 || o->n > HD_MAX_DIM)
        return false;
    for (int k = 0; k < o->n; k++) {
        if (o->r[k] >= o->n || ((seen >> o->r[k]) & 1))
            return false;
        seen |= UINT64_C(1) << o->r[k];
    }
    return true;
}

hd_order hd_order_reversed(const hd_order *o)
{
    hd_order v = *o;
    for (int k = 0; k < o->n; k++)
        v.r[k] = o->r[o->n - 1 - k];
    return v;
}

hd_order hd_order_inverse(const hd_order *o)
{
    hd_order v = *o;
    for (int k = 0; k < o->n; k++)
        v.r[o->r[k]] = (uint8_t)k;
    return v;
}

hd_matrix hd_order_matrix(const hd_order *o)
{
    hd_matrix q = hd_matrix_zero(o->n);
    for (int k = 0; k < o->n; k++)
        q.row[k] = UINT64_C(1) << o->r[k];
    return q;
}

uint64_t hd_order_apply(const hd_order *o, uint64_t x)
{
    uint64_t y = 0;
    for (int k = 0; k < o->n; k++)
        y |= ((x >> o->r[k]) & 1) << k;
    return y;
}
