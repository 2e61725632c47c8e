/*
 * omega.c — what a communication costs on an omega-class network, in
 * passes (Wu 1984, Chapters 2 and 5): the one-pass test, D(P), the
 * two-pass factorisation the thesis asserts (after Pease 1977) but does
 * not construct, and Hyperdo's price of an LCC that is no permutation.
 *
 * Bit order.  The thesis writes x = [x_{n-1} ... x_0]^T; Hyperdo's row i
 * is bit i.  With J the anti-identity, a thesis matrix is J A J here, and
 * J L J is upper triangular: Corollary 2.1's one-pass class {L U} is
 * {U L} in this file, every trailing principal submatrix nonsingular.
 * The butterfly (indirect binary n-cube) is R Omega R with R the bit
 * reversal, which is J itself, so its class is {L U} here (Lemma 5.1).
 */
#include "analysis.h"

/* -------------------------------------------------------------- AGL(n,2) */

hd_agl hd_agl_identity(int n)
{
    hd_agl p = { hd_matrix_identity(n), 0 };
    return p;
}

hd_affine hd_agl_affine(const hd_agl *p)
{
    hd_affine F = hd_affine_identity(p->A.n);
    for (int t = 0; t < p->A.n; t++)
        F.row[t] = p->A.row[t];
    F.c = p->b;
    return F;
}

hd_agl hd_affine_agl(const hd_affine *F, int n)
{
    hd_agl p = hd_agl_identity(n);
    for (int t = 0; t < n; t++)
        p.A.row[t] = F->row[t] & hd_mask(n);
    p.b = F->c & hd_mask(n);
    return p;
}

uint64_t hd_agl_apply(const hd_agl *p, uint64_t x)
{
    return hd_matrix_apply(&p->A, x) ^ p->b;
}

hd_agl hd_agl_compose(const hd_agl *second, const hd_agl *first)
{
    hd_agl p = { hd_matrix_mul(&second->A, &first->A),
                 hd_matrix_apply(&second->A, first->b) ^ second->b };
    return p;
}

bool hd_agl_inverse(const hd_agl *p, hd_agl *inv)
{
    hd_matrix ai;
    if (!hd_matrix_inverse(&p->A, &ai))
        return false;
    inv->A = ai;
    inv->b = hd_matrix_apply(&ai, p->b);
    return true;
}

bool hd_agl_equal(const hd_agl *p, const hd_agl *q)
{
    return hd_matrix_equal(&p->A, &q->A) && p->b == q->b;
}

hd_matrix hd_bit_reversal(int n)
{
    hd_matrix r = hd_matrix_zero(n);
    for (int i = 0; i < n; i++)
        r.row[i] = UINT64_C(1) << (n - 1 - i);
    return r;
}

/* ------------------------------------------------------ the one-pass test */

/* A = U L.  Column k = n-1 down to 0: the pivot a_kk must be 1; adding row
 * k to the rows above it that have a 1 in column k (a unit upper
 * triangular operation, since row k is already zero right of k) clears
 * the column above the pivot.  What remains is L, and the operations'
 * inverse is U.  A zero pivot means a trailing principal submatrix is
 * singular, and then no U L exists (the factors are unique, Wu's Lemma
 * 3.1). */
bool hd_ul_factor(const hd_matrix *A, hd_matrix *U, hd_matrix *L)
{
    int n = A->n;
    hd_matrix m = *A, u = hd_matrix_identity(n);
    for (int k = n - 1; k >= 0; k--) {
        if (!(m.row[k] >> k & 1))
            return false;
        for (int i = 0; i < k; i++)
            if (m.row[i] >> k & 1) {
                m.row[i] ^= m.row[k];
                /* E = I + e_i e_k^T is its own inverse; U = E_1 E_2 ...
                 * in the order applied, i.e. U <- U E adds column i of U
                 * into column k. */
                for (int r = 0; r < n; r++)
                    if (u.row[r] >> i & 1)
                        u.row[r] ^= UINT64_C(1) << k;
            }
    }
    if (U)
        *U = u;
    if (L)
        *L = m;
    return true;
}

/* A = L U, the mirror image: pivots from the top, clearing below. */
bool hd_lu_factor(const hd_matrix *A, hd_matrix *L, hd_matrix *U)
{
    int n = A->n;
    hd_matrix m = *A, l = hd_matrix_identity(n);
    for (int k = 0; k < n; k++) {
        if (!(m.row[k] >> k & 1))
            return false;
        for (int i = k + 1; i < n; i++)
            if (m.row[i] >> k & 1) {
                m.row[i] ^= m.row[k];
                for (int r = 0; r < n; r++)
                    if (l.row[r] >> i & 1)
                        l.row[r] ^= UINT64_C(1) << k;
            }
    }
    if (L)
        *L = l;
    if (U)
        *U = m;
    return true;
}

static bool omega_class(hd_target_kind k)
{
    return k == HD_TARGET_OMEGA || k == HD_TARGET_BUTTERFLY;
}

bool hd_one_pass(const hd_target *t, const hd_agl *p)
{
    if (t->kind == HD_TARGET_BUTTERFLY)
        return hd_lu_factor(&p->A, NULL, NULL);
    return hd_ul_factor(&p->A, NULL, NULL);
}

int hd_passes(const hd_target *t, const hd_agl *p)
{
    if (!omega_class(t->kind) || p->A.n != t->n || hd_rank(&p->A) != t->n)
        return HD_EINVAL;
    hd_matrix id = hd_matrix_identity(t->n);
    if (hd_matrix_equal(&p->A, &id))
        return p->b ? 1 : 0;
    return hd_one_pass(t, p) ? 1 : 2;
}

/* ------------------------------------------------- the two-pass factors */

/* For nonsingular A, an upper unit triangular W with A W = U L: then
 * A = (U L) W^-1 is two passes, W^-1 first.  Column j = n-1 down to 0 of
 * A W is A w_j with w_j = e_j plus earlier unit vectors; it is chosen so
 * that the trailing (n-j) x (n-j) block of A W is nonsingular, given that
 * the block below and right of it is (B).
 *
 * Why one unit vector always suffices: write the new block as
 * [[a, r], [c, B]]; it is nonsingular iff a + r B^-1 c = 1, i.e. iff
 * g . w_j = 1 for the linear form g = h A, where h is e_j plus r B^-1 on
 * the rows below j.  g vanishes on w_{j+1} .. w_{n-1} (h annihilates the
 * columns to the right, by construction of r and B) and is not zero (h is
 * not, A is nonsingular); those w span a complement of e_0 .. e_j, so g
 * is 1 on some e_i, i <= j.  If g_j = 1, w_j = e_j; else w_j = e_j + e_i.
 * (This is Pease 1977's L U L in Hyperdo's order, made constructive.) */
static hd_matrix column_fix(const hd_matrix *A)
{
    int n = A->n;
    hd_matrix w = hd_matrix_identity(n), aw = *A;
    for (int j = n - 1; j >= 0; j--) {
        uint64_t tail = hd_mask(n) & ~hd_mask(j);   /* rows and columns >= j */
        if (hd_rank_sub(&aw, tail, tail) == n - j)
            continue;
        for (int i = 0; i < j; i++) {
            /* try column j + column i */
            hd_matrix t = aw;
            for (int r = 0; r < n; r++)
                if (t.row[r] >> i & 1)
                    t.row[r] ^= UINT64_C(1) << j;
            if (hd_rank_sub(&t, tail, tail) == n - j) {
                aw = t;
                for (int r = 0; r < n; r++)
                    if (w.row[r] >> i & 1)
                        w.row[r] ^= UINT64_C(1) << j;
                break;
            }
        }
    }
    return w;
}

/* The omega network's factors of p. */
static void omega_two_pass(const hd_agl *p, hd_agl *first, hd_agl *second)
{
    hd_matrix w = column_fix(&p->A), winv;
    hd_matrix_inverse(&w, &winv);     /* unit upper triangular: invertible */
    first->A = winv;
    first->b = 0;
    second->A = hd_matrix_mul(&p->A, &w);
    second->b = p->b;
}

int hd_two_pass(const hd_target *t, const hd_agl *p, hd_agl *first, hd_agl *second)
{
    int d = hd_passes(t, p);
    if (d < 0)
        return HD_EINVAL;
    if (d <= 1) {
        *first = hd_agl_identity(t->n);
        *second = *p;
        return HD_OK;
    }
    if (t->kind == HD_TARGET_OMEGA) {
        omega_two_pass(p, first, second);
        return HD_OK;
    }
    /* Lemma 5.1: the butterfly's passes are R (omega's) R, R = R^-1. */
    hd_matrix r = hd_bit_reversal(t->n);
    hd_agl rr = { r, 0 }, q = hd_agl_compose(&rr, p), f, s;
    q = hd_agl_compose(&q, &rr);
    omega_two_pass(&q, &f, &s);
    *first = hd_agl_compose(&rr, &f);
    *first = hd_agl_compose(first, &rr);
    *second = hd_agl_compose(&rr, &s);
    *second = hd_agl_compose(second, &rr);
    return HD_OK;
}

/* ------------------------------------------------------ pricing an LCC */

/* Coordinates S of n - r bits on which the kernel K of A projects
 * one-to-one: the leading bits of K's reduced basis.  The sources of one
 * value of x_S are then a translate of the coordinate subspace off S,
 * where A is one-to-one. */
static uint64_t kernel_coordinates(const hd_matrix *A)
{
    hd_space k = hd_null_space(A->row, A->n, A->n);
    return hd_space_leads(&k);
}

/* The columns of A on S (zero in m) chosen so that m is one pass of the
 * omega network ({U L} here: every trailing block T_j, rows and columns
 * >= j, nonsingular), whenever some choice is; false when none is.
 *
 * Columns j = n-1 down to 0, given T_{j+1} = B nonsingular; write T_j =
 * [[a, r], [c, B]].  On S, column j is ours and still zero below row j
 * (c = 0), so a = 1 makes T_j nonsingular.  Off S, a and c are A's, and
 * T_j is nonsingular iff a + r B^-1 c = 1, where r's entries in the
 * columns of S right of j are ours: when the sum is 0 and B^-1 c has a 1
 * in such a column q, setting m_jq fixes it, and rows below j (T_{j+1})
 * do not change.  When B^-1 c = w has none, d = e_j + w is zero on S, so
 * the sources x and x + d of a class (a gather's; a scatter is mirrored
 * by the caller) are both there, and A d = M d is zero below row j and
 * a + r w at row j: T_j singular means these two messages agree in
 * their sources' low j bits and their destinations' high n - j, and so
 * share the line after stage n - j, in every class and every
 * completion. */
static bool one_pass_completion(hd_matrix *m, uint64_t S)
{
    int n = m->n;
    for (int j = n - 1; j >= 0; j--) {
        uint64_t tail = hd_mask(n) & ~hd_mask(j);
        if (S >> j & 1)
            m->row[j] |= UINT64_C(1) << j;
        bool ok = hd_rank_sub(m, tail, tail) == n - j;
        for (int q = j + 1; q < n && !ok; q++) {
            if (!(S >> q & 1))
                continue;
            m->row[j] ^= UINT64_C(1) << q;
            ok = hd_rank_sub(m, tail, tail) == n - j;
            if (!ok)
                m->row[j] ^= UINT64_C(1) << q;
        }
        if (!ok)
            return false;
    }
    return true;
}

static hd_matrix reversed(const hd_matrix *a)
{
    hd_matrix r = hd_bit_reversal(a->n), m = hd_matrix_mul(&r, a);
    return hd_matrix_mul(&m, &r);
}

/* A completed to a nonsingular M: columns off S are A's, those on S make
 * M's classes one pass when any completion's can be (one_pass_completion);
 * else the first unit vectors keeping M's columns independent.  The data
 * of a class move by M (gather) or M^-1 (scatter), one pass of the omega
 * network when M is U L, resp. L U, of the butterfly when M is L U, resp.
 * U L: `mirrored` (butterfly XOR scatter) works on R A R, R the bit
 * reversal (Lemma 5.1), whose trailing blocks are A's leading ones. */
static hd_matrix complete(const hd_matrix *A, uint64_t S, bool mirrored)
{
    int n = A->n;
    hd_matrix m = mirrored ? reversed(A) : *A;
    if (mirrored) {
        uint64_t s2 = 0;
        for (int i = 0; i < n; i++)
            if (S >> i & 1)
                s2 |= UINT64_C(1) << (n - 1 - i);
        S = s2;
    }
    for (int j = 0; j < n; j++)
        if (S >> j & 1)
            for (int r = 0; r < n; r++)
                m.row[r] &= ~(UINT64_C(1) << j);
    hd_matrix zeroed = m;
    if (!one_pass_completion(&m, S)) {
        /* Not one pass: any completion (the free columns start over). */
        m = zeroed;
        for (int j = 0; j < n; j++) {
            if (!(S >> j & 1))
                continue;
            uint64_t cols = 0;
            for (int q = 0; q < n; q++)
                if (!(S >> q & 1) || q < j)
                    cols |= UINT64_C(1) << q;
            int want = hd_rank_sub(&m, hd_mask(n), cols) + 1;
            for (int v = 0; v < n; v++) {
                hd_matrix t = m;
                t.row[v] |= UINT64_C(1) << j;
                if (hd_rank_sub(&t, hd_mask(n), cols | UINT64_C(1) << j) == want) {
                    m = t;
                    break;
                }
            }
        }
    }
    return mirrored ? reversed(&m) : m;
}

hd_agl hd_lcc_moves(const hd_lcc *c)
{
    hd_agl p = { c->A, c->b };
    /* A scatter x = A y + b moves data from x to y = A^-1 (x + b). */
    if (c->dir == HD_SCATTER)
        hd_agl_inverse(&p, &p);
    return p;
}

int hd_omega_price_lcc(const hd_target *t, const hd_lcc *c, hd_omega_price *out)
{
    int n = t->n;
    if (!omega_class(t->kind) || c->A.n != n)
        return HD_EINVAL;
    int r = hd_rank(&c->A);
    out->permutation = r == n;
    if (r == n) {
        hd_agl p = hd_lcc_moves(c);
        out->moves = p;
        out->passes = out->lower = hd_passes(t, &p);
        hd_two_pass(t, &p, &out->first, &out->second);
        return HD_OK;
    }
    out->moves = out->first = out->second = hd_agl_identity(n);
    /* 2^(n-r) messages meet at each destination (leave each source, for a
     * scatter); one of them stays home, and needs no pass, exactly when
     * every image point is fixed: A (A x + b) + b = A x + b for all x,
     * i.e. A^2 = A and A b = 0. */
    hd_matrix a2 = hd_matrix_mul(&c->A, &c->A);
    bool home = hd_matrix_equal(&a2, &c->A) && hd_matrix_apply(&c->A, c->b) == 0;
    uint64_t classes = n - r >= 64 ? UINT64_MAX : UINT64_C(1) << (n - r);
    out->lower = classes - home;
    /* Each class is the completion M on the sources (gather) or the
     * destinations (scatter) with x_S fixed, translated: x -> M x + b_c
     * for a gather, and for a scatter its inverse.  D depends on b_c only
     * when M is the identity. */
    uint64_t S = kernel_coordinates(&c->A);
    hd_matrix M = complete(&c->A, S, (t->kind == HD_TARGET_BUTTERFLY) != (c->dir == HD_SCATTER));
    hd_agl probe = { M, 0 };
    if (c->dir == HD_SCATTER)
        hd_agl_inverse(&probe, &probe);
    int d = hd_passes(t, &probe);
    if (d == 0) {
        /* M = I: class c moves by x -> x + ((A + I) c + b), which is zero
         * for the solutions c (supported on S) of (A + I) c = b: none, or
         * 2^(n - r - rank) of them. */
        uint64_t rows[HD_MAX_DIM];
        uint8_t rhs[HD_MAX_DIM];
        for (int i = 0; i < n; i++) {
            rows[i] = (c->A.row[i] ^ UINT64_C(1) << i) & S;
            rhs[i] = c->b >> i & 1;
        }
        uint64_t one;
        hd_matrix bs = hd_matrix_zero(n);
        for (int i = 0; i < n; i++)
            bs.row[i] = rows[i];
        int free_bits = n - r - hd_rank(&bs);
        uint64_t still = !hd_solve_one(rows, rhs, n, n, &one) ? 0
                         : free_bits >= 64 ? UINT64_MAX : UINT64_C(1) << free_bits;
        out->passes = classes - still;
    } else {
        /* d = 2: twice the classes, saturating at 2^64 - 1 (n - r >= 63
         * only on cubes of 63 or 64 dimensions, which nothing routes). */
        out->passes = n - r >= 63 ? UINT64_MAX : (uint64_t)d << (n - r);
    }
    return HD_OK;
}
