/*
 * wu_mapping.c — Wu 1984's data-mapping optimizers for omega-class
 * networks: static mapping of one vector (Section 2.2, Theorem 2.2),
 * mapping sequences (Chapter 3: Theorems 3.3-3.10, Algorithms I and II),
 * the butterfly through R = bit reversal (Chapter 5: Algorithms V and
 * VI), an exact dynamic program over AGL(n, 2) as the oracle, and
 * Theorem 3.5's constructions as heuristics for any n.
 *
 * Bit order and the groups.  Hyperdo's order (omega.c) makes the omega
 * network's one-pass class W = {x -> U L x + b}; the thesis's L (with the
 * complement in its first column, the augmented form of Section 2.3) is
 * the group UP = {x -> U x + b} here, its U the group LO = {x -> L x}.
 * So, for the omega network:
 *     W = UP LO,   F_all,h = LO UP P_h  (Theorem 3.3's U L P_h),
 *     a coset "U L_t P_h" of Algorithm I = LO a_t P_h, a_t in UP,
 *     Lemma 3.4's U L U = L U L here (LO UP LO), Lemma 3.3's L U L = U L U.
 * The butterfly is R W R (Lemma 5.1): its class is {x -> L U x + b}.
 *
 * Two representations.  The search, the heuristics and the costs work on
 * hd_agl for any n.  The exact sequence optimizers (n <= 4) work on an
 * element packed into 32 bits, row i of A in bits n i .. n i + n - 1 and b
 * above them, so that tables over all of AGL(n, 2) are arrays.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- costs */

static bool omega_class(const hd_target *t)
{
    return t->kind == HD_TARGET_OMEGA || t->kind == HD_TARGET_BUTTERFLY;
}

static bool agl_ok(const hd_target *t, const hd_agl *p)
{
    return p->A.n == t->n && hd_rank(&p->A) == t->n;
}

/* p q^-1 (both nonsingular). */
static hd_agl agl_div(const hd_agl *p, const hd_agl *q)
{
    hd_agl qi;
    hd_agl_inverse(q, &qi);
    return hd_agl_compose(p, &qi);
}

int hd_wu_transfer_cost(const hd_target *t, const hd_agl *P, const hd_agl *F)
{
    if (!omega_class(t) || !agl_ok(t, P) || !agl_ok(t, F))
        return HD_EINVAL;
    hd_agl x = agl_div(P, F);
    return hd_passes(t, &x);
}

int hd_wu_remap_cost(const hd_target *t, const hd_agl *from, const hd_agl *to)
{
    return hd_wu_transfer_cost(t, to, from);
}

int hd_wu_sequence_cost(const hd_target *t, const hd_agl *P, const hd_agl *F, int k)
{
    if (k < 1)
        return HD_EINVAL;
    int sum = 0;
    for (int h = 0; h < k; h++) {
        int d = hd_wu_transfer_cost(t, &P[h], &F[h]);
        if (d < 0)
            return d;
        sum += d;
        if (h > 0) {
            d = hd_wu_remap_cost(t, &F[h - 1], &F[h]);
            if (d < 0)
                return d;
            sum += d;
        }
    }
    return sum;
}

/* ------------------------------------------- Definitions 2.1-2.2, Thm 2.2 */

hd_agl hd_wu_perfect_shuffle(int n)
{
    hd_agl p = { hd_matrix_zero(n), 0 };
    for (int i = 0; i < n; i++)
        p.A.row[i] = UINT64_C(1) << ((i + n - 1) % n);
    return p;
}

hd_agl hd_wu_bit_reversal(int n)
{
    hd_agl p = { hd_bit_reversal(n), 0 };
    return p;
}

/* Theorem 2.2 as printed (thesis order, row i = bit n-1-i): f_i,n-1-i = 1,
 * and f_i,i+1 = 1 for (n-1)/2 <= i <= n-2 (n odd), n/2 <= i <= n-2 (n
 * even), i.e. for floor(n/2) <= i <= n-2; then J F J. */
hd_agl hd_wu_theorem22(int n)
{
    hd_agl f = { hd_matrix_zero(n), 0 };
    for (int i = 0; i < n; i++) {
        int cols[2] = { n - 1 - i, i >= n / 2 && i <= n - 2 ? i + 1 : -1 };
        for (int c = 0; c < 2; c++)
            if (cols[c] >= 0)
                f.A.row[n - 1 - i] |= UINT64_C(1) << (n - 1 - cols[c]);
    }
    return f;
}

/* ---------------------------------------- Chapter 5: conjugating by R */

/* R x R with R the bit reversal (R = R^-1): the butterfly's problems are
 * the omega network's on conjugates (Lemma 5.1: D_N(X) = D_Omega(R X R)). */
static hd_agl conj_r(const hd_agl *x)
{
    hd_agl r = hd_wu_bit_reversal(x->A.n);
    hd_agl y = hd_agl_compose(&r, x);
    return hd_agl_compose(&y, &r);
}

/* ------------------------------------------------ Lemma 3.3, Theorem 3.4 */

/* Lemma 3.3 on the omega network: P Q^-1 = second first with first unit
 * upper (its inverse one pass) and second one pass (hd_two_pass, U L U
 * here); F = first Q gives Q F^-1 = first^-1 and P F^-1 = second. */
static hd_agl common_omega(const hd_target *t, const hd_agl *P, const hd_agl *Q)
{
    hd_agl x = agl_div(P, Q), first, second;
    hd_two_pass(t, &x, &first, &second);
    return hd_agl_compose(&first, Q);
}

int hd_wu_common_mapping(const hd_target *t, const hd_agl *P, const hd_agl *Q, hd_agl *F)
{
    if (!omega_class(t) || !agl_ok(t, P) || !agl_ok(t, Q))
        return HD_EINVAL;
    if (t->kind == HD_TARGET_OMEGA) {
        *F = common_omega(t, P, Q);
        return HD_OK;
    }
    hd_target o = hd_target_omega(t->n);
    hd_agl p = conj_r(P), q = conj_r(Q), f = common_omega(&o, &p, &q);
    *F = conj_r(&f);
    return HD_OK;
}

/* Theorem 3.4 on the omega network: G F^-1 = X has linear part L1 U' L2
 * (Lemma 3.4's U L U in the thesis's order), found as J-conjugate of
 * hd_two_pass's U L U factors of J X J; G' = L1^-1 G.  Left factors from
 * LO keep every transfer one pass under G (Theorem 3.2). */
static hd_agl cheap_omega(const hd_target *t, const hd_agl *from, const hd_agl *G)
{
    hd_agl x = agl_div(G, from);
    if (hd_passes(t, &x) <= 1)
        return *G;
    int n = t->n;
    hd_matrix j = hd_bit_reversal(n);
    hd_matrix jx = hd_matrix_mul(&j, &x.A);
    jx = hd_matrix_mul(&jx, &j);
    hd_agl p = { jx, 0 }, first, second;
    hd_two_pass(t, &p, &first, &second);
    hd_matrix u1, l;
    hd_ul_factor(&second.A, &u1, &l);      /* second is one pass: U L */
    hd_matrix l1 = hd_matrix_mul(&j, &u1);
    l1 = hd_matrix_mul(&l1, &j);
    hd_agl l1a = { l1, 0 }, l1inv;
    hd_agl_inverse(&l1a, &l1inv);
    return hd_agl_compose(&l1inv, G);
}

int hd_wu_cheap_remap(const hd_target *t, const hd_agl *from, const hd_agl *G, hd_agl *out)
{
    if (!omega_class(t) || !agl_ok(t, from) || !agl_ok(t, G))
        return HD_EINVAL;
    if (t->kind == HD_TARGET_OMEGA) {
        *out = cheap_omega(t, from, G);
        return HD_OK;
    }
    hd_target o = hd_target_omega(t->n);
    hd_agl f = conj_r(from), g = conj_r(G), r = cheap_omega(&o, &f, &g);
    *out = conj_r(&r);
    return HD_OK;
}

/* ------------------------------------ static mapping: the flag search */

/* The subspaces V_k after which the search found nothing, remembered by
 * their reduced bases (hd_space's form is unique for a subspace), so that
 * a subspace reached along another chain V_1 < ... < V_k is not searched
 * again: whether the later columns can be chosen depends on V_k alone. */
typedef struct {
    uint64_t *pool;        /* bases, dim words each */
    size_t pool_used, pool_cap;
    size_t *slot;          /* offset + 1 into pool (0: empty), by hash */
    uint8_t *slot_dim;
    size_t nslots, used;
} subspace_set;

static uint64_t space_hash(const hd_space *s)
{
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)s->dim;
    for (int i = 0; i < s->dim; i++) {
        h ^= s->v[i];
        h *= 0x100000001b3u;
        h ^= h >> 29;
    }
    return h;
}

static bool set_find(const subspace_set *m, const hd_space *s, size_t *at)
{
    size_t mask = m->nslots - 1, i = (size_t)space_hash(s) & mask;
    for (;; i = (i + 1) & mask) {
        if (!m->slot[i]) {
            *at = i;
            return false;
        }
        if (m->slot_dim[i] == s->dim &&
            !memcmp(m->pool + m->slot[i] - 1, s->v, (size_t)s->dim * sizeof(uint64_t)))
            return true;
    }
}

static void set_add(subspace_set *m, const hd_space *s);

static void set_grow(subspace_set *m)
{
    subspace_set old = *m;
    m->nslots = old.nslots ? old.nslots * 2 : 1024;
    m->slot = hd_xcalloc(m->nslots, sizeof *m->slot);
    m->slot_dim = hd_xcalloc(m->nslots, 1);
    m->used = 0;
    for (size_t i = 0; i < old.nslots; i++)
        if (old.slot[i]) {
            size_t at;
            hd_space s;
            s.dim = old.slot_dim[i];
            memcpy(s.v, old.pool + old.slot[i] - 1, (size_t)s.dim * sizeof(uint64_t));
            set_find(m, &s, &at);
            m->slot[at] = old.slot[i];
            m->slot_dim[at] = old.slot_dim[i];
            m->used++;
        }
    free(old.slot);
    free(old.slot_dim);
}

static void set_add(subspace_set *m, const hd_space *s)
{
    size_t at;
    if (2 * (m->used + 1) > m->nslots)
        set_grow(m);
    if (set_find(m, s, &at))
        return;
    if (m->pool_used + (size_t)s->dim + 1 > m->pool_cap) {
        m->pool_cap = m->pool_cap ? m->pool_cap * 2 : 4096;
        m->pool = hd_xrealloc(m->pool, m->pool_cap * sizeof *m->pool);
    }
    memcpy(m->pool + m->pool_used, s->v, (size_t)s->dim * sizeof(uint64_t));
    m->slot[at] = m->pool_used + 1;
    m->slot_dim[at] = (uint8_t)s->dim;
    m->pool_used += (size_t)s->dim + (s->dim == 0);
    m->used++;
}

static void set_free(subspace_set *m)
{
    free(m->pool);
    free(m->slot);
    free(m->slot_dim);
}

/* One feasibility search over the linear parts A[sel[0..m)] (omega
 * order).  col[s] is the column n-1-s of M = F^-1. */
typedef struct {
    int n, m;
    const hd_matrix *A;
    const int *sel;
    uint64_t col[HD_MAX_DIM];
    long nodes, budget;    /* budget <= 0: none */
    subspace_set failed;
    uint64_t *rows;        /* m scratch rows */
    uint8_t *ones;         /* m right-hand sides, all 1 */
} flag_search;

/* lambda_{j,k}: the combination of rows n-k .. n-1 of A that vanishes on
 * the k-1 chosen columns (unique: those rows restricted to the chosen
 * span form a nonsingular block, by the previous steps). */
static uint64_t hyperplane(const flag_search *fs, const hd_matrix *A, int k)
{
    int n = fs->n;
    /* Equation s: sum_i c_i (row_{n-k+i} . col_s) = 0, unknowns c_0..c_{k-1}. */
    uint64_t eq[HD_MAX_DIM] = { 0 };
    for (int s = 0; s < k - 1; s++) {
        eq[s] = 0;
        for (int i = 0; i < k; i++)
            if (__builtin_parityll(A->row[n - k + i] & fs->col[s]))
                eq[s] |= UINT64_C(1) << i;
    }
    hd_space c = hd_null_space(eq, k - 1, k);
    uint64_t lambda = 0;
    for (int i = 0; i < k; i++)
        if (c.v[0] >> i & 1)
            lambda ^= A->row[n - k + i];
    return lambda;
}

/* 1: columns k-1 .. n-1 chosen (col[k-1 ..]); 0: none from V; or
 * HD_ETOOBIG. */
static int flag_step(flag_search *fs, int k, const hd_space *V)
{
    int n = fs->n;
    if (++fs->nodes > fs->budget && fs->budget > 0)
        return HD_ETOOBIG;
    if (k == n) {
        /* V_n is everything: every transfer's last condition is the same
         * hyperplane V_{n-1}, and any vector off it will do. */
        for (int i = 0; i < n; i++)
            if (!hd_space_contains(V, UINT64_C(1) << i)) {
                fs->col[n - 1] = UINT64_C(1) << i;
                return 1;
            }
        return 0;
    }
    /* The rows are used up before the recursion, so one scratch array
     * serves every depth. */
    for (int j = 0; j < fs->m; j++)
        fs->rows[j] = hyperplane(fs, &fs->A[fs->sel[j]], k);
    uint64_t x0;
    if (!hd_solve_one(fs->rows, fs->ones, fs->m, n, &x0))
        return 0;
    hd_space null = hd_null_space(fs->rows, fs->m, n);
    hd_space q = hd_space_complement(&null, V);
    /* The candidates are x0 + span(q), one per coset of V (q.dim <= n-1:
     * null is inside a hyperplane). */
    uint64_t count = UINT64_C(1) << q.dim;
    for (uint64_t c = 0; c < count; c++) {
        uint64_t v = x0 ^ hd_space_element(&q, c);
        hd_space next = *V;
        hd_space_add(&next, v);
        size_t at;
        if (fs->failed.nslots && set_find(&fs->failed, &next, &at))
            continue;
        fs->col[k - 1] = v;
        int r = flag_step(fs, k + 1, &next);
        if (r != 0)
            return r;
        set_add(&fs->failed, &next);
    }
    return 0;
}

/* The mapping the columns describe: F = M^-1, its complement chosen to
 * equal as many transfers as possible (D = 0 for those). */
static hd_agl flag_mapping(const flag_search *fs, const hd_agl *P, int m)
{
    int n = fs->n;
    hd_matrix M = hd_matrix_zero(n);
    for (int s = 0; s < n; s++)
        for (int i = 0; i < n; i++)
            if (fs->col[s] >> i & 1)
                M.row[i] |= UINT64_C(1) << (n - 1 - s);
    hd_agl F = { hd_matrix_zero(n), 0 };
    hd_matrix_inverse(&M, &F.A);
    int best = 0;
    for (int i = 0; i < m; i++) {
        if (!hd_matrix_equal(&P[i].A, &F.A))
            continue;
        int same = 0;
        for (int j = 0; j < m; j++)
            same += hd_matrix_equal(&P[j].A, &F.A) && P[j].b == P[i].b;
        if (same > best) {
            best = same;
            F.b = P[i].b;
        }
    }
    return F;
}

static int static_eval(const hd_target *t, const hd_agl *P, int m, hd_wu_static *out)
{
    out->cost = out->one_pass = 0;
    for (int j = 0; j < m; j++) {
        int d = hd_wu_transfer_cost(t, &P[j], &out->F);
        out->cost += d;
        out->one_pass += d <= 1;
    }
    return out->cost;
}

/* The search on the omega network for the transfers sel[0..m) of P. */
static int feasible_omega(int n, const hd_agl *P, const int *sel, int m, long budget,
                          long *nodes, hd_agl *F)
{
    hd_matrix *A = hd_xmalloc((size_t)m * sizeof *A);
    for (int j = 0; j < m; j++)
        A[j] = P[sel[j]].A;
    int *ident = hd_xmalloc((size_t)m * sizeof *ident);
    for (int j = 0; j < m; j++)
        ident[j] = j;
    flag_search fs = { .n = n, .m = m, .A = A, .sel = ident, .budget = budget };
    fs.rows = hd_xmalloc((size_t)m * sizeof *fs.rows);
    fs.ones = hd_xmalloc((size_t)m);
    memset(fs.ones, 1, (size_t)m);
    hd_space none = hd_space_zero(n);
    int r = flag_step(&fs, 1, &none);
    free(fs.rows);
    free(fs.ones);
    *nodes += fs.nodes;
    if (r == 1) {
        hd_agl *sub = hd_xmalloc((size_t)m * sizeof *sub);
        for (int j = 0; j < m; j++)
            sub[j] = P[sel[j]];
        *F = flag_mapping(&fs, sub, m);
        free(sub);
    }
    set_free(&fs.failed);
    free(ident);
    free(A);
    return r;
}

static bool all_ok(const hd_target *t, const hd_agl *P, int m)
{
    if (!omega_class(t) || m < 1)
        return false;
    for (int j = 0; j < m; j++)
        if (!agl_ok(t, &P[j]))
            return false;
    return true;
}

/* The butterfly: search on R P_j R, then F = R F' R. */
static int feasible_sel(const hd_target *t, const hd_agl *P, const int *sel, int m,
                        long budget, long *nodes, hd_agl *F)
{
    if (t->kind == HD_TARGET_OMEGA)
        return feasible_omega(t->n, P, sel, m, budget, nodes, F);
    hd_agl *c = hd_xmalloc((size_t)m * sizeof *c);
    int *id = hd_xmalloc((size_t)m * sizeof *id);
    for (int j = 0; j < m; j++) {
        c[j] = conj_r(&P[sel[j]]);
        id[j] = j;
    }
    hd_agl f;
    int r = feasible_omega(t->n, c, id, m, budget, nodes, &f);
    if (r == 1)
        *F = conj_r(&f);
    free(id);
    free(c);
    return r;
}

int hd_wu_static_feasible(const hd_target *t, const hd_agl *P, int m, long budget,
                          hd_wu_static *out)
{
    if (!all_ok(t, P, m))
        return HD_EINVAL;
    int *sel = hd_xmalloc((size_t)m * sizeof *sel);
    for (int j = 0; j < m; j++)
        sel[j] = j;
    out->nodes = 0;
    int r = feasible_sel(t, P, sel, m, budget, &out->nodes, &out->F);
    free(sel);
    if (r == 1)
        static_eval(t, P, m, out);
    return r;
}

/* Next subset of size s of 0..m-1 in lexicographic order (sel sorted);
 * false after the last. */
static bool next_subset(int *sel, int s, int m)
{
    int i = s - 1;
    while (i >= 0 && sel[i] == m - s + i)
        i--;
    if (i < 0)
        return false;
    sel[i]++;
    for (int j = i + 1; j < s; j++)
        sel[j] = sel[j - 1] + 1;
    return true;
}

int hd_wu_static_best(const hd_target *t, const hd_agl *P, int m, long budget,
                      hd_wu_static *out)
{
    if (!all_ok(t, P, m) || m > 30)
        return HD_EINVAL;
    /* F = P_i: the only mappings under which some transfer costs 0. */
    hd_wu_static best = { .F = P[0], .cost = 0 };
    static_eval(t, P, m, &best);
    for (int i = 1; i < m; i++) {
        hd_wu_static c = { .F = P[i] };
        if (static_eval(t, P, m, &c) < best.cost)
            best = c;
    }
    long nodes = 0;
    int *sel = hd_xmalloc((size_t)m * sizeof *sel);
    int status = HD_OK;
    /* Any other F costs 2m - |J(F)|: the largest J one F serves is the
     * first size at which some subset is feasible. */
    for (int s = m; s >= 1 && status == HD_OK; s--) {
        if (2 * m - s >= best.cost)
            break;                  /* cannot beat what we have */
        for (int j = 0; j < s; j++)
            sel[j] = j;
        bool found = false;
        do {
            hd_agl f;
            long left = budget > 0 ? budget - nodes : 0;
            if (budget > 0 && left <= 0) {
                status = HD_ETOOBIG;
                break;
            }
            int r = feasible_sel(t, P, sel, s, left, &nodes, &f);
            if (r < 0) {
                status = r;
                break;
            }
            if (r == 1) {
                hd_wu_static c = { .F = f };
                if (static_eval(t, P, m, &c) < best.cost)
                    best = c;
                found = true;
            }
        } while (!found && next_subset(sel, s, m));
        if (found)
            break;
    }
    free(sel);
    best.nodes = nodes;
    *out = best;
    return status;
}

/* ------------------------------------------ AGL(n, 2) as 32-bit codes */

/* Every element of AGL(n, 2), n <= HD_WU_EXACT_MAX_DIM, by code: row i of
 * A in bits n i .. n i + n - 1, b in bits n^2 .. n^2 + n - 1.  Tables over
 * all 2^(n^2+n) codes hold each element's inverse and D on the target. */
typedef struct {
    int n, nn;
    bool butterfly;
    uint32_t size;          /* 2^(n^2+n) codes */
    uint32_t nel;           /* |AGL(n, 2)| valid ones */
    uint32_t *els;          /* the valid codes */
    uint32_t *inv;          /* size entries: the inverse's code */
    int8_t *D;              /* size entries: D(x), -1 for a singular A */
    uint32_t ident;
} wu_group;

static void unpack(const wu_group *g, uint32_t c, uint32_t row[], uint32_t *b)
{
    uint32_t m = (1u << g->n) - 1;
    for (int i = 0; i < g->n; i++)
        row[i] = c >> (g->n * i) & m;
    *b = c >> g->nn;
}

static uint32_t pack(const wu_group *g, const uint32_t row[], uint32_t b)
{
    uint32_t c = b << g->nn;
    for (int i = 0; i < g->n; i++)
        c |= row[i] << (g->n * i);
    return c;
}

static uint32_t lin_apply(const uint32_t row[], int n, uint32_t x)
{
    uint32_t y = 0;
    for (int i = 0; i < n; i++)
        y |= (uint32_t)__builtin_parity(row[i] & x) << i;
    return y;
}

/* The XOR of every subset of the rows: comb[m] = sum of row[j], j in m. */
static void row_sums(int n, const uint32_t row[], uint32_t comb[])
{
    comb[0] = 0;
    for (int j = 0; j < n; j++)
        for (uint32_t m = 0; m < 1u << j; m++)
            comb[m | 1u << j] = comb[m] ^ row[j];
}

/* x after y (x y): row i of the product is the sum of y's rows that
 * x's row i selects. */
static uint32_t gmul(const wu_group *g, uint32_t x, uint32_t y)
{
    uint32_t xr[HD_WU_EXACT_MAX_DIM], yr[HD_WU_EXACT_MAX_DIM], xb, yb, r[HD_WU_EXACT_MAX_DIM];
    uint32_t comb[1u << HD_WU_EXACT_MAX_DIM];
    unpack(g, x, xr, &xb);
    unpack(g, y, yr, &yb);
    row_sums(g->n, yr, comb);
    for (int i = 0; i < g->n; i++)
        r[i] = comb[xr[i]];
    return pack(g, r, lin_apply(xr, g->n, yb) ^ xb);
}

/* Inverse of a linear part by Gauss-Jordan; false when singular. */
static bool lin_inverse(int n, const uint32_t row[], uint32_t out[])
{
    uint32_t m[HD_WU_EXACT_MAX_DIM], id[HD_WU_EXACT_MAX_DIM];
    for (int i = 0; i < n; i++) {
        m[i] = row[i];
        id[i] = 1u << i;
    }
    for (int c = 0; c < n; c++) {
        int p = c;
        while (p < n && !(m[p] >> c & 1))
            p++;
        if (p == n)
            return false;
        uint32_t t = m[c]; m[c] = m[p]; m[p] = t;
        t = id[c]; id[c] = id[p]; id[p] = t;
        for (int r = 0; r < n; r++)
            if (r != c && (m[r] >> c & 1)) {
                m[r] ^= m[c];
                id[r] ^= id[c];
            }
    }
    memcpy(out, id, (size_t)n * sizeof *out);
    return true;
}

/* One pass: the omega network's trailing principal blocks nonsingular
 * (U L), the butterfly's leading ones (L U), by elimination from that
 * corner; a zero pivot is a singular block. */
static bool code_one_pass(int n, const uint32_t row[], bool butterfly)
{
    uint32_t m[HD_WU_EXACT_MAX_DIM];
    memcpy(m, row, (size_t)n * sizeof *m);
    for (int s = 0; s < n; s++) {
        int k = butterfly ? s : n - 1 - s;
        if (!(m[k] >> k & 1))
            return false;
        for (int i = 0; i < n; i++)
            if ((butterfly ? i > k : i < k) && (m[i] >> k & 1))
                m[i] ^= m[k];
    }
    return true;
}

static void group_build(wu_group *g, int n, bool butterfly)
{
    g->n = n;
    g->nn = n * n;
    g->butterfly = butterfly;
    g->size = 1u << (g->nn + n);
    g->inv = hd_xmalloc((size_t)g->size * sizeof *g->inv);
    g->D = hd_xmalloc(g->size);
    memset(g->D, -1, g->size);
    uint32_t gl = 1;
    for (int i = 0; i < n; i++)
        gl *= (1u << n) - (1u << i);        /* Lemma 2.4 */
    g->nel = gl << n;
    g->els = hd_xmalloc((size_t)g->nel * sizeof *g->els);
    uint32_t row[HD_WU_EXACT_MAX_DIM], ir[HD_WU_EXACT_MAX_DIM], idr[HD_WU_EXACT_MAX_DIM], nb = 0;
    for (int i = 0; i < n; i++)
        idr[i] = 1u << i;
    g->ident = pack(g, idr, 0);
    for (uint32_t mc = 0; mc < 1u << g->nn; mc++) {
        uint32_t zb;
        unpack(g, mc, row, &zb);
        if (!lin_inverse(n, row, ir))
            continue;
        bool one = code_one_pass(n, row, butterfly), isid = mc == g->ident;
        for (uint32_t b = 0; b < 1u << n; b++) {
            uint32_t c = mc | b << g->nn;
            g->D[c] = (int8_t)(isid ? b != 0 : one ? 1 : 2);
            g->inv[c] = pack(g, ir, lin_apply(ir, n, b));
            g->els[nb++] = c;
        }
    }
}

static void group_free(wu_group *g)
{
    free(g->els);
    free(g->inv);
    free(g->D);
}

static uint32_t to_code(const wu_group *g, const hd_agl *p)
{
    uint32_t row[HD_WU_EXACT_MAX_DIM];
    for (int i = 0; i < g->n; i++)
        row[i] = (uint32_t)p->A.row[i];
    return pack(g, row, (uint32_t)p->b);
}

static hd_agl from_code(const wu_group *g, uint32_t c)
{
    uint32_t row[HD_WU_EXACT_MAX_DIM], b;
    unpack(g, c, row, &b);
    hd_agl p = { hd_matrix_zero(g->n), b };
    for (int i = 0; i < g->n; i++)
        p.A.row[i] = row[i];
    return p;
}

/* D(x y^-1). */
static int gdist(const wu_group *g, uint32_t x, uint32_t y)
{
    return g->D[gmul(g, x, g->inv[y])];
}

/* Left multiplication by a generator: kind 0 adds row j to row i (and
 * b_j to b_i), kind 1 complements bit i. */
static uint32_t gen_apply(const wu_group *g, uint32_t c, int kind, int i, int j)
{
    if (kind == 1)
        return c ^ 1u << (g->nn + i);
    uint32_t row[HD_WU_EXACT_MAX_DIM], b;
    unpack(g, c, row, &b);
    row[i] ^= row[j];
    b ^= (b >> j & 1) << i;
    return pack(g, row, b);
}

/* Marks with `bit` every element of W S, W the one-pass class: S closed
 * under the right factor's group (the omega network's unit lower, the
 * butterfly's unit upper), then the result under the left factor's and
 * the translations (W = UP LO here, the thesis's L U).  Each element is
 * pushed once on `stack` (g->nel codes): phase 1 marks with `tmp`, a bit
 * the caller keeps clear, phase 2 with `bit`. */
static void close_one_pass(const wu_group *g, const uint32_t *seed, uint32_t ns,
                           uint8_t *mark, uint8_t bit, uint8_t tmp, uint32_t *stack)
{
    int n = g->n;
    uint32_t top = 0, scan = 0;
    for (uint32_t s = 0; s < ns; s++)
        if (!(mark[seed[s]] & tmp)) {
            mark[seed[s]] |= tmp;
            stack[top++] = seed[s];
        }
    for (; scan < top; scan++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (i == j || (g->butterfly ? i > j : i < j))
                    continue;
                uint32_t d = gen_apply(g, stack[scan], 0, i, j);
                if (!(mark[d] & tmp)) {
                    mark[d] |= tmp;
                    stack[top++] = d;
                }
            }
    /* Phase 2 starts from everything phase 1 reached. */
    for (uint32_t s = 0; s < top; s++)
        mark[stack[s]] = (uint8_t)((mark[stack[s]] & ~tmp) | bit);
    for (scan = 0; scan < top; scan++)
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j || (g->butterfly ? i < j : i > j))
                    continue;
                uint32_t d = gen_apply(g, stack[scan], 0, i, j);
                if (!(mark[d] & bit)) {
                    mark[d] |= bit;
                    stack[top++] = d;
                }
            }
            uint32_t d = gen_apply(g, stack[scan], 1, i, 0);
            if (!(mark[d] & bit)) {
                mark[d] |= bit;
                stack[top++] = d;
            }
        }
}

static void plan_from_codes(const wu_group *g, const hd_target *t, const hd_agl *P,
                            const uint32_t *codes, int k, hd_wu_plan *out)
{
    out->k = k;
    out->F = hd_xmalloc((size_t)k * sizeof *out->F);
    for (int h = 0; h < k; h++)
        out->F[h] = from_code(g, codes[h]);
    out->cost = hd_wu_sequence_cost(t, P, out->F, k);
}

void hd_wu_plan_free(hd_wu_plan *p)
{
    free(p->F);
    p->F = NULL;
    p->k = 0;
}

static bool exact_args(const hd_target *t, const hd_agl *P, int k)
{
    return omega_class(t) && k >= 1 && all_ok(t, P, k);
}

/* ------------------------------------------------ the exact DP (oracle) */

#define DP_INF 0xffff
#define DP_MAX_K 4096

int hd_wu_dp(const hd_target *t, const hd_agl *P, int k, const hd_agl *first,
             hd_wu_plan *out)
{
    if (!exact_args(t, P, k) || k > DP_MAX_K || (first && !agl_ok(t, first)))
        return HD_EINVAL;
    if (t->n > HD_WU_EXACT_MAX_DIM)
        return HD_ETOOBIG;
    wu_group g;
    group_build(&g, t->n, t->kind == HD_TARGET_BUTTERFLY);
    uint16_t *best = hd_xmalloc((size_t)k * g.size * sizeof *best);
    uint8_t *mark = hd_xcalloc(g.size, 1);
    uint32_t *stack = hd_xmalloc((size_t)g.nel * sizeof *stack);
    uint32_t *seed = hd_xmalloc((size_t)g.nel * sizeof *seed);
    uint32_t *pc = hd_xmalloc((size_t)k * sizeof *pc);
    for (int h = 0; h < k; h++)
        pc[h] = to_code(&g, &P[h]);
    uint32_t fc = first ? to_code(&g, first) : 0;
    long work = 0;
    for (uint32_t e = 0; e < g.nel; e++) {
        uint32_t c = g.els[e];
        best[c] = first && c != fc ? DP_INF : (uint16_t)gdist(&g, pc[0], c);
    }
    for (int h = 1; h < k; h++) {
        uint16_t *prev = best + (size_t)(h - 1) * g.size, *cur = prev + g.size;
        uint32_t cmin = DP_INF, ns = 0;
        for (uint32_t e = 0; e < g.nel; e++)
            if (prev[g.els[e]] < cmin)
                cmin = prev[g.els[e]];
        for (uint32_t e = 0; e < g.nel; e++)
            if (prev[g.els[e]] == cmin)
                seed[ns++] = g.els[e];
        memset(mark, 0, g.size);
        close_one_pass(&g, seed, ns, mark, 1, 2, stack);
        for (uint32_t e = 0; e < g.nel; e++) {
            uint32_t c = g.els[e];
            uint32_t via = cmin + (mark[c] & 1 ? 1 : 2);
            uint32_t stay = prev[c] < via ? prev[c] : via;
            cur[c] = (uint16_t)(gdist(&g, pc[h], c) + stay);
        }
        work += g.nel;
    }
    /* Back from the best last mapping: stay where the table says staying
     * gave the value, else any predecessor that gives it. */
    uint32_t *codes = hd_xmalloc((size_t)k * sizeof *codes);
    uint16_t *last = best + (size_t)(k - 1) * g.size;
    codes[k - 1] = g.els[0];
    for (uint32_t e = 0; e < g.nel; e++)
        if (last[g.els[e]] < last[codes[k - 1]])
            codes[k - 1] = g.els[e];
    int total = last[codes[k - 1]];
    for (int h = k - 1; h > 0; h--) {
        uint32_t f = codes[h];
        uint16_t *prev = best + (size_t)(h - 1) * g.size;
        int want = best[(size_t)h * g.size + f] - gdist(&g, pc[h], f);
        codes[h - 1] = f;
        if (prev[f] != want)
            for (uint32_t e = 0; e < g.nel; e++)
                if (prev[g.els[e]] + gdist(&g, f, g.els[e]) == want) {
                    codes[h - 1] = g.els[e];
                    break;
                }
    }
    plan_from_codes(&g, t, P, codes, k, out);
    out->claimed = total;
    out->work = work;
    out->stopped = 0;
    free(codes);
    free(pc);
    free(seed);
    free(stack);
    free(mark);
    free(best);
    group_free(&g);
    return HD_OK;
}

/* ---------------------------------------------------------- Algorithm I */

/* A subsequence, kept as its last mapping and a link to its prefix. */
typedef struct {
    uint32_t el;
    int32_t parent;        /* -1 for length 1 */
    int32_t cost;          /* D_{1,h} as the algorithm computes it */
    int32_t stamp;         /* Form_Subsequence's "has been used" */
} a1_node;

/* A candidate set SEQ_h^0 or SEQ_h^1: every member costs `cost`. */
typedef struct {
    int32_t *node;
    int n, cap;
    int cost;
} a1_set;

typedef struct {
    const wu_group *g;
    const uint32_t *P;     /* the k transfers' codes */
    int k;
    unsigned printed;
    long max_cand;
    a1_node *node;
    int nnode, capnode;
    int32_t *cand;         /* by code: this step's candidate ending there */
    uint32_t *touched;     /* codes with a candidate */
    uint32_t ntouched;
    int32_t *at0, *at1;    /* by code: the member of SEQ_{h-1}^0 / ^1 ending there */
    a1_set seq0, seq1;
    int C;                 /* Wu's C: the cheapest candidate of this step */
    uint32_t *lo, nlo;     /* the group LO (the thesis's U's) */
    uint32_t *lo_rows;     /* its rows, HD_WU_EXACT_MAX_DIM a member */
    uint32_t *lo_inv;      /* index of each member's inverse */
    uint32_t *up, nup;     /* UP (the thesis's L's), the identity first */
    uint8_t *mark;
    uint32_t *stack;
    long formed;
    int stamp;
} alg1;

static int new_node(alg1 *a, uint32_t el, int parent, int cost)
{
    hd_xreserve(&a->node, &a->capnode, a->nnode + 1, sizeof *a->node);
    a->node[a->nnode] = (a1_node){ el, parent, cost, 0 };
    return a->nnode++;
}

static void set_push(a1_set *s, int node)
{
    hd_xreserve(&s->node, &s->cap, s->n + 1, sizeof *s->node);
    s->node[s->n++] = node;
}

/* An intermediate subsequence: prefix `parent` followed by y.  Only the
 * cheapest per last mapping is kept (Theorem 3.7; Wu's Lmin[] and Cand[],
 * here across the calls of one step). */
static void offer(alg1 *a, int parent, uint32_t y, int cost)
{
    a->formed++;
    int32_t c = a->cand[y];
    if (c < 0) {
        a->cand[y] = new_node(a, y, parent, cost);
        a->touched[a->ntouched++] = y;
    } else if (cost < a->node[c].cost) {
        a->node[c].parent = parent;
        a->node[c].cost = cost;
    }
    if (cost < a->C)
        a->C = cost;
}

/* The groups LO (unit lower, linear) and UP (unit upper with every
 * complement), as codes, each with the identity first. */
static void triangular_groups(alg1 *a)
{
    const wu_group *g = a->g;
    int n = g->n, half = n * (n - 1) / 2;
    a->nlo = 1u << half;
    a->nup = 1u << (half + n);
    a->lo = hd_xmalloc((size_t)a->nlo * sizeof *a->lo);
    a->up = hd_xmalloc((size_t)a->nup * sizeof *a->up);
    a->lo_rows = hd_xmalloc((size_t)a->nlo * HD_WU_EXACT_MAX_DIM * sizeof *a->lo_rows);
    a->lo_inv = hd_xmalloc((size_t)a->nlo * sizeof *a->lo_inv);
    uint32_t row[HD_WU_EXACT_MAX_DIM] = { 0 };
    for (int upper = 0; upper < 2; upper++) {
        uint32_t count = upper ? a->nup : a->nlo;
        for (uint32_t f = 0; f < count; f++) {
            int bit = 0;
            for (int i = 0; i < n; i++) {
                row[i] = 1u << i;
                for (int j = 0; j < n; j++)
                    if (upper ? j > i : j < i)
                        row[i] |= (f >> bit++ & 1) << j;
            }
            uint32_t b = upper ? f >> half : 0;
            (upper ? a->up : a->lo)[f] = pack(g, row, b);
            if (!upper)
                memcpy(a->lo_rows + (size_t)f * HD_WU_EXACT_MAX_DIM, row, sizeof row);
        }
    }
    for (uint32_t i = 0; i < a->nlo; i++)
        for (uint32_t j = 0; j < a->nlo; j++)
            if (gmul(g, a->lo[i], a->lo[j]) == g->ident)
                a->lo_inv[i] = j;
}

static bool in_lo(const wu_group *g, uint32_t c)
{
    uint32_t row[HD_WU_EXACT_MAX_DIM], b;
    unpack(g, c, row, &b);
    if (b)
        return false;
    for (int i = 0; i < g->n; i++)
        if ((row[i] >> i) != 1)
            return false;
    return true;
}

/* The coset LO F0 of F_all,h that Form_Subsequence works on: member i is
 * lo[i] F0.  D(P_h Y^-1) for a member Y = b a P_h is D(a^-1 b^-1): 0 for
 * the member P_h of the coset of P_h (a = b = I), else 1 (a^-1 b^-1 = I
 * would put a = b^-1 in UP and LO, whose only common element is I). */
typedef struct {
    uint32_t F0;
    bool is_ph;
    uint32_t member[1u << (HD_WU_EXACT_MAX_DIM * (HD_WU_EXACT_MAX_DIM - 1) / 2)];
} a1_coset;

static int member_d(const a1_coset *c, uint32_t i)
{
    return c->is_ph && i == 0 ? 0 : 1;
}

/* One sequence of SET (cost `min`) against the coset: the body of
 * Form_Subsequence, corrected (see hd_wu_alg1_options). */
static void form_one(alg1 *a, int s, int min, const a1_coset *co, uint32_t ph)
{
    const wu_group *g = a->g;
    uint32_t F = a->node[s].el, finv = g->inv[F];
    /* "IF t = 0": P_h itself, the one member costing 0 for P_h, reached
     * from F by a remap; no other member can stand in for it under
     * Theorem 3.8 (it would be only as cheap, not cheaper). */
    if (co->is_ph && !(a->printed & HD_WU_PRINTED_NO_PH))
        offer(a, s, ph, min + g->D[gmul(g, ph, finv)]);
    uint32_t X = gmul(g, co->F0, finv);
    if (in_lo(g, X)) {
        /* Observation 3: F is in this coset, so F_all,h holds it: stay
         * (every other member costs a remap and is no cheaper for P_h). */
        uint32_t y = a->printed & HD_WU_PRINTED_APPEND ? gmul(g, X, co->F0) : F;
        offer(a, s, y, min + g->D[gmul(g, ph, g->inv[y])]);
        return;
    }
    /* Observation 1: every other member costs P_h at least D(P_h F0^-1)
     * and a remap of at least 1. */
    int lb = min + (co->is_ph ? 0 : 1) + 1;
    if (a->printed & HD_WU_PRINTED_OBS1 ? lb >= a->C + 1 : lb > a->C + 1)
        return;
    /* Observation 4: the members one pass from F are b F0 for b in LO
     * with b X one pass, X = b^-1 (b X) being Lemma 3.4's U L U (here
     * L U L).  Only b X's linear part decides (X is not in LO, so b X is
     * not the identity): its rows are sums of X's rows. */
    uint32_t xr[HD_WU_EXACT_MAX_DIM], xb, comb[1u << HD_WU_EXACT_MAX_DIM], r[HD_WU_EXACT_MAX_DIM];
    unpack(g, X, xr, &xb);
    row_sums(g->n, xr, comb);
    for (uint32_t i = 0; i < a->nlo; i++) {
        const uint32_t *br = a->lo_rows + (size_t)i * HD_WU_EXACT_MAX_DIM;
        for (int q = 0; q < g->n; q++)
            r[q] = comb[br[q]];
        if (g->D[pack(g, r, 0)] > 1)
            continue;
        uint32_t m = a->printed & HD_WU_PRINTED_APPEND ? a->lo_inv[i] : i;
        offer(a, s, co->member[m], min + member_d(co, m) + 1);
    }
}

/* Form_Subsequence(SET, LO F0): the sequences of SET whose last mapping
 * lies in the coset first (Observation 3's stays reach the lowest
 * bounds), then the others until every member's candidate has reached
 * its lower bound (Observation 2) or nothing but stays can be formed
 * (Observation 1). */
static void form_subsequence(alg1 *a, const a1_set *set, const int32_t *at, uint32_t F0,
                             bool is_ph, uint32_t ph)
{
    const wu_group *g = a->g;
    if (!set->n)
        return;
    a1_coset co = { F0, is_ph, { 0 } };
    int bound[1u << (HD_WU_EXACT_MAX_DIM * (HD_WU_EXACT_MAX_DIM - 1) / 2)];
    a->stamp++;
    for (uint32_t i = 0; i < a->nlo; i++)
        co.member[i] = gmul(g, a->lo[i], F0);
    for (uint32_t i = 0; i < a->nlo; i++) {
        uint32_t y = co.member[i];
        bound[i] = set->cost + member_d(&co, i) + (at[y] >= 0 ? 0 : 1);
        if (at[y] >= 0) {
            a->node[at[y]].stamp = a->stamp;
            form_one(a, at[y], set->cost, &co, ph);
        }
    }
    int lb = set->cost + (is_ph ? 0 : 1) + 1;
    for (int i = 0; i < set->n; i++) {
        int s = set->node[i];
        if (a->node[s].stamp == a->stamp)
            continue;
        bool open = false;
        for (uint32_t m = 0; m < a->nlo && !open; m++) {
            int32_t c = a->cand[co.member[m]];
            open = c < 0 || a->node[c].cost > bound[m];
        }
        if (!open)
            break;                          /* Observation 2 */
        bool obs1 = a->printed & HD_WU_PRINTED_OBS1 ? lb >= a->C + 1 : lb > a->C + 1;
        if (obs1 && (!is_ph || (a->printed & HD_WU_PRINTED_NO_PH) || set->cost > a->C + 1))
            break;                          /* Observation 1: nothing left */
        form_one(a, s, set->cost, &co, ph);
    }
}

static void clear_at(alg1 *a, const a1_set *s, int32_t *at)
{
    for (int i = 0; i < s->n; i++)
        at[a->node[s->node[i]].el] = -1;
}

/* REDUCE and the last ELIMINATE of the main program: candidates of cost
 * C into SEQ_h^0, of cost C + 1 into SEQ_h^1 unless one pass from the
 * last mapping of a member of SEQ_h^0 (Theorem 3.8, decided by marking
 * W last(SEQ_h^0) rather than by pairs); the rest dropped (Theorem 3.6). */
static void reduce(alg1 *a)
{
    const wu_group *g = a->g;
    int C = a->C;
    a->seq0.n = a->seq1.n = 0;
    a->seq0.cost = C;
    a->seq1.cost = C + 1;
    uint32_t nseed = 0;
    uint32_t *seed = hd_xmalloc((size_t)(a->ntouched ? a->ntouched : 1) * sizeof *seed);
    for (uint32_t i = 0; i < a->ntouched; i++) {
        int32_t c = a->cand[a->touched[i]];
        if (a->node[c].cost == C) {
            set_push(&a->seq0, c);
            seed[nseed++] = a->touched[i];
        }
    }
    memset(a->mark, 0, g->size);
    close_one_pass(g, seed, nseed, a->mark, 1, 2, a->stack);
    free(seed);
    for (uint32_t i = 0; i < a->ntouched; i++) {
        int32_t c = a->cand[a->touched[i]];
        if (a->node[c].cost == C + 1 && !(a->mark[a->touched[i]] & 1))
            set_push(&a->seq1, c);
        a->cand[a->touched[i]] = -1;
    }
    a->ntouched = 0;
}

/* Is F in Map_h \ F_all,h: the last mapping of a candidate that may stay
 * although P_h needs two passes under it (Theorems 3.9-3.10)? */
static bool may_stay(const alg1 *a, uint32_t F, int h)
{
    const wu_group *g = a->g;
    if (gdist(g, a->P[h], F) <= 1)
        return false;                       /* in F_all,h: a stay of Obs. 3 */
    for (int r = 1; r <= 3 && h - r >= 0; r++)
        if (gdist(g, a->P[h - r], F) <= 1)
            return true;
    return false;
}

static void stays(alg1 *a, const a1_set *set, int h)
{
    if (!set->n || set->cost + 2 > a->C + 1)
        return;                             /* Observation 1 */
    for (int i = 0; i < set->n; i++) {
        int s = set->node[i];
        if (may_stay(a, a->node[s].el, h))
            offer(a, s, a->node[s].el, set->cost + 2);
    }
}

/* The main program of Algorithm I; h counts from 0 here. */
static int alg1_run(alg1 *a)
{
    const wu_group *g = a->g;
    uint32_t p0 = a->P[0];
    /* SEQ_1: P_1 at cost 0; F_all,1's others at cost 1 unless one pass
     * from P_1 (Theorem 3.8); those outside F_all,1 cost 2 (Theorem 3.6). */
    a->C = 0;
    a->seq0.cost = 0;
    a->seq1.cost = 1;
    set_push(&a->seq0, new_node(a, p0, -1, 0));
    memset(a->mark, 0, g->size);
    close_one_pass(g, &p0, 1, a->mark, 1, 2, a->stack);
    for (uint32_t e = 0; e < g->nel; e++) {
        uint32_t c = g->els[e];
        if (c != p0 && gdist(g, p0, c) == 1 && !(a->mark[c] & 1))
            set_push(&a->seq1, new_node(a, c, -1, 1));
    }
    for (int h = 1; h < a->k; h++) {
        uint32_t ph = a->P[h];
        a1_set s0 = a->seq0, s1 = a->seq1;
        /* The sets are rebuilt by reduce; keep the old ones apart. */
        a->seq0 = (a1_set){ 0 };
        a->seq1 = (a1_set){ 0 };
        for (int i = 0; i < s0.n; i++)
            a->at0[a->node[s0.node[i]].el] = s0.node[i];
        for (int i = 0; i < s1.n; i++)
            a->at1[a->node[s1.node[i]].el] = s1.node[i];
        a->C = 1 << 30;
        /* The coset of P_h (a_1 = I) from both sets, then the others from
         * SEQ^0, then from SEQ^1 while Observation 1 allows. */
        form_subsequence(a, &s0, a->at0, ph, true, ph);
        form_subsequence(a, &s1, a->at1, ph, true, ph);
        for (uint32_t t = 1; t < a->nup; t++)
            form_subsequence(a, &s0, a->at0, gmul(g, a->up[t], ph), false, ph);
        for (uint32_t t = 1; t < a->nup && s1.n && !(s1.cost + 1 > a->C + 1); t++)
            form_subsequence(a, &s1, a->at1, gmul(g, a->up[t], ph), false, ph);
        /* Stays outside F_all,h (they cost Min + 2 >= C, so gathering them
         * before REDUCE changes no minimum). */
        stays(a, &s0, h);
        stays(a, &s1, h);
        clear_at(a, &s0, a->at0);
        clear_at(a, &s1, a->at1);
        free(s0.node);
        free(s1.node);
        reduce(a);
        if (a->max_cand > 0 && a->seq0.n + a->seq1.n > a->max_cand)
            return HD_ETOOBIG;
    }
    return HD_OK;
}

static void alg1_free(alg1 *a)
{
    free(a->node);
    free(a->cand);
    free(a->touched);
    free(a->at0);
    free(a->at1);
    free(a->seq0.node);
    free(a->seq1.node);
    free(a->lo);
    free(a->lo_rows);
    free(a->lo_inv);
    free(a->up);
    free(a->mark);
    free(a->stack);
}

/* Runs Algorithm I on the omega network for the codes P; on HD_OK, up to
 * `limit` optimum sequences with different first mappings in out. */
static int alg1_optima(const hd_target *t, const hd_agl *P, int k, const hd_wu_alg1_options *opt,
                       int limit, bool premultiply_r, hd_wu_plan *out, int *count)
{
    wu_group g;
    group_build(&g, t->n, false);
    uint32_t *pc = hd_xmalloc((size_t)k * sizeof *pc);
    hd_agl r = hd_wu_bit_reversal(t->n);
    for (int h = 0; h < k; h++) {
        /* Algorithm V, step 1: the transfers R P_h. */
        hd_agl p = premultiply_r ? hd_agl_compose(&r, &P[h]) : P[h];
        pc[h] = to_code(&g, &p);
    }
    alg1 a = { .g = &g, .P = pc, .k = k };
    if (opt) {
        a.printed = opt->printed;
        a.max_cand = opt->max_candidates;
    }
    a.cand = hd_xmalloc((size_t)g.size * sizeof *a.cand);
    a.at0 = hd_xmalloc((size_t)g.size * sizeof *a.at0);
    a.at1 = hd_xmalloc((size_t)g.size * sizeof *a.at1);
    memset(a.cand, -1, (size_t)g.size * sizeof *a.cand);
    memset(a.at0, -1, (size_t)g.size * sizeof *a.at0);
    memset(a.at1, -1, (size_t)g.size * sizeof *a.at1);
    a.touched = hd_xmalloc((size_t)g.nel * sizeof *a.touched);
    a.mark = hd_xcalloc(g.size, 1);
    a.stack = hd_xmalloc((size_t)g.nel * sizeof *a.stack);
    triangular_groups(&a);
    int status = alg1_run(&a);
    *count = 0;
    if (status == HD_OK) {
        uint32_t *codes = hd_xmalloc((size_t)k * sizeof *codes);
        for (int i = 0; i < a.seq0.n && *count < limit; i++) {
            int s = a.seq0.node[i];
            for (int h = k - 1; h >= 0; h--, s = a.node[s].parent)
                codes[h] = a.node[s].el;
            bool dup = false;
            for (int j = 0; j < *count && !dup; j++)
                dup = to_code(&g, &out[j].F[0]) ==
                      (premultiply_r ? gmul(&g, to_code(&g, &r), codes[0]) : codes[0]);
            if (dup)
                continue;
            /* Algorithm V, step 3: the butterfly's mappings R F_h. */
            if (premultiply_r)
                for (int h = 0; h < k; h++)
                    codes[h] = gmul(&g, to_code(&g, &r), codes[h]);
            hd_target tt = premultiply_r ? hd_target_butterfly(t->n) : *t;
            plan_from_codes(&g, &tt, P, codes, k, &out[*count]);
            out[*count].claimed = a.seq0.cost;
            out[*count].work = a.formed;
            out[*count].stopped = 0;
            (*count)++;
        }
        free(codes);
    }
    alg1_free(&a);
    free(pc);
    group_free(&g);
    return status;
}

int hd_wu_algorithm1_optima(const hd_target *t, const hd_agl *P, int k,
                            const hd_wu_alg1_options *opt, int limit,
                            hd_wu_plan **out, int *count)
{
    if (!exact_args(t, P, k) || t->kind != HD_TARGET_OMEGA || limit < 1)
        return HD_EINVAL;
    if (t->n > HD_WU_EXACT_MAX_DIM)
        return HD_ETOOBIG;
    *out = hd_xcalloc((size_t)limit, sizeof **out);
    int status = alg1_optima(t, P, k, opt, limit, false, *out, count);
    if (status != HD_OK) {
        free(*out);
        *out = NULL;
    }
    return status;
}

int hd_wu_algorithm1(const hd_target *t, const hd_agl *P, int k,
                     const hd_wu_alg1_options *opt, hd_wu_plan *out)
{
    if (!exact_args(t, P, k) || t->kind != HD_TARGET_OMEGA)
        return HD_EINVAL;
    if (t->n > HD_WU_EXACT_MAX_DIM)
        return HD_ETOOBIG;
    int count;
    return alg1_optima(t, P, k, opt, 1, false, out, &count);
}

int hd_wu_algorithm5(const hd_target *t, const hd_agl *P, int k,
                     const hd_wu_alg1_options *opt, hd_wu_plan *out)
{
    if (!exact_args(t, P, k) || t->kind != HD_TARGET_BUTTERFLY)
        return HD_EINVAL;
    if (t->n > HD_WU_EXACT_MAX_DIM)
        return HD_ETOOBIG;
    hd_target o = hd_target_omega(t->n);
    int count;
    return alg1_optima(&o, P, k, opt, 1, true, out, &count);
}

/* ----------------------------------------- heuristics for any n */

/* A run's mapping G for the transfers P[i..j]: a P_r under which all the
 * others pass in one pass (P_r then costs 0), else `fallback`. */
static hd_agl run_mapping(const hd_target *t, const hd_agl *P, int i, int j, const hd_agl *fallback)
{
    for (int r = i; r <= j; r++) {
        bool all = true;
        for (int s = i; s <= j && all; s++)
            all = hd_wu_transfer_cost(t, &P[s], &P[r]) <= 1;
        if (all)
            return P[r];
    }
    return *fallback;
}

/* Theorem 3.4 between runs: each run's mapping is moved within LO G (UP
 * G on the butterfly) so that the remap from the previous run is one
 * pass; start[r] is where run r begins, start[nrun] = k. */
static void cheap_remaps(const hd_target *t, hd_agl *F, const int *start, int nrun)
{
    for (int r = 1; r < nrun; r++) {
        hd_agl *prev = &F[start[r] - 1], g = F[start[r]];
        if (hd_wu_remap_cost(t, prev, &g) <= 1)
            continue;
        hd_wu_cheap_remap(t, prev, &g, &g);
        for (int h = start[r]; h < start[r + 1]; h++)
            F[h] = g;
    }
}

int hd_wu_pairs(const hd_target *t, const hd_agl *P, int k, hd_wu_plan *out)
{
    if (!exact_args(t, P, k))
        return HD_EINVAL;
    hd_agl *F = hd_xmalloc((size_t)k * sizeof *F);
    int *start = hd_xmalloc((size_t)(k + 1) * sizeof *start), nrun = 0;
    /* For odd k the lone transfer goes first, on itself: it costs 0 and
     * Theorem 3.4 moves only the later mappings, so the total is at most
     * 3(k-1)/2, one below Theorem 3.5's (3k-1)/2, whose proof lets the
     * lone one cost 1. */
    int i = 0;
    if (k % 2) {
        start[nrun++] = 0;
        F[0] = P[0];
        i = 1;
    }
    for (; i < k; i += 2) {
        start[nrun++] = i;
        hd_agl c;
        hd_wu_common_mapping(t, &P[i], &P[i + 1], &c);   /* Lemma 3.3 */
        F[i] = F[i + 1] = run_mapping(t, P, i, i + 1, &c);
    }
    start[nrun] = k;
    cheap_remaps(t, F, start, nrun);
    out->k = k;
    out->F = F;
    out->cost = out->claimed = hd_wu_sequence_cost(t, P, F, k);
    out->work = nrun;
    out->stopped = 0;
    free(start);
    return HD_OK;
}

int hd_wu_runs(const hd_target *t, const hd_agl *P, int k, long budget, hd_wu_plan *out)
{
    if (!exact_args(t, P, k))
        return HD_EINVAL;
    hd_agl *F = hd_xmalloc((size_t)k * sizeof *F);
    int *start = hd_xmalloc((size_t)(k + 1) * sizeof *start), nrun = 0, stopped = 0;
    long nodes = 0;
    for (int i = 0; i < k;) {
        int j = i;
        hd_agl g = P[i];
        while (j + 1 < k) {
            hd_wu_static s;
            int r = hd_wu_static_feasible(t, &P[i], j + 2 - i, budget, &s);
            nodes += s.nodes;
            if (r == HD_ETOOBIG && j > i) {
                stopped++;              /* the run ends here, said in out */
                break;
            }
            if (r == 0)
                break;
            /* Two transfers always share a mapping (Lemma 3.3): a search
             * that stops on a pair is replaced by the construction. */
            if (r == HD_ETOOBIG)
                hd_wu_common_mapping(t, &P[i], &P[i + 1], &s.F);
            g = s.F;
            j++;
        }
        start[nrun++] = i;
        g = run_mapping(t, P, i, j, &g);
        for (int h = i; h <= j; h++)
            F[h] = g;
        i = j + 1;
    }
    start[nrun] = k;
    cheap_remaps(t, F, start, nrun);
    out->k = k;
    out->F = F;
    out->cost = out->claimed = hd_wu_sequence_cost(t, P, F, k);
    out->work = nodes;
    out->stopped = stopped;
    free(start);
    return HD_OK;
}

/* ------------------------------------------- Algorithms II and VI */

void hd_wu_program_plan_free(hd_wu_program_plan *p)
{
    for (int j = 0; j < p->z; j++)
        hd_wu_plan_free(&p->plan[j]);
    free(p->plan);
    p->plan = NULL;
    p->z = 0;
}

/* The transfers vector j's mapping sees: F_into,1 P (Section 3.4.1). */
static hd_agl *effective(const hd_wu_vector *v, int j, const hd_wu_plan *plan)
{
    hd_agl *e = hd_xmalloc((size_t)v[j].k * sizeof *e);
    for (int h = 0; h < v[j].k; h++) {
        const hd_wu_use *u = &v[j].use[h];
        e[h] = u->into >= 0 ? hd_agl_compose(&plan[u->into].F[0], &u->P) : u->P;
    }
    return e;
}

static bool program_ok(const hd_target *t, const hd_wu_vector *v, int z)
{
    if (!omega_class(t) || z < 1)
        return false;
    for (int j = 0; j < z; j++) {
        if (v[j].k < 1)
            return false;
        for (int h = 0; h < v[j].k; h++)
            if (v[j].use[h].into < -1 || v[j].use[h].into >= j || !agl_ok(t, &v[j].use[h].P))
                return false;
    }
    return true;
}

int hd_wu_program_cost(const hd_target *t, const hd_wu_vector *v, int z,
                       const hd_wu_plan *plan)
{
    if (!program_ok(t, v, z))
        return HD_EINVAL;
    int total = 0;
    for (int j = 0; j < z; j++) {
        if (plan[j].k != v[j].k)
            return HD_EINVAL;
        hd_agl *e = effective(v, j, plan);
        int c = hd_wu_sequence_cost(t, e, plan[j].F, v[j].k);
        free(e);
        if (c < 0)
            return c;
        total += c;
    }
    return total;
}

/* Up to `limit` optimum (or, for RUNS, good) sequences for transfers e. */
static int inner(const hd_target *t, const hd_agl *e, int k, const hd_wu_alg2_options *o,
                 int limit, hd_wu_plan *out, int *count, long *runs)
{
    (*runs)++;
    if (o->inner == HD_WU_INNER_RUNS) {
        *count = 1;
        return hd_wu_runs(t, e, k, o->budget, out);
    }
    if (t->n > HD_WU_EXACT_MAX_DIM)
        return HD_ETOOBIG;
    hd_target om = hd_target_omega(t->n);
    return alg1_optima(&om, e, k, NULL, limit, t->kind == HD_TARGET_BUTTERFLY, out, count);
}

static int algorithm2(const hd_target *t, const hd_wu_vector *v, int z,
                      const hd_wu_alg2_options *o, hd_wu_program_plan *out)
{
    if (!program_ok(t, v, z) || !o || o->limit < 1 ||
        (o->inner != HD_WU_INNER_EXACT && o->inner != HD_WU_INNER_RUNS))
        return HD_EINVAL;
    hd_wu_plan *plan = hd_xcalloc((size_t)z, sizeof *plan);
    hd_wu_plan *trial = hd_xcalloc((size_t)z, sizeof *trial);
    hd_wu_plan *cands = hd_xcalloc((size_t)o->limit, sizeof *cands);
    long runs = 0;
    int status = HD_OK;
    for (int j = 0; j < z && status == HD_OK; j++) {
        hd_agl *e = effective(v, j, plan);
        int ncand = 0;
        status = inner(t, e, v[j].k, o, o->limit, cands, &ncand, &runs);
        free(e);
        if (status != HD_OK)
            break;
        /* Each optimum sequence for v_j, with every later vector optimised
         * after it (one sequence each, "arbitrarily picked"); keep the one
         * whose program costs least.  A lone candidate is kept without
         * that look-ahead, which could only confirm it: O(z) inner runs
         * instead of O(z^2) when limit is 1. */
        int best = 0, best_total = 0;
        for (int c = 0; c < ncand && ncand > 1 && status == HD_OK; c++) {
            memcpy(trial, plan, (size_t)j * sizeof *trial);
            trial[j] = cands[c];
            int total = cands[c].cost;
            for (int i = j + 1; i < z && status == HD_OK; i++) {
                hd_agl *ei = effective(v, i, trial);
                int one = 0;
                status = inner(t, ei, v[i].k, o, 1, &trial[i], &one, &runs);
                free(ei);
                if (status == HD_OK)
                    total += trial[i].cost;
            }
            for (int i = j + 1; i < z; i++)
                hd_wu_plan_free(&trial[i]);
            if (c == 0 || total < best_total) {
                best = c;
                best_total = total;
            }
        }
        for (int c = 0; c < ncand; c++)
            if (c != best || status != HD_OK)
                hd_wu_plan_free(&cands[c]);
        if (status == HD_OK)
            plan[j] = cands[best];
    }
    free(cands);
    free(trial);
    if (status != HD_OK) {
        for (int j = 0; j < z; j++)
            hd_wu_plan_free(&plan[j]);
        free(plan);
        return status;
    }
    out->z = z;
    out->plan = plan;
    out->cost = hd_wu_program_cost(t, v, z, plan);
    out->identity_cost = 0;
    for (int j = 0; j < z; j++)
        for (int h = 0; h < v[j].k; h++) {
            hd_agl id = hd_agl_identity(t->n);
            out->identity_cost += hd_wu_transfer_cost(t, &v[j].use[h].P, &id);
        }
    out->runs = runs;
    return HD_OK;
}

int hd_wu_algorithm2(const hd_target *t, const hd_wu_vector *v, int z,
                     const hd_wu_alg2_options *opt, hd_wu_program_plan *out)
{
    if (t->kind != HD_TARGET_OMEGA)
        return HD_EINVAL;
    return algorithm2(t, v, z, opt, out);
}

/* Algorithm VI is Algorithm II with each vector's transfers multiplied
 * by R before Algorithm I and its mappings by R after: Algorithm V as the
 * inner optimizer (the printed VI omits the multiplication back, which
 * Algorithm V's step 3 has, and names v_j for v_i in its inner loop). */
int hd_wu_algorithm6(const hd_target *t, const hd_wu_vector *v, int z,
                     const hd_wu_alg2_options *opt, hd_wu_program_plan *out)
{
    if (t->kind != HD_TARGET_BUTTERFLY)
        return HD_EINVAL;
    return algorithm2(t, v, z, opt, out);
}
