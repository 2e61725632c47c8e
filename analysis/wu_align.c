/*
 * wu_align.c — operand alignment on omega-class networks (Wu 1984,
 * Chapters 4 and 5): Algorithm III (the exact optimum for one expression
 * tree), the plain dynamic program over all of AGL(n, 2) that checks it,
 * Algorithm IV (a heuristic for statements that read each other's
 * results), the exact optimum of a chain of statements, and Algorithms
 * VII and VIII (the same on the butterfly through R = bit reversal).
 *
 * Bit order (analysis.h, omega.c).  The thesis's one-pass class L U is
 * U L here, and its augmented L (unit lower triangular with the
 * complement in its first column) is here the group
 *     Uc = { x -> U x + c : U unit upper triangular, c any },
 * of 2^((n^2+n)/2) elements, while the thesis's U is the linear unit
 * lower triangular group Ll.  So the thesis's cosets "L A" (Theorems 4.2,
 * 4.4, 4.5, 4.14, 4.15) are the cosets Uc A here, and its "L U L" is
 * "U L U": D(X) <= 1 iff X in Uc Ll, a set closed under Uc on the left.
 *
 * Algorithm III as implemented (docs/omega-align.md says where it departs
 * from the printed text).  Nodes are visited in postorder (Section 4.2).
 * A node's candidates are the last alignments of Section 4.2's candidate
 * subsequences, each with the least cost of its subtree: single elements,
 * and whole cosets Uc X as a unit (the remark after Corollary 4.15.2).
 * Only costs Min and Min + 1 are kept (Theorem 4.7), one candidate per
 * alignment (Theorem 4.8), and a candidate of cost Min + 1 only when no
 * candidate of cost Min is one pass away (Theorem 4.9).  Then the term
 * "least cost of a child plus its edge" for a parent at X is
 *     Min      if X is a candidate of cost Min (or in such a coset),
 *     Min + 1  if X is a candidate of cost Min + 1, or a single candidate
 *              B of cost Min has D(X B^-1) = 1, or some coset of cost Min
 *              exists (Theorem 4.5: X = U1 L U2 Y, and U2 Y is in Uc Y),
 *     Min + 2  otherwise,
 * exactly (term_at).  A parent's candidates are its children's candidates
 * (Theorem 4.10: A_h in {A_l, A_r}) and, for two single candidates with
 * D = 2 both ways, the cosets of All(A_l, A_r) (Theorem 4.11), each
 * priced by the terms; docs/omega-align.md proves that nothing else can
 * be a candidate.  By induction single candidates are leaves' P^-1
 * (Corollary 4.15.2).  The alignments are then chosen top down, each
 * child at its best term given its parent's alignment.
 */
#include "analysis.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ trees */

void hd_align_tree_init(hd_align_tree *t, int n)
{
    t->n = n;
    t->count = t->cap = 0;
    t->node = NULL;
}

void hd_align_tree_free(hd_align_tree *t)
{
    free(t->node);
    hd_align_tree_init(t, t->n);
}

static int append_node(hd_align_tree *t, int left, int right, const hd_agl *P)
{
    hd_xreserve(&t->node, &t->cap, t->count + 1, sizeof *t->node);
    hd_align_node *v = &t->node[t->count];
    v->left = left;
    v->right = right;
    v->reads = -1;
    v->P = P ? *P : hd_agl_identity(t->n);
    return t->count++;
}

int hd_align_leaf(hd_align_tree *t, const hd_agl *P)
{
    return append_node(t, -1, -1, P);
}

int hd_align_op(hd_align_tree *t, int left, int right)
{
    return append_node(t, left, right, NULL);
}

static bool is_leaf(const hd_align_node *v)
{
    return v->left < 0;
}

static bool omega_class(const hd_target *t)
{
    return t->kind == HD_TARGET_OMEGA || t->kind == HD_TARGET_BUTTERFLY;
}

/* An element of AGL(n, 2) in gf2.h's form: no bit at n or above. */
static bool agl_valid(const hd_agl *p, int n)
{
    if (p->A.n != n || (p->b & ~hd_mask(n)))
        return false;
    for (int i = 0; i < HD_MAX_DIM; i++)
        if (p->A.row[i] & (i < n ? ~hd_mask(n) : ~UINT64_C(0)))
            return false;
    return hd_rank(&p->A) == n;
}

/* Postorder with the root last, every node but the root the child of
 * exactly one node, leaves' transfers in AGL(n, 2).  `max_reads` bounds
 * the statements a leaf may read (-1: none). */
static bool tree_valid(const hd_align_tree *tr, int n, int max_reads)
{
    if (tr->n != n || tr->count < 1 || tr->count > INT_MAX / 2)
        return false;
    int *parents = hd_xcalloc((size_t)tr->count, sizeof *parents);
    bool ok = true;
    for (int i = 0; i < tr->count && ok; i++) {
        const hd_align_node *v = &tr->node[i];
        if (is_leaf(v)) {
            ok = v->right < 0 && v->reads >= -1 && v->reads <= max_reads &&
                 agl_valid(&v->P, n);
            continue;
        }
        int kids[2] = { v->left, v->right };
        for (int k = 0; k < 2 && ok; k++) {
            if (kids[k] < 0 && k == 1)
                break;
            ok = kids[k] >= 0 && kids[k] < i && parents[kids[k]]++ == 0;
        }
        ok = ok && v->left != v->right;
    }
    for (int i = 0; i + 1 < tr->count && ok; i++)
        ok = parents[i] == 1;
    ok = ok && parents[tr->count - 1] == 0;
    free(parents);
    return ok;
}

static int children(const hd_align_node *v, int kid[2])
{
    kid[0] = v->left;
    kid[1] = v->right;
    return is_leaf(v) ? 0 : v->right < 0 ? 1 : 2;
}

/* ------------------------------------------------------------ the algebra */

static hd_agl agl_inverse(const hd_agl *p)
{
    hd_agl q;
    hd_agl_inverse(p, &q);    /* callers pass elements of AGL(n, 2) */
    return q;
}

/* D(x y^-1) on t. */
static int passes_between(const hd_target *t, const hd_agl *x, const hd_agl *y_inv)
{
    hd_agl q = hd_agl_compose(x, y_inv);
    return hd_passes(t, &q);
}

/* R as an element of AGL(n, 2). */
static hd_agl reversal(int n)
{
    hd_agl r = { hd_bit_reversal(n), 0 };
    return r;
}

/* The linear part of x y^-1 is U L (D(x y^-1) <= 1 once x != y). */
static bool within_one_pass(const hd_agl *x, const hd_agl *y_inv)
{
    hd_matrix m = hd_matrix_mul(&x->A, &y_inv->A);
    return hd_ul_factor(&m, NULL, NULL);
}

/* The canonical element of the coset Uc x: row i reduced modulo the span
 * of the rows below it (which Uc leaves invariant, as it adds lower rows
 * to higher ones), and no complement (Uc holds every translation). */
static hd_agl coset_key(const hd_agl *x)
{
    int n = x->A.n;
    hd_agl r = { hd_matrix_zero(n), 0 };
    hd_space below = hd_space_zero(n);
    for (int i = n - 1; i >= 0; i--) {
        r.A.row[i] = hd_space_reduce(&below, x->A.row[i]);
        hd_space_add(&below, x->A.row[i]);
    }
    return r;
}

/* ------------------------------------------------------ candidate sets */

/* A candidate: Section 4.2's last alignment of a candidate subsequence. */
typedef struct {
    hd_agl a;        /* a single alignment, or the coset's canonical element */
    hd_agl inv;      /* a^-1 */
    bool coset;      /* the whole coset Uc a, as a unit */
    int cost;        /* the least cost of the subtree with its root there */
} cand;

/* SEQ_h of a node: its candidates, hashed by (coset, a), and what term_at
 * needs: Min, the single candidates of cost Min, whether a coset has it. */
typedef struct {
    int count, cap;
    cand *e;
    int *slot;            /* open addressing: index + 1, 0 empty */
    int nslots;
    int min;
    int min_coset;        /* the cheapest coset's cost (INT_MAX: none) */
    int *z0;              /* single candidates of cost min */
    int nz0, z0cap;
    int z0_coset;         /* a coset of cost min, or -1 */
} cand_set;

static void set_init(cand_set *s)
{
    memset(s, 0, sizeof *s);
    s->min = s->min_coset = INT_MAX;
    s->z0_coset = -1;
}

static void set_free(cand_set *s)
{
    free(s->e);
    free(s->slot);
    free(s->z0);
    set_init(s);
}

static uint64_t key_hash(bool coset, const hd_agl *a)
{
    uint64_t h = coset ? 0x9e3779b97f4a7c15u : 0x7f4a7c159e3779b9u;
    for (int i = 0; i < a->A.n; i++)
        h = (h ^ a->A.row[i]) * 0xbf58476d1ce4e5b9u;
    h = (h ^ a->b) * 0x94d049bb133111ebu;
    return h ^ (h >> 31);
}

static int set_find(const cand_set *s, bool coset, const hd_agl *a)
{
    if (!s->nslots)
        return -1;
    size_t mask = (size_t)s->nslots - 1;
    for (size_t i = key_hash(coset, a) & mask;; i = (i + 1) & mask) {
        int at = s->slot[i] - 1;
        if (at < 0)
            return -1;
        if (s->e[at].coset == coset && hd_agl_equal(&s->e[at].a, a))
            return at;
    }
}

static void set_rehash(cand_set *s, int nslots)
{
    free(s->slot);
    s->nslots = nslots;
    s->slot = hd_xcalloc((size_t)nslots, sizeof *s->slot);
    size_t mask = (size_t)nslots - 1;
    for (int k = 0; k < s->count; k++) {
        size_t i = key_hash(s->e[k].coset, &s->e[k].a) & mask;
        while (s->slot[i])
            i = (i + 1) & mask;
        s->slot[i] = k + 1;
    }
}

/* Adds a candidate, or lowers the cost of an equal one (Theorem 4.8).
 * HD_ETOOBIG past HD_ALIGN_MAX_CANDIDATES. */
static int set_put(cand_set *s, bool coset, const hd_agl *a, const hd_agl *inv, int cost)
{
    int at = set_find(s, coset, a);
    if (at >= 0) {
        if (cost < s->e[at].cost)
            s->e[at].cost = cost;
    } else {
        if (s->count >= HD_ALIGN_MAX_CANDIDATES)
            return HD_ETOOBIG;
        hd_xreserve(&s->e, &s->cap, s->count + 1, sizeof *s->e);
        cand *c = &s->e[s->count++];
        c->a = *a;
        c->inv = *inv;
        c->coset = coset;
        c->cost = cost;
        if (2 * s->count > s->nslots)
            set_rehash(s, s->nslots ? 2 * s->nslots : 16);
        else {
            size_t mask = (size_t)s->nslots - 1, i = key_hash(coset, a) & mask;
            while (s->slot[i])
                i = (i + 1) & mask;
            s->slot[i] = s->count;
        }
    }
    if (cost < s->min)
        s->min = cost;
    if (coset && cost < s->min_coset)
        s->min_coset = cost;
    return HD_OK;
}

static void set_note_z0(cand_set *s)
{
    s->nz0 = 0;
    s->z0_coset = -1;
    for (int k = 0; k < s->count; k++) {
        if (s->e[k].cost != s->min)
            continue;
        if (s->e[k].coset)
            s->z0_coset = k;
        else {
            hd_xreserve(&s->z0, &s->z0cap, s->nz0 + 1, sizeof *s->z0);
            s->z0[s->nz0++] = k;
        }
    }
}

/* A leaf's SEQ: its P^-1 alone, cost 0 (Section 4.2). */
static void set_leaf(cand_set *s, const hd_agl *P)
{
    hd_agl inv = agl_inverse(P);
    set_put(s, false, &inv, P, 0);
    set_note_z0(s);
}

/* ------------------------------------------------------------ terms */

/* How a child's best term at a parent alignment X is reached. */
typedef enum {
    AT_SAME,        /* the child at X itself: candidate `pick` holds X */
    ONE_SINGLE,     /* one pass to single candidate `pick` */
    ONE_COSET,      /* one pass to an element of coset `pick` (Theorem 4.5) */
    TWO,            /* two passes to candidate `pick` */
} term_how;

typedef struct {
    int cost;
    term_how how;
    int pick;
} term;

/* The least cost of the child's subtree plus its edge when the parent is
 * at x (the rule in the header comment).  `generic`: x stands for any
 * element of the coset Uc x other than the single candidates in it, so
 * single candidates are never equal to it; key is coset_key(x). */
static term term_at(const cand_set *s, const hd_agl *x, const hd_agl *key, bool generic)
{
    term best = { INT_MAX, TWO, -1 };
    int at = generic ? -1 : set_find(s, false, x);
    if (at >= 0)
        best = (term){ s->e[at].cost, AT_SAME, at };
    at = set_find(s, true, key);
    if (at >= 0 && s->e[at].cost < best.cost)
        best = (term){ s->e[at].cost, AT_SAME, at };
    if (best.cost == s->min)
        return best;
    if (best.cost == s->min + 1)
        return best;
    for (int k = 0; k < s->nz0; k++) {
        const cand *c = &s->e[s->z0[k]];
        if (within_one_pass(x, &c->inv))
            return (term){ s->min + 1, ONE_SINGLE, s->z0[k] };
    }
    if (s->z0_coset >= 0)
        return (term){ s->min + 1, ONE_COSET, s->z0_coset };
    /* No coset of cost Min: then a single candidate has it. */
    return (term){ s->min + 2, TWO, s->z0[0] };
}

/* The child's alignment that realises term `tm` under a parent at x. */
static hd_agl realise(const hd_target *omega, const cand_set *s, term tm, const hd_agl *x)
{
    const cand *c = &s->e[tm.pick];
    if (tm.how == AT_SAME)
        return c->coset ? *x : c->a;
    if (tm.how == ONE_COSET) {
        /* Theorem 4.5 made constructive: x Y^-1 = second first with first
         * in Uc (omega.c's factorisation), so B = first Y lies in Uc Y and
         * x B^-1 = second passes in one. */
        hd_agl q = hd_agl_compose(x, &c->inv), first, second;
        hd_two_pass(omega, &q, &first, &second);
        return hd_agl_compose(&first, &c->a);
    }
    return c->a;
}

/* ------------------------------------------------------------ Algorithm III */

typedef struct {
    long formed, kept;
    int widest, all_cosets;
} search_stats;

/* The sum of the children's terms at x (generic: for the coset of x). */
static int price(cand_set *const kids[], int nk, const hd_agl *x, const hd_agl *key, bool generic)
{
    int sum = 0;
    for (int k = 0; k < nk; k++)
        sum += term_at(kids[k], x, key, generic).cost;
    return sum;
}

static int put_priced(cand_set *form, cand_set *const kids[], int nk, bool coset,
                      const hd_agl *a, const hd_agl *inv, search_stats *st)
{
    hd_agl key = coset ? *a : coset_key(a);
    st->formed++;
    return set_put(form, coset, a, inv, price(kids, nk, a, &key, coset));
}

/* The cosets Uc L B_l of All(B_l, B_r) (Theorem 4.11): L unit lower
 * triangular (linear) with L B_l B_r^-1 one pass, i.e. every trailing
 * principal block of N = L M nonsingular, M = B_l B_r^-1.  Row i of L
 * is chosen from the bottom up, so the block of rows and columns >= i is
 * tested as soon as its rows exist. */
typedef struct {
    const hd_matrix *M;
    hd_matrix N;
    hd_matrix L;
    const hd_agl *bl;
    cand_set *form;
    cand_set *const *kids;
    search_stats *st;
    int found;
} all_walk;

static int all_rows(all_walk *w, int i)
{
    int n = w->M->n;
    if (i < 0) {
        hd_agl x = { hd_matrix_mul(&w->L, &w->bl->A), 0 };
        hd_agl key = coset_key(&x), inv = agl_inverse(&key);
        w->found++;
        return put_priced(w->form, w->kids, 2, true, &key, &inv, w->st);
    }
    uint64_t tail = hd_mask(n) & ~hd_mask(i);
    for (uint64_t low = 0; low < (UINT64_C(1) << i); low++) {
        uint64_t row = w->M->row[i];
        for (uint64_t s = low; s; s &= s - 1)
            row ^= w->M->row[__builtin_ctzll(s)];
        w->N.row[i] = row;
        if (hd_rank_sub(&w->N, tail, tail) != n - i)
            continue;
        w->L.row[i] = low | UINT64_C(1) << i;
        int rc = all_rows(w, i - 1);
        if (rc != HD_OK)
            return rc;
    }
    return HD_OK;
}

static int form_all(cand_set *form, cand_set *const kids[2], const cand *bl, const cand *br,
                    search_stats *st)
{
    int n = bl->a.A.n;
    hd_matrix M = hd_matrix_mul(&bl->a.A, &br->inv.A);
    all_walk w = { &M, hd_matrix_zero(n), hd_matrix_identity(n), &bl->a, form, kids, st, 0 };
    int rc = all_rows(&w, n - 1);
    if (w.found > st->all_cosets)
        st->all_cosets = w.found;
    return rc;
}

/* Pairs of single candidates, one from each child, by the sum of their
 * costs (the cheapest first, so that `best` tightens early). */
static int form_pairs(cand_set *form, cand_set *const kids[2], search_stats *st)
{
    const hd_target om = hd_target_omega(kids[0]->e[0].a.A.n);
    int base = kids[0]->min + kids[1]->min;
    for (int extra = 0; extra <= 2; extra++)
        for (int i = 0; i < kids[0]->count; i++) {
            const cand *bl = &kids[0]->e[i];
            if (bl->coset)
                continue;
            for (int j = 0; j < kids[1]->count; j++) {
                const cand *br = &kids[1]->e[j];
                int v = bl->cost + br->cost;
                if (br->coset || v != base + extra)
                    continue;
                /* Theorem 4.7: the cosets would cost v + 2 at best. */
                if (v + 2 > form->min + 1)
                    continue;
                /* Theorems 4.9 and 4.5: a coset of cost <= v + 1 leaves
                 * them dominated or out of reach. */
                if (form->min_coset <= v + 1)
                    continue;
                /* Theorem 4.10. */
                if (passes_between(&om, &br->a, &bl->inv) <= 1 ||
                    passes_between(&om, &bl->a, &br->inv) <= 1)
                    continue;
                int rc = form_all(form, kids, bl, br, st);
                if (rc != HD_OK)
                    return rc;
            }
        }
    return HD_OK;
}

/* REDUCE of Algorithm III: Theorems 4.7, 4.8 and 4.9 (with 4.5 for
 * cosets), into `out`. */
static int reduce(const cand_set *form, cand_set *out, search_stats *st)
{
    int m = form->min, nz = 0;
    bool z0_coset = form->min_coset == m;
    int *z0 = hd_xmalloc((size_t)form->count * sizeof *z0);
    for (int k = 0; k < form->count; k++)
        if (!form->e[k].coset && form->e[k].cost == m)
            z0[nz++] = k;
    int rc = HD_OK;
    for (int k = 0; k < form->count && rc == HD_OK; k++) {
        const cand *c = &form->e[k];
        if (c->cost > m + 1)
            continue;                                   /* Theorem 4.7 */
        if (!c->coset) {
            hd_agl key = coset_key(&c->a);
            int at = set_find(form, true, &key);
            if (at >= 0 && form->e[at].cost <= c->cost)
                continue;                               /* Theorem 4.8 */
        }
        if (c->cost == m + 1) {
            if (z0_coset)
                continue;                               /* Theorems 4.5, 4.9 */
            bool dominated = false;
            for (int j = 0; j < nz && !dominated; j++)
                dominated = within_one_pass(&c->a, &form->e[z0[j]].inv);
            if (dominated)
                continue;                               /* Theorem 4.9 */
        }
        rc = set_put(out, c->coset, &c->a, &c->inv, c->cost);
    }
    free(z0);
    if (rc != HD_OK)
        return rc;
    set_note_z0(out);
    st->kept += out->count;
    if (out->count > st->widest)
        st->widest = out->count;
    return HD_OK;
}

/* FIND_OPTIMUM_SEQ for an internal node: SEQ_h from its children's. */
static int form_node(cand_set *const kids[], int nk, cand_set *out, search_stats *st)
{
    cand_set form;
    set_init(&form);
    int rc = HD_OK;
    /* Theorem 4.10: every child's candidate, single or coset. */
    for (int k = 0; k < nk && rc == HD_OK; k++)
        for (int i = 0; i < kids[k]->count && rc == HD_OK; i++) {
            const cand *c = &kids[k]->e[i];
            rc = put_priced(&form, kids, nk, c->coset, &c->a, &c->inv, st);
        }
    /* Theorem 4.11: All(A_l, A_r), a coset at a time. */
    if (rc == HD_OK && nk == 2)
        rc = form_pairs(&form, kids, st);
    if (rc == HD_OK)
        rc = reduce(&form, out, st);
    set_free(&form);
    return rc;
}

/* A tree in the omega network's terms: transfers per leaf (node index),
 * the candidate sets of every node, the least cost. */
typedef struct {
    const hd_align_tree *tree;
    const hd_agl *P;        /* per node; leaves' entries read */
    cand_set *set;          /* per node */
    search_stats st;
} omega_solve;

/* Candidate sets bottom up, for every node below `upto` (exclusive). */
static int solve_below(omega_solve *s, int upto)
{
    const hd_align_tree *tr = s->tree;
    for (int i = 0; i < upto; i++) {
        const hd_align_node *v = &tr->node[i];
        set_init(&s->set[i]);
        if (is_leaf(v)) {
            set_leaf(&s->set[i], &s->P[i]);
            continue;
        }
        int kid[2], nk = children(v, kid);
        cand_set *kids[2] = { &s->set[kid[0]], nk > 1 ? &s->set[kid[1]] : NULL };
        int rc = form_node(kids, nk, &s->set[i], &s->st);
        if (rc != HD_OK) {
            for (int j = 0; j <= i; j++)
                set_free(&s->set[j]);
            return rc;
        }
    }
    return HD_OK;
}

static void solve_free(omega_solve *s, int upto)
{
    for (int i = 0; i < upto; i++)
        set_free(&s->set[i]);
    free(s->set);
}

/* The children's terms of node `at` priced at x. */
static int price_node(omega_solve *s, int at, const hd_agl *x)
{
    int kid[2], nk = children(&s->tree->node[at], kid);
    cand_set *kids[2] = { &s->set[kid[0]], nk > 1 ? &s->set[kid[1]] : NULL };
    hd_agl key = coset_key(x);
    return price(kids, nk, x, &key, false);
}

/* The alignments top down from the root's, each child at its best term. */
static void choose_down(omega_solve *s, const hd_agl *root, hd_agl *A)
{
    const hd_align_tree *tr = s->tree;
    const hd_target om = hd_target_omega(tr->n);
    A[tr->count - 1] = *root;
    for (int i = tr->count - 1; i >= 0; i--) {
        const hd_align_node *v = &tr->node[i];
        if (is_leaf(v)) {
            A[i] = agl_inverse(&s->P[i]);
            continue;
        }
        int kid[2], nk = children(v, kid);
        hd_agl key = coset_key(&A[i]);
        for (int k = 0; k < nk; k++) {
            term tm = term_at(&s->set[kid[k]], &A[i], &key, false);
            A[kid[k]] = realise(&om, &s->set[kid[k]], tm, &A[i]);
        }
    }
}

/* Algorithm III on the omega network with transfers P (per node): the
 * least cost, the alignments, and (free root) the root's candidates in
 * *root_set (owned by the caller, set_free; may be NULL). */
static int omega_optimal(const hd_align_tree *tr, const hd_agl *P, const hd_agl *fixed_root,
                         hd_alignment *out, cand_set *root_set)
{
    int count = tr->count, root = count - 1;
    omega_solve s = { tr, P, hd_xcalloc((size_t)count, sizeof *s.set), { 0, 0, 0, 0 } };
    const hd_target om = hd_target_omega(tr->n);
    int upto = fixed_root || is_leaf(&tr->node[root]) ? root : count;
    int rc = solve_below(&s, upto);
    if (rc != HD_OK) {
        free(s.set);
        return rc;
    }
    hd_agl at;
    int cost;
    if (is_leaf(&tr->node[root])) {
        at = agl_inverse(&P[root]);
        hd_agl q = fixed_root ? hd_agl_compose(fixed_root, &P[root]) : hd_agl_identity(tr->n);
        cost = hd_passes(&om, &q);
    } else if (fixed_root) {
        at = *fixed_root;
        cost = price_node(&s, root, fixed_root);
    } else {
        const cand_set *r = &s.set[root];
        at = r->e[r->nz0 > 0 ? r->z0[0] : r->z0_coset].a;
        cost = r->min;
    }
    memset(out, 0, sizeof *out);
    out->cost = cost;
    out->count = count;
    out->A = hd_xmalloc((size_t)count * sizeof *out->A);
    choose_down(&s, &at, out->A);
    out->formed = s.st.formed;
    out->kept = s.st.kept;
    out->widest = s.st.widest;
    out->all_cosets = s.st.all_cosets;
    if (upto == count) {
        out->singles = s.set[root].nz0;
        for (int k = 0; k < s.set[root].count; k++)
            out->cosets += s.set[root].e[k].coset && s.set[root].e[k].cost == s.set[root].min;
    } else {
        out->singles = 1;
    }
    if (root_set && upto == count) {
        *root_set = s.set[root];
        set_init(&s.set[root]);
    }
    solve_free(&s, upto);
    return HD_OK;
}

/* ------------------------------------------------ the public entry points */

void hd_alignment_free(hd_alignment *a)
{
    free(a->A);
    memset(a, 0, sizeof *a);
}

static bool args_valid(const hd_target *t, const hd_align_tree *tree, const hd_agl *fixed_root)
{
    return omega_class(t) && t->n >= 1 && t->n <= HD_MAX_DIM && tree_valid(tree, t->n, -1) &&
           (!fixed_root || agl_valid(fixed_root, t->n));
}

int hd_align_cost(const hd_target *t, const hd_align_tree *tree, const hd_agl *fixed_root,
                  const hd_agl *A, int *cost)
{
    if (!args_valid(t, tree, fixed_root))
        return HD_EINVAL;
    int root = tree->count - 1, sum = 0;
    if (is_leaf(&tree->node[root])) {
        if (fixed_root) {
            hd_agl q = hd_agl_compose(fixed_root, &tree->node[root].P);
            sum = hd_passes(t, &q);
        }
        *cost = sum;
        return HD_OK;
    }
    if (fixed_root && !hd_agl_equal(&A[root], fixed_root))
        return HD_EINVAL;
    for (int i = 0; i < tree->count; i++) {
        const hd_align_node *v = &tree->node[i];
        if (is_leaf(v))
            continue;
        if (!agl_valid(&A[i], t->n))
            return HD_EINVAL;
        int kid[2], nk = children(v, kid);
        for (int k = 0; k < nk; k++) {
            const hd_align_node *c = &tree->node[kid[k]];
            hd_agl q;
            if (is_leaf(c))
                q = hd_agl_compose(&A[i], &c->P);
            else {
                if (!agl_valid(&A[kid[k]], t->n))
                    return HD_EINVAL;
                hd_agl ci = agl_inverse(&A[kid[k]]);
                q = hd_agl_compose(&A[i], &ci);
            }
            sum += hd_passes(t, &q);
        }
    }
    *cost = sum;
    return HD_OK;
}

/* The transfers Algorithm III sees: P (omega) or P R (butterfly, Algorithm
 * VII step 1), per node. */
static hd_agl *omega_transfers(const hd_target *t, const hd_align_tree *tr, const hd_agl *P)
{
    hd_agl *q = hd_xmalloc((size_t)tr->count * sizeof *q);
    hd_agl r = reversal(tr->n);
    for (int i = 0; i < tr->count; i++)
        q[i] = t->kind == HD_TARGET_BUTTERFLY ? hd_agl_compose(&P[i], &r) : P[i];
    return q;
}

/* Algorithm VII step 3: A -> R A (internal nodes; leaves keep P^-1). */
static void from_omega(const hd_target *t, const hd_align_tree *tr, const hd_agl *P, hd_agl *A)
{
    hd_agl r = reversal(tr->n);
    for (int i = 0; i < tr->count; i++)
        A[i] = is_leaf(&tr->node[i]) ? agl_inverse(&P[i])
               : t->kind == HD_TARGET_BUTTERFLY ? hd_agl_compose(&r, &A[i])
                                                : A[i];
}

/* III (omega) or VII (butterfly) with transfers P per node.  A fixed root
 * F on the butterfly is R F in the omega network's terms (R = R^-1). */
static int optimal_with(const hd_target *t, const hd_align_tree *tr, const hd_agl *P,
                        const hd_agl *fixed_root, hd_alignment *out, cand_set *root_set)
{
    hd_agl *q = omega_transfers(t, tr, P), froot;
    const hd_agl *fr = fixed_root;
    if (fixed_root && t->kind == HD_TARGET_BUTTERFLY) {
        hd_agl r = reversal(tr->n);
        froot = hd_agl_compose(&r, fixed_root);
        fr = &froot;
    }
    /* A copy's cost is D(F P) on t itself; VII's transform keeps it. */
    int rc = omega_optimal(tr, q, fr, out, root_set);
    if (rc == HD_OK)
        from_omega(t, tr, P, out->A);
    free(q);
    return rc;
}

static hd_agl *tree_transfers(const hd_align_tree *tr)
{
    hd_agl *P = hd_xmalloc((size_t)tr->count * sizeof *P);
    for (int i = 0; i < tr->count; i++)
        P[i] = tr->node[i].P;
    return P;
}

int hd_align_optimal(const hd_target *t, const hd_align_tree *tree, const hd_agl *fixed_root,
                     hd_alignment *out)
{
    if (!args_valid(t, tree, fixed_root))
        return HD_EINVAL;
    hd_agl *P = tree_transfers(tree);
    int rc = optimal_with(t, tree, P, fixed_root, out, NULL);
    free(P);
    return rc;
}

/* ------------------------------------------------------ AGL(n,2) tabulated */

/* Elements are numbered in the order of their code: row i of the linear
 * part at bits i n .. i n + n - 1, the complement above. */
struct hd_agl_group {
    int n, size, ncosets;
    hd_agl *elem;
    int *index;          /* by code, -1 for a singular linear part */
    uint16_t *mul;       /* mul[i size + j]: elem[i] after elem[j] */
    uint16_t *inv;
    int8_t *d[2];        /* D on the omega network, on the butterfly */
    int *coset;          /* the coset Uc x (omega network's terms) */
    int *members;        /* elements by coset, 2^((n^2+n)/2) each */
    uint16_t *rev;       /* R x */
};

static uint32_t code_of(const hd_agl *p)
{
    int n = p->A.n;
    uint32_t c = (uint32_t)p->b << (n * n);
    for (int i = 0; i < n; i++)
        c |= (uint32_t)p->A.row[i] << (i * n);
    return c;
}

static hd_agl agl_of_code(int n, uint32_t c)
{
    hd_agl p = { hd_matrix_zero(n), c >> (n * n) };
    for (int i = 0; i < n; i++)
        p.A.row[i] = c >> (i * n) & hd_mask(n);
    return p;
}

/* second after first on codes: row i of the product is the sum of the
 * rows of `first` that row i of `second` selects. */
static uint32_t code_compose(int n, uint32_t second, uint32_t first)
{
    uint32_t m = (UINT32_C(1) << n) - 1, rows = 0, b = 0;
    uint32_t fb = first >> (n * n), sb = second >> (n * n);
    for (int i = 0; i < n; i++) {
        uint32_t srow = second >> (i * n) & m, row = 0;
        for (int j = 0; j < n; j++)
            if (srow >> j & 1)
                row ^= first >> (j * n) & m;
        rows |= row << (i * n);
        b |= (uint32_t)__builtin_parity(srow & fb) << i;
    }
    return rows | (b ^ sb) << (n * n);
}

int hd_agl_group_new(int n, hd_agl_group **out)
{
    if (n < 1)
        return HD_EINVAL;
    if (n > HD_ALIGN_GROUP_MAX_DIM)
        return HD_ETOOBIG;
    hd_agl_group *g = hd_xcalloc(1, sizeof *g);
    uint32_t codes = UINT32_C(1) << (n * n + n);
    g->n = n;
    g->index = hd_xmalloc(codes * sizeof *g->index);
    g->elem = hd_xmalloc(codes * sizeof *g->elem);
    uint32_t *code = hd_xmalloc(codes * sizeof *code);
    for (uint32_t c = 0; c < codes; c++) {
        hd_agl p = agl_of_code(n, c);
        g->index[c] = hd_rank(&p.A) == n ? g->size : -1;
        if (g->index[c] >= 0) {
            code[g->size] = c;
            g->elem[g->size++] = p;
        }
    }
    int N = g->size;
    g->mul = hd_xmalloc((size_t)N * N * sizeof *g->mul);
    g->inv = hd_xmalloc((size_t)N * sizeof *g->inv);
    g->rev = hd_xmalloc((size_t)N * sizeof *g->rev);
    g->coset = hd_xmalloc((size_t)N * sizeof *g->coset);
    for (int i = 0; i < 2; i++)
        g->d[i] = hd_xmalloc((size_t)N);
    const hd_target om = hd_target_omega(n), bf = hd_target_butterfly(n);
    hd_agl r = reversal(n);
    int *coset_of_key = hd_xmalloc(codes * sizeof *coset_of_key);
    memset(coset_of_key, -1, codes * sizeof *coset_of_key);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int k = g->index[code_compose(n, code[i], code[j])];
            g->mul[(size_t)i * N + j] = (uint16_t)k;
        }
        hd_agl q = agl_inverse(&g->elem[i]), rq = hd_agl_compose(&r, &g->elem[i]);
        g->inv[i] = (uint16_t)g->index[code_of(&q)];
        g->rev[i] = (uint16_t)g->index[code_of(&rq)];
        g->d[0][i] = (int8_t)hd_passes(&om, &g->elem[i]);
        g->d[1][i] = (int8_t)hd_passes(&bf, &g->elem[i]);
        hd_agl key = coset_key(&g->elem[i]);
        uint32_t kc = code_of(&key);
        if (coset_of_key[kc] < 0)
            coset_of_key[kc] = g->ncosets++;
        g->coset[i] = coset_of_key[kc];
    }
    /* Members by coset: counting sort. */
    int size = N / g->ncosets, *fill = hd_xcalloc((size_t)g->ncosets, sizeof *fill);
    g->members = hd_xmalloc((size_t)N * sizeof *g->members);
    for (int i = 0; i < N; i++)
        g->members[g->coset[i] * size + fill[g->coset[i]]++] = i;
    free(fill);
    free(coset_of_key);
    free(code);
    *out = g;
    return HD_OK;
}

void hd_agl_group_free(hd_agl_group *g)
{
    if (!g)
        return;
    free(g->elem);
    free(g->index);
    free(g->mul);
    free(g->inv);
    free(g->rev);
    free(g->coset);
    free(g->members);
    free(g->d[0]);
    free(g->d[1]);
    free(g);
}

int hd_agl_group_size(const hd_agl_group *g)
{
    return g->size;
}

const hd_agl *hd_agl_group_element(const hd_agl_group *g, int i)
{
    return &g->elem[i];
}

int hd_agl_group_index(const hd_agl_group *g, const hd_agl *p)
{
    if (!agl_valid(p, g->n))
        return -1;
    return g->index[code_of(p)];
}

static int gmul(const hd_agl_group *g, int second, int first)
{
    return g->mul[(size_t)second * g->size + first];
}

/* ------------------------------------------------ the reference dynamic program */

/* The term of child c (a table over the group) for every parent X:
 * min over B of f_c(B) + D(X B^-1).  D is 0, 1 or 2, so only B of least
 * cost matter at distance 1 or 2: X = Y B, Y of one pass, gets least + 1. */
static void dp_term(const hd_agl_group *g, const int *ops, int nops, const int *f, int *out)
{
    int N = g->size, least = INT_MAX;
    for (int b = 0; b < N; b++)
        if (f[b] < least)
            least = f[b];
    for (int x = 0; x < N; x++)
        out[x] = f[x] < least + 2 ? f[x] : least + 2;
    for (int b = 0; b < N; b++)
        if (f[b] == least)
            for (int k = 0; k < nops; k++) {
                int x = gmul(g, ops[k], b);
                if (out[x] > least + 1)
                    out[x] = least + 1;
            }
}

int hd_align_dp(const hd_agl_group *g, const hd_target *t, const hd_align_tree *tree,
                const hd_agl *fixed_root, hd_alignment *out, int *root_cost)
{
    if (!args_valid(t, tree, fixed_root) || g->n != t->n)
        return HD_EINVAL;
    int N = g->size, count = tree->count, root = count - 1;
    const int8_t *D = g->d[t->kind == HD_TARGET_BUTTERFLY];
    int *ops = hd_xmalloc((size_t)N * sizeof *ops), nops = 0;
    for (int y = 0; y < N; y++)
        if (D[y] == 1)
            ops[nops++] = y;
    int *f = hd_xcalloc((size_t)count * N, sizeof *f), *tt = hd_xmalloc((size_t)N * sizeof *tt);
    int *pidx = hd_xmalloc((size_t)count * sizeof *pidx);
    for (int i = 0; i < count; i++) {
        const hd_align_node *v = &tree->node[i];
        int *fi = f + (size_t)i * N;
        if (is_leaf(v)) {
            pidx[i] = hd_agl_group_index(g, &v->P);
            for (int x = 0; x < N; x++)       /* the root fixed at X: a copy */
                fi[x] = D[gmul(g, x, pidx[i])];
            continue;
        }
        int kid[2], nk = children(v, kid);
        for (int k = 0; k < nk; k++) {
            const int *fc = f + (size_t)kid[k] * N;
            if (is_leaf(&tree->node[kid[k]]))
                for (int x = 0; x < N; x++)
                    fi[x] += fc[x];            /* D(X P): the leaf's table */
            else {
                dp_term(g, ops, nops, fc, tt);
                for (int x = 0; x < N; x++)
                    fi[x] += tt[x];
            }
        }
    }
    const int *froot = f + (size_t)root * N;
    int at = fixed_root ? hd_agl_group_index(g, fixed_root) : 0;
    if (!fixed_root) {
        if (is_leaf(&tree->node[root]))
            at = g->inv[pidx[root]];
        else
            for (int x = 1; x < N; x++)
                if (froot[x] < froot[at])
                    at = x;
    }
    if (root_cost)
        memcpy(root_cost, froot, (size_t)N * sizeof *root_cost);
    memset(out, 0, sizeof *out);
    out->cost = froot[at];
    out->count = count;
    out->A = hd_xmalloc((size_t)count * sizeof *out->A);
    int *pos = hd_xmalloc((size_t)count * sizeof *pos);
    pos[root] = at;
    for (int i = root; i >= 0; i--) {
        const hd_align_node *v = &tree->node[i];
        if (is_leaf(v)) {
            out->A[i] = g->elem[g->inv[pidx[i]]];
            continue;
        }
        out->A[i] = g->elem[pos[i]];
        int kid[2], nk = children(v, kid);
        for (int k = 0; k < nk; k++) {
            if (is_leaf(&tree->node[kid[k]]))
                continue;
            const int *fc = f + (size_t)kid[k] * N;
            int best = INT_MAX;
            for (int b = 0; b < N; b++) {
                int c = fc[b] + D[gmul(g, pos[i], g->inv[b])];
                if (c < best) {
                    best = c;
                    pos[kid[k]] = b;
                }
            }
        }
    }
    free(pos);
    free(pidx);
    free(tt);
    free(f);
    free(ops);
    return HD_OK;
}

/* ------------------------------------------------------------ programs */

void hd_align_program_free(hd_align_program_result *r)
{
    for (int j = 0; r->stmt && j < r->m; j++)
        hd_alignment_free(&r->stmt[j]);
    free(r->stmt);
    free(r->root);
    free(r->tried);
    memset(r, 0, sizeof *r);
}

static bool program_valid(const hd_target *t, const hd_align_stmt *s, int m)
{
    if (!omega_class(t) || t->n < 1 || t->n > HD_MAX_DIM || m < 1)
        return false;
    for (int j = 0; j < m; j++)
        if (!s[j].tree || !tree_valid(s[j].tree, t->n, j - 1) ||
            (s[j].fixed_root && !agl_valid(s[j].fixed_root, t->n)))
            return false;
    return true;
}

/* Section 4.1's replacement: a leaf reading statement k's result, which
 * lies at roots[k] (its data mapping), is the transfer P roots[k]^-1. */
static void effective_transfers(const hd_align_tree *tr, const hd_agl *roots, hd_agl *P)
{
    for (int i = 0; i < tr->count; i++) {
        const hd_align_node *v = &tr->node[i];
        P[i] = v->P;
        if (is_leaf(v) && v->reads >= 0) {
            hd_agl fi = agl_inverse(&roots[v->reads]);
            P[i] = hd_agl_compose(&v->P, &fi);
        }
    }
}

static bool read_later(const hd_align_stmt *s, int m, int j)
{
    for (int i = j + 1; i < m; i++)
        for (int k = 0; k < s[i].tree->count; k++)
            if (s[i].tree->node[k].reads == j)
                return true;
    return false;
}

/* The optimal alignments of a statement's result, numbered: its single
 * candidates of cost Min first, then the cosets of cost Min in turn
 * (element e of each before element e + 1 of any), element e of Uc Y
 * being x -> U Y x + c with U's entries above the diagonal and c read
 * from e's bits.  In the omega network's terms. */
typedef struct {
    const cand_set *set;
    int *cosets, ncosets;
    int n;
} root_options;

static bool option_at(const root_options *o, long k, hd_agl *out)
{
    const cand_set *s = o->set;
    if (k < s->nz0) {
        *out = s->e[s->z0[k]].a;
        return true;
    }
    k -= s->nz0;
    if (o->ncosets == 0)
        return false;
    int n = o->n, ubits = n * (n - 1) / 2;
    uint64_t e = (uint64_t)k / (uint64_t)o->ncosets;
    if (ubits + n < 63 && e >> (ubits + n))
        return false;
    const cand *c = &s->e[o->cosets[k % o->ncosets]];
    hd_agl u = { hd_matrix_identity(n), 0 };
    for (int i = 0, bit = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, bit++)
            if (e >> bit & 1)
                u.A.row[i] |= UINT64_C(1) << j;
    u.b = e >> ubits & hd_mask(n);
    *out = hd_agl_compose(&u, &c->a);
    return true;
}

/* Statement j solved given the results before it (roots): its cost, and
 * its k-th optimal result alignment in *opt (in t's terms; false when it
 * has fewer).  A fixed root, or a copy with a free root, has one. */
typedef struct {
    hd_alignment al;
    cand_set root;
    root_options opts;
    const hd_agl *fixed;
    hd_agl copy;        /* a copy's result: P^-1 */
    bool has_set;
} stmt_solve;

static int solve_stmt(const hd_target *t, const hd_align_stmt *s, const hd_agl *roots,
                      stmt_solve *out)
{
    const hd_align_tree *tr = s->tree;
    hd_agl *P = hd_xmalloc((size_t)tr->count * sizeof *P);
    effective_transfers(tr, roots, P);
    memset(out, 0, sizeof *out);
    set_init(&out->root);
    out->fixed = s->fixed_root;
    out->copy = agl_inverse(&P[tr->count - 1]);
    int rc = optimal_with(t, tr, P, s->fixed_root, &out->al, &out->root);
    free(P);
    if (rc != HD_OK)
        return rc;
    out->has_set = !s->fixed_root && !is_leaf(&tr->node[tr->count - 1]);
    if (out->has_set) {
        out->opts.set = &out->root;
        out->opts.n = t->n;
        out->opts.cosets = hd_xmalloc((size_t)out->root.count * sizeof *out->opts.cosets);
        for (int k = 0; k < out->root.count; k++)
            if (out->root.e[k].coset && out->root.e[k].cost == out->root.min)
                out->opts.cosets[out->opts.ncosets++] = k;
    }
    return HD_OK;
}

static bool stmt_option(const hd_target *t, const stmt_solve *s, long k, hd_agl *opt)
{
    if (!s->has_set) {
        *opt = s->fixed ? *s->fixed : s->copy;
        return k == 0;
    }
    hd_agl x;
    if (!option_at(&s->opts, k, &x))
        return false;
    if (t->kind == HD_TARGET_BUTTERFLY) {
        hd_agl r = reversal(t->n);
        x = hd_agl_compose(&r, &x);      /* Algorithm VII step 3 */
    }
    *opt = x;
    return true;
}

static void stmt_free(stmt_solve *s)
{
    hd_alignment_free(&s->al);
    set_free(&s->root);
    free(s->opts.cosets);
}

/* The greedy completion of Algorithm IV: statements j+1 .. m-1 solved in
 * turn, each result at its first optimal alignment; their cost. */
static int complete_greedily(const hd_target *t, const hd_align_stmt *s, int m, int j,
                             hd_agl *roots, int *cost)
{
    *cost = 0;
    for (int i = j + 1; i < m; i++) {
        stmt_solve si;
        int rc = solve_stmt(t, &s[i], roots, &si);
        if (rc != HD_OK)
            return rc;
        *cost += si.al.cost;
        stmt_option(t, &si, 0, &roots[i]);
        stmt_free(&si);
    }
    return HD_OK;
}

/* Each statement aligned with its result at roots[j]: the answer. */
static int finish_program(const hd_target *t, const hd_align_stmt *s, int m, const hd_agl *roots,
                          hd_align_program_result *out)
{
    for (int j = 0; j < m; j++) {
        const hd_align_tree *tr = s[j].tree;
        hd_agl *P = hd_xmalloc((size_t)tr->count * sizeof *P);
        effective_transfers(tr, roots, P);
        /* A free root at one of its optimal alignments costs the optimum;
         * a copy's result at P^-1 costs D(P^-1 P) = 0. */
        int rc = optimal_with(t, tr, P, &roots[j], &out->stmt[j], NULL);
        free(P);
        if (rc != HD_OK)
            return rc;
        out->root[j] = roots[j];
        out->cost += out->stmt[j].cost;
    }
    return HD_OK;
}

static void result_init(hd_align_program_result *out, int m)
{
    memset(out, 0, sizeof *out);
    out->m = m;
    out->stmt = hd_xcalloc((size_t)m, sizeof *out->stmt);
    out->root = hd_xcalloc((size_t)m, sizeof *out->root);
    out->tried = hd_xcalloc((size_t)m, sizeof *out->tried);
}

int hd_align_program(const hd_target *t, const hd_align_stmt *s, int m, int limit,
                     hd_align_program_result *out)
{
    if (!program_valid(t, s, m) || limit < 1)
        return HD_EINVAL;
    result_init(out, m);
    hd_agl *roots = hd_xcalloc((size_t)m, sizeof *roots), *trial = hd_xmalloc((size_t)m * sizeof *trial);
    int rc = HD_OK;
    for (int j = 0; j < m && rc == HD_OK; j++) {
        stmt_solve sj;
        rc = solve_stmt(t, &s[j], roots, &sj);
        if (rc != HD_OK)
            break;
        /* Only a result some later statement reads has a choice that
         * matters: then `limit` of its optimal alignments are tried. */
        int tries = read_later(s, m, j) ? limit : 1, best = INT_MAX;
        hd_agl opt;
        for (int k = 0; k < tries && rc == HD_OK && stmt_option(t, &sj, k, &opt); k++) {
            out->tried[j] = k + 1;
            if (tries == 1) {
                roots[j] = opt;
                break;
            }
            memcpy(trial, roots, (size_t)m * sizeof *trial);
            trial[j] = opt;
            int rest;
            rc = complete_greedily(t, s, m, j, trial, &rest);
            if (rc == HD_OK && sj.al.cost + rest < best) {
                best = sj.al.cost + rest;
                roots[j] = opt;
            }
        }
        stmt_free(&sj);
    }
    if (rc == HD_OK)
        rc = finish_program(t, s, m, roots, out);
    free(trial);
    free(roots);
    if (rc != HD_OK)
        hd_align_program_free(out);
    return rc;
}

/* ------------------------------------------------ the exact optimum of a chain */

/* The term table of a candidate set over the group (omega network's
 * terms): the rule of term_at, for every X at once. */
static void group_terms(const hd_agl_group *g, const cand_set *s, int *tt)
{
    int N = g->size, per = N / g->ncosets, m = s->min;
    for (int x = 0; x < N; x++)
        tt[x] = s->z0_coset >= 0 ? m + 1 : m + 2;
    for (int k = 0; k < s->nz0; k++) {
        int bi = g->inv[hd_agl_group_index(g, &s->e[s->z0[k]].a)];
        for (int x = 0; x < N; x++)
            if (g->d[0][gmul(g, x, bi)] == 1 && tt[x] > m + 1)
                tt[x] = m + 1;
    }
    for (int k = 0; k < s->count; k++) {
        const cand *c = &s->e[k];
        int at = hd_agl_group_index(g, &c->a);
        if (!c->coset) {
            if (c->cost < tt[at])
                tt[at] = c->cost;
            continue;
        }
        const int *mem = g->members + (size_t)g->coset[at] * per;
        for (int i = 0; i < per; i++)
            if (c->cost < tt[mem[i]])
                tt[mem[i]] = c->cost;
    }
}

/* tab[X] for every X of the group: the least cost of the tree (transfers
 * P per node, in t's terms) with its root fixed at X.  Algorithm III's
 * candidate sets below the root, then the root priced everywhere. */
static int root_table(const hd_agl_group *g, const hd_target *t, const hd_align_tree *tr,
                      const hd_agl *P, int *tab)
{
    int N = g->size, root = tr->count - 1;
    const int8_t *D = g->d[t->kind == HD_TARGET_BUTTERFLY];
    if (is_leaf(&tr->node[root])) {
        int p = hd_agl_group_index(g, &P[root]);
        for (int x = 0; x < N; x++)
            tab[x] = D[gmul(g, x, p)];
        return HD_OK;
    }
    hd_agl *q = omega_transfers(t, tr, P);
    omega_solve s = { tr, q, hd_xcalloc((size_t)tr->count, sizeof *s.set), { 0, 0, 0, 0 } };
    int rc = solve_below(&s, root);
    if (rc == HD_OK) {
        int *tt = hd_xmalloc((size_t)N * sizeof *tt), *f = hd_xcalloc((size_t)N, sizeof *f);
        int kid[2], nk = children(&tr->node[root], kid);
        for (int k = 0; k < nk; k++) {
            group_terms(g, &s.set[kid[k]], tt);
            for (int x = 0; x < N; x++)
                f[x] += tt[x];
        }
        /* On the butterfly X is R X in the omega network's terms. */
        for (int x = 0; x < N; x++)
            tab[x] = f[t->kind == HD_TARGET_BUTTERFLY ? g->rev[x] : x];
        free(f);
        free(tt);
        solve_free(&s, root);
    } else {
        free(s.set);
    }
    free(q);
    return rc;
}

static bool is_chain(const hd_align_stmt *s, int m)
{
    for (int j = 0; j < m; j++)
        for (int k = 0; k < s[j].tree->count; k++)
            if (s[j].tree->node[k].reads >= 0 && s[j].tree->node[k].reads != j - 1)
                return false;
    return true;
}

/* V[X]: the least cost of statements 0 .. j with statement j's result at
 * X; from[j][X] the result of statement j - 1 that gives it. */
int hd_align_program_exact(const hd_agl_group *g, const hd_target *t, const hd_align_stmt *s,
                           int m, hd_align_program_result *out)
{
    if (!program_valid(t, s, m) || g->n != t->n || !is_chain(s, m))
        return HD_EINVAL;
    int N = g->size, rc = HD_OK;
    int *V = hd_xmalloc((size_t)N * sizeof *V), *W = hd_xmalloc((size_t)N * sizeof *W);
    int *tab = hd_xmalloc((size_t)N * sizeof *tab);
    int *from = hd_xmalloc((size_t)m * N * sizeof *from);
    hd_agl *roots = hd_xcalloc((size_t)m, sizeof *roots);
    hd_agl *P = NULL;
    for (int j = 0; j < m && rc == HD_OK; j++) {
        const hd_align_tree *tr = s[j].tree;
        P = hd_xrealloc(P, (size_t)tr->count * sizeof *P);
        int fixed = s[j].fixed_root ? hd_agl_group_index(g, s[j].fixed_root) : -1;
        bool reads = j > 0 && read_later(s, j + 1, j - 1);
        for (int x = 0; x < N; x++)
            W[x] = INT_MAX;
        for (int y = 0; y < (reads ? N : 1) && rc == HD_OK; y++) {
            int base = 0, arg = 0;
            if (j > 0 && !reads)               /* independent of the result */
                for (int x = 0; x < N; x++)
                    if (V[x] < V[arg])
                        arg = x;
            if (j > 0)
                base = V[reads ? y : arg];
            if (base == INT_MAX)
                continue;
            if (reads)
                arg = y;
            if (j > 0)
                roots[j - 1] = g->elem[arg];
            effective_transfers(tr, roots, P);
            rc = root_table(g, t, tr, P, tab);
            for (int x = 0; rc == HD_OK && x < N; x++)
                if ((fixed < 0 || x == fixed) && base + tab[x] < W[x]) {
                    W[x] = base + tab[x];
                    from[(size_t)j * N + x] = arg;
                }
        }
        int *swap = V;
        V = W;
        W = swap;
    }
    if (rc == HD_OK) {
        int at = 0;
        for (int x = 1; x < N; x++)
            if (V[x] < V[at])
                at = x;
        for (int j = m - 1; j >= 0; j--) {
            roots[j] = g->elem[at];
            at = from[(size_t)j * N + at];
        }
        result_init(out, m);
        for (int j = 0; j < m; j++)
            out->tried[j] = N;
        rc = finish_program(t, s, m, roots, out);
        if (rc != HD_OK)
            hd_align_program_free(out);
    }
    free(P);
    free(roots);
    free(from);
    free(tab);
    free(W);
    free(V);
    return rc;
}
