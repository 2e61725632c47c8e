/*
 * wu_program.c — what Wu 1984's algorithms make of a whole program: the
 * statements of a spec (docs/lcc-format.md, "Programs") or the doalls of
 * a C program, read as Wu's vectors and transfers (Section 1.2), then
 *
 *   - Chapter 3's view (every alignment the identity): each vector between
 *     two assignments is a version with its transfers in program order,
 *     and Algorithm II (VI on the butterfly) gives each a sequence of data
 *     mappings, precedence included;
 *   - for C, those sequences as Hyperdo can run them: one mapping per
 *     array and doall (what '#pragma hyperdo map' can say), priced again
 *     under that constraint, so that the report and `translate --maps wu`
 *     never claim Wu's figure for a program that cannot have it;
 *   - Chapter 4's view for specs (every data mapping the identity):
 *     Algorithm IV (VIII) over the statements, roots free as in the thesis
 *     and fixed where owner computes puts them.
 *
 * The two views are Wu's two approaches (Chapter 6: "one may choose to
 * use only one of the approaches"); both are reported beside the cost
 * with nothing done.
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hd_agl agl_inverse(const hd_agl *p)
{
    hd_agl q;
    hd_agl_inverse(p, &q);   /* every element here is nonsingular */
    return q;
}

void hd_wu_prog_free(hd_wu_prog *w)
{
    for (int v = 0; v < w->nvectors; v++)
        free(w->vectors[v]);
    for (int s = 0; s < w->nstmts; s++) {
        hd_wu_stmt *st = &w->stmts[s];
        for (int i = 0; i < st->tree.count; i++)
            free(st->leaf_text[i]);
        free(st->leaf_text);
        free(st->also);
        free(st->whole);
        free(st->leaf_vector);
        hd_align_tree_free(&st->tree);
    }
    free(w->vectors);
    free(w->array);
    free(w->stmts);
    free(w->own);
    memset(w, 0, sizeof *w);
}

/* --------------------------------------------------------- from a spec */

/* A leaf's logical transfer: the permutation its data move by (a
 * scatter's inverse), the identity without one.  Specs accept only
 * permutations as transfers. */
static hd_agl spec_transfer(const hd_spec *s, const hd_spec_node *nd)
{
    return nd->lcc < 0 ? hd_agl_identity(s->n) : hd_lcc_moves(s->lccs[nd->lcc].comm.lcc);
}

int hd_wu_prog_from_spec(const hd_spec *s, hd_wu_prog *out)
{
    memset(out, 0, sizeof *out);
    if (s->nstmts == 0)
        return HD_EINVAL;
    out->n = s->n;
    out->nvectors = s->nvectors;
    out->vectors = hd_xcalloc((size_t)s->nvectors, sizeof *out->vectors);
    for (int v = 0; v < s->nvectors; v++)
        out->vectors[v] = hd_xstrdup(s->vectors[v]);
    out->nstmts = s->nstmts;
    out->stmts = hd_xcalloc((size_t)s->nstmts, sizeof *out->stmts);
    for (int k = 0; k < s->nstmts; k++) {
        const hd_spec_stmt *st = &s->stmts[k];
        hd_wu_stmt *w = &out->stmts[k];
        w->lhs = st->lhs;
        w->line = st->line;
        w->loop = -1;
        w->leaf_vector = hd_xmalloc((size_t)(st->nnodes + 1) * sizeof *w->leaf_vector);
        w->leaf_text = hd_xcalloc((size_t)(st->nnodes + 1), sizeof *w->leaf_text);
        hd_align_tree_init(&w->tree, s->n);
        for (int i = 0; i < st->nnodes; i++) {
            const hd_spec_node *nd = &st->nodes[i];
            if (nd->op) {
                hd_align_op(&w->tree, nd->left, nd->right);
                w->leaf_vector[i] = -1;
            } else {
                hd_agl p = spec_transfer(s, nd);
                hd_align_leaf(&w->tree, &p);
                w->leaf_vector[i] = nd->vector;
                const char *v = s->vectors[nd->vector];
                const char *c = nd->lcc >= 0 ? s->lccs[nd->lcc].name : NULL;
                size_t len = strlen(v) + (c ? strlen(c) + 2 : 0) + 1;
                w->leaf_text[i] = hd_xmalloc(len);
                snprintf(w->leaf_text[i], len, c ? "%s[%s]" : "%s", v, c);
            }
        }
    }
    return HD_OK;
}

/* ------------------------------------------------------------ from C */

/* The element of AGL(n, 2) the data of a read move by between physical
 * processors (the analysis's, under the program's mappings): the
 * identity for a local read; false for a communication that is no
 * permutation. */
static bool physical_transfer(const hd_comm *c, int n, hd_agl *out)
{
    if (c->kind == HD_COMM_LOCAL) {
        *out = hd_agl_identity(n);
        return true;
    }
    if (c->kind != HD_COMM_LCC || hd_rank(&c->lcc->A) != n)
        return false;
    *out = hd_lcc_moves(c->lcc);
    return true;
}

/* Statement s from doall l: its home array on the left, the other arrays
 * it writes beside it, a leaf per priced read.  The analysis saw each
 * array under the program's mapping at l, so a read of u is
 * F_home P F_u^-1 there (Section 1.2); P, the logical transfer, is what
 * Wu's algorithms take. */
static void stmt_of_loop(const hd_program *p, const hd_analysis *a, const int *vec_of,
                         const hd_agl *own, int d, hd_wu_stmt *w)
{
    const hd_loop *l = &p->loops[d];
    int n = p->n;
    w->lhs = vec_of[l->refs[l->home].array];
    w->line = l->line;
    w->loop = d;
    w->func_begin = l->func_begin;
    w->leaf_vector = hd_xmalloc((size_t)(2 * l->nrefs + 1) * sizeof *w->leaf_vector);
    w->leaf_text = hd_xcalloc((size_t)(2 * l->nrefs + 1), sizeof *w->leaf_text);
    w->also = hd_xmalloc((size_t)(l->nrefs + 1) * sizeof *w->also);
    w->whole = hd_xmalloc((size_t)(l->nrefs + 1) * sizeof *w->whole);
    hd_align_tree_init(&w->tree, n);
    hd_agl home_inv = agl_inverse(&own[w->lhs]);
    int last = -1;
    for (int j = 0; j < l->nrefs; j++) {
        const hd_ref *ref = &l->refs[j];
        if (!hd_array_distributed(p, ref->array))
            continue;
        int v = vec_of[ref->array];
        if (ref->is_write) {
            bool first = true;   /* its first write in the doall */
            for (int k = 0; k < j && first; k++)
                first = !(l->refs[k].is_write && l->refs[k].array == ref->array);
            if (!first)
                continue;
            if (v != w->lhs)
                w->also[w->nalso++] = v;
            if (hd_loop_writes_all(p, a, l, ref->array))
                w->whole[w->nwhole++] = v;
            continue;
        }
        hd_agl phys;
        if (!physical_transfer(&hd_ref_result(a, ref)->comm, n, &phys)) {
            w->unpriced++;
            continue;
        }
        hd_agl right = hd_agl_compose(&phys, &own[v]);
        hd_agl P = hd_agl_compose(&home_inv, &right);
        int leaf = hd_align_leaf(&w->tree, &P);
        w->leaf_vector[leaf] = v;
        w->leaf_text[leaf] = hd_xstrdup(ref->text);
        if (last >= 0) {
            last = hd_align_op(&w->tree, last, leaf);
            w->leaf_vector[last] = -1;
        } else {
            last = leaf;
        }
    }
}

int hd_wu_prog_from_c(const hd_program *p, const hd_analysis *a, hd_wu_prog *out)
{
    memset(out, 0, sizeof *out);
    if (p->n < 1)
        return HD_EINVAL;
    out->n = p->n;
    out->from_c = true;
    int *vec_of = hd_xmalloc((size_t)(p->narrays + 1) * sizeof *vec_of);
    out->vectors = hd_xcalloc((size_t)(p->narrays + 1), sizeof *out->vectors);
    out->array = hd_xcalloc((size_t)(p->narrays + 1), sizeof *out->array);
    for (int x = 0; x < p->narrays; x++) {
        vec_of[x] = -1;
        if (hd_array_distributed(p, x)) {
            vec_of[x] = out->nvectors;
            out->array[out->nvectors] = x;
            out->vectors[out->nvectors++] = hd_xstrdup(p->arrays[x].name);
        }
    }
    int nv = out->nvectors;
    out->stmts = hd_xcalloc((size_t)(p->nloops + 1), sizeof *out->stmts);
    out->own = hd_xcalloc((size_t)(p->nloops + 1) * (size_t)(nv + 1), sizeof *out->own);
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        if (l->home < 0 || !hd_array_distributed(p, l->refs[l->home].array))
            continue;
        int s = out->nstmts++;
        hd_agl *own = &out->own[(size_t)s * (size_t)nv];
        for (int x = 0; x < p->narrays; x++) {
            if (vec_of[x] < 0)
                continue;
            const hd_data_map *m = hd_map_at(p, l, x);
            own[vec_of[x]] = m ? hd_affine_agl(&m->F, p->n) : hd_agl_identity(p->n);
        }
        stmt_of_loop(p, a, vec_of, own, d, &out->stmts[s]);
    }
    free(vec_of);
    return HD_OK;
}

/* ------------------------------------------------ Chapter 3: versions */

/* Algorithm II's step 1: each assignment starts a new version of its
 * vector; the uses of each version in program order.  Versions 0 ..
 * nvectors - 1 are the inputs; then, per statement, its left-hand side's
 * and (C) each other written array's. */
typedef struct {
    int count, cap;
    int *vector, *defined_by;
    int *nuses, *ucap;
    hd_wu_prog_use **uses;
} versions;

static int new_version(versions *vs, int vector, int stmt)
{
    if (vs->count == vs->cap) {
        vs->cap = vs->cap ? 2 * vs->cap : 16;
        vs->vector = hd_xrealloc(vs->vector, (size_t)vs->cap * sizeof *vs->vector);
        vs->defined_by = hd_xrealloc(vs->defined_by, (size_t)vs->cap * sizeof *vs->defined_by);
        vs->nuses = hd_xrealloc(vs->nuses, (size_t)vs->cap * sizeof *vs->nuses);
        vs->ucap = hd_xrealloc(vs->ucap, (size_t)vs->cap * sizeof *vs->ucap);
        vs->uses = hd_xrealloc(vs->uses, (size_t)vs->cap * sizeof *vs->uses);
    }
    int k = vs->count++;
    vs->vector[k] = vector;
    vs->defined_by[k] = stmt;
    vs->nuses[k] = vs->ucap[k] = 0;
    vs->uses[k] = NULL;
    return k;
}

static void add_use(versions *vs, int ver, hd_wu_prog_use u)
{
    hd_xreserve(&vs->uses[ver], &vs->ucap[ver], vs->nuses[ver] + 1, sizeof **vs->uses);
    vs->uses[ver][vs->nuses[ver]++] = u;
}

static void versions_free(versions *vs)
{
    for (int k = 0; k < vs->count; k++)
        free(vs->uses[k]);
    free(vs->vector);
    free(vs->defined_by);
    free(vs->nuses);
    free(vs->ucap);
    free(vs->uses);
}

/* The uses of every version; `into` holds the version gone into. */
static void build_versions(const hd_wu_prog *w, versions *vs)
{
    int *current = hd_xmalloc((size_t)(w->nvectors + 1) * sizeof *current);
    for (int v = 0; v < w->nvectors; v++)
        current[v] = new_version(vs, v, -1);
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        int result = vs->count;   /* the left-hand side's, made below */
        for (int i = 0; i < st->tree.count; i++)
            if (st->leaf_vector[i] >= 0)
                add_use(vs, current[st->leaf_vector[i]],
                        (hd_wu_prog_use){ .stmt = s, .node = i, .P = st->tree.node[i].P,
                                          .into = result });
        current[st->lhs] = new_version(vs, st->lhs, s);
        /* Another array the doall writes is its result too, on the same
         * processors: a copy of the result, which Hyperdo makes as a remap
         * of that array before its next use. */
        for (int k = 0; k < st->nalso; k++) {
            int ver = new_version(vs, st->also[k], s);
            add_use(vs, result, (hd_wu_prog_use){ .stmt = s, .node = -1,
                                                   .P = hd_agl_identity(w->n), .into = ver });
            current[st->also[k]] = ver;
        }
    }
    free(current);
}

/* ------------------------------------------ Chapter 3: Algorithm II */

/* The versions with uses, as Algorithm II's vectors in Wu's order (step
 * 2: a vector before what it is read into, so later versions first), run
 * through Algorithm II (VI); out->versions in program order. */
static int map_program(const hd_target *t, const hd_wu_prog *w, versions *vs,
                       hd_wu_prog_result *out)
{
    int total = vs->count, z = 0;
    int *pos = hd_xmalloc((size_t)total * sizeof *pos);     /* Wu's position */
    int *out_of = hd_xmalloc((size_t)total * sizeof *out_of); /* out->versions' */
    for (int ver = total - 1; ver >= 0; ver--)
        pos[ver] = vs->nuses[ver] > 0 ? z++ : -1;
    int o = 0;
    for (int ver = 0; ver < total; ver++)
        out_of[ver] = vs->nuses[ver] > 0 ? o++ : -1;
    out->nversions = z;
    out->versions = hd_xcalloc((size_t)(z + 1), sizeof *out->versions);
    out->map_identity = 0;
    for (int ver = 0; ver < total; ver++) {
        if (pos[ver] < 0)
            continue;
        hd_wu_prog_version *x = &out->versions[out_of[ver]];
        x->vector = vs->vector[ver];
        x->defined_by = vs->defined_by[ver];
        x->nuses = vs->nuses[ver];
        x->uses = hd_xmalloc((size_t)x->nuses * sizeof *x->uses);
        for (int h = 0; h < x->nuses; h++) {
            x->uses[h] = vs->uses[ver][h];
            x->uses[h].into = out_of[vs->uses[ver][h].into];
            x->uses[h].F = hd_agl_identity(w->n);
            int d = hd_passes(t, &x->uses[h].P);
            x->uses[h].passes = d;
            out->map_identity += d;
        }
    }
    int rc = HD_OK;
    if (z > HD_WU_PROGRAM_MAX_VERSIONS)
        rc = HD_ETOOBIG;
    hd_wu_vector *vec = hd_xcalloc((size_t)(z + 1), sizeof *vec);
    hd_wu_use **uses = hd_xcalloc((size_t)(z + 1), sizeof *uses);
    for (int ver = 0; ver < total && rc == HD_OK; ver++) {
        if (pos[ver] < 0)
            continue;
        int j = pos[ver], k = vs->nuses[ver];
        uses[j] = hd_xmalloc((size_t)k * sizeof **uses);
        for (int h = 0; h < k; h++)
            uses[j][h] = (hd_wu_use){ vs->uses[ver][h].P, pos[vs->uses[ver][h].into] };
        vec[j] = (hd_wu_vector){ k, uses[j] };
    }
    out->map_exact = w->n <= HD_WU_PROGRAM_EXACT_MAX_DIM;
    out->map_limit = z <= HD_WU_PROGRAM_WIDE_VERSIONS ? HD_WU_PROGRAM_LIMIT : 1;
    out->map_cost = out->map_identity;
    if (rc == HD_OK && z > 0) {
        hd_wu_alg2_options opt = { out->map_limit,
                                   out->map_exact ? HD_WU_INNER_EXACT : HD_WU_INNER_RUNS,
                                   HD_WU_PROGRAM_BUDGET };
        hd_wu_program_plan pp;
        rc = t->kind == HD_TARGET_OMEGA ? hd_wu_algorithm2(t, vec, z, &opt, &pp)
                                        : hd_wu_algorithm6(t, vec, z, &opt, &pp);
        if (rc == HD_OK) {
            out->map_cost = pp.cost;
            for (int ver = 0; ver < total; ver++) {
                if (pos[ver] < 0)
                    continue;
                hd_wu_prog_version *x = &out->versions[out_of[ver]];
                const hd_wu_plan *pl = &pp.plan[pos[ver]];
                for (int h = 0; h < x->nuses; h++) {
                    hd_wu_prog_use *u = &x->uses[h];
                    u->F = pl->F[h];
                    hd_agl e = u->P;
                    if (vec[pos[ver]].use[h].into >= 0)
                        e = hd_agl_compose(&pp.plan[vec[pos[ver]].use[h].into].F[0], &u->P);
                    u->passes = hd_wu_transfer_cost(t, &e, &u->F);
                    u->remap = h ? hd_wu_remap_cost(t, &pl->F[h - 1], &u->F) : 0;
                }
            }
            hd_wu_program_plan_free(&pp);
        }
    }
    for (int j = 0; j < z; j++)
        free(uses[j]);
    free(uses);
    free(vec);
    free(pos);
    free(out_of);
    return rc;
}

/* ------------------------------- Chapter 3 as Hyperdo runs it (C only) */

/* The first mapping of a version (where its result is made), or the
 * identity for one never read again. */
static hd_agl first_mapping(const hd_wu_prog_result *r, int version, int n)
{
    return version >= 0 ? r->versions[version].uses[0].F : hd_agl_identity(n);
}

/* One mapping per array and doall, from Algorithm II's sequences: an
 * array the doall writes takes its result's first mapping (the arrays one
 * doall writes must share their processors: docs/annotations.md), an
 * array it only reads the mapping of its first read there.  Where Wu
 * gives one version two mappings inside one statement, or a version
 * read in the statement that assigns its vector another mapping than the
 * result, Hyperdo cannot follow: the price below says what that costs. */
static void project(const hd_wu_prog *w, hd_wu_prog_result *r)
{
    int nv = w->nvectors, n = w->n;
    size_t cells = (size_t)(w->nstmts + 1) * (size_t)(nv + 1);
    r->at = hd_xcalloc(cells, sizeof *r->at);
    r->used = hd_xcalloc(cells, sizeof *r->used);
    /* Every vector a statement reads, at its first read there. */
    for (int x = 0; x < r->nversions; x++) {
        const hd_wu_prog_version *ver = &r->versions[x];
        for (int h = 0; h < ver->nuses; h++) {
            const hd_wu_prog_use *u = &ver->uses[h];
            size_t c = (size_t)u->stmt * (size_t)nv + (size_t)ver->vector;
            if (!r->used[c]) {
                r->used[c] = true;
                r->at[c] = u->F;
            }
        }
    }
    /* Each statement's result: the version it makes of its left-hand
     * side, -1 when that is never read. */
    int *result_of = hd_xmalloc((size_t)(w->nstmts + 1) * sizeof *result_of);
    for (int s = 0; s < w->nstmts; s++)
        result_of[s] = -1;
    for (int x = 0; x < r->nversions; x++) {
        int s = r->versions[x].defined_by;
        if (s >= 0 && r->versions[x].vector == w->stmts[s].lhs)
            result_of[s] = x;
    }
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        int result = result_of[s];
        /* A result never read again goes nowhere: the array stays under
         * the mapping the text leaves it (no remap), as Wu's
         * identity-mapped result costs nothing. */
        hd_agl F = first_mapping(r, result, n);
        if (result < 0)
            for (int e = s - 1; e >= 0 && w->stmts[e].func_begin == st->func_begin; e--)
                if (r->used[(size_t)e * (size_t)nv + (size_t)st->lhs]) {
                    F = r->at[(size_t)e * (size_t)nv + (size_t)st->lhs];
                    break;
                }
        size_t row = (size_t)s * (size_t)nv;
        r->at[row + (size_t)st->lhs] = F;
        r->used[row + (size_t)st->lhs] = true;
        for (int k = 0; k < st->nalso; k++) {
            r->at[row + (size_t)st->also[k]] = F;
            r->used[row + (size_t)st->also[k]] = true;
        }
    }
    free(result_of);
}

/* The passes of statement s's reads when vector v is under at[s *
 * nvectors + v]: each D(F_home P F_v^-1). */
static int stmt_transfers(const hd_target *t, const hd_wu_prog *w, const hd_agl *at, int s)
{
    const hd_wu_stmt *st = &w->stmts[s];
    const hd_agl *row = &at[(size_t)s * (size_t)w->nvectors];
    int total = 0;
    for (int i = 0; i < st->tree.count; i++) {
        int v = st->leaf_vector[i];
        if (v < 0)
            continue;
        hd_agl moved = hd_agl_compose(&row[st->lhs], &st->tree.node[i].P);
        total += hd_wu_transfer_cost(t, &moved, &row[v]);
    }
    return total;
}

/* The passes of the program's transfers and remaps (hd_wu_prog_remaps)
 * under the mappings at. */
static int price(const hd_target *t, const hd_wu_prog *w, const hd_agl *at)
{
    int total = 0;
    for (int s = 0; s < w->nstmts; s++)
        total += stmt_transfers(t, w, at, s);
    return total + hd_wu_prog_remaps(t, w, at, NULL);
}

/* D of the remap from F to G (Wu's D(G F^-1)), between physical
 * processors when they are renamed by Q (NULL: not renamed). */
static int remap_passes(const hd_target *t, const hd_agl *F, const hd_agl *G,
                        const hd_mapping *Q)
{
    if (hd_agl_equal(F, G))
        return 0;
    if (!Q)
        return hd_wu_remap_cost(t, F, G);
    hd_agl finv = agl_inverse(F), moves = hd_agl_compose(G, &finv);
    hd_lcc c = { .dir = HD_GATHER, .A = moves.A, .b = moves.b };
    hd_lcc phys = hd_lcc_mapped(&c, Q);
    return hd_passes(t, &(hd_agl){ phys.A, phys.b });
}

static bool in_list(const int *list, int count, int v)
{
    for (int k = 0; k < count; k++)
        if (list[k] == v)
            return true;
    return false;
}

/* How statement st uses vector v: 0 not at all, 1 writes all of it
 * without reading it, 2 otherwise (its old elements are needed). */
static int use_of(const hd_wu_stmt *st, int v)
{
    for (int i = 0; i < st->tree.count; i++)
        if (st->leaf_vector[i] == v)
            return 2;
    if (st->lhs != v && !in_list(st->also, st->nalso, v))
        return 0;
    return in_list(st->whole, st->nwhole, v) ? 1 : 2;
}

int hd_wu_prog_remaps(const hd_target *t, const hd_wu_prog *w, const hd_agl *at,
                      const hd_mapping *Q)
{
    int nv = w->nvectors, total = 0;
    for (int v = 0; v < nv; v++) {
        int prev = -1;
        for (int s = 0; s < w->nstmts; s++) {
            int use = use_of(&w->stmts[s], v);
            if (!use)
                continue;
            if (prev >= 0 && use == 2)
                total += remap_passes(t, &at[(size_t)prev * (size_t)nv + (size_t)v],
                                      &at[(size_t)s * (size_t)nv + (size_t)v], Q);
            prev = s;
        }
    }
    return total;
}

/* ------------------- Hyperdo's completion: one mapping per array and doall */

/* Which statements use vector v before and after statement s (-1: none),
 * for the remaps a change at s touches. */
typedef struct {
    const hd_target *t;
    const hd_wu_prog *w;
    hd_agl *at;
    int *prev, *next;     /* [s * nvectors + v] */
} search;

static int remap_between(const search *x, int v, int s, int s2)
{
    int nv = x->w->nvectors;
    if (s < 0 || s2 < 0 || use_of(&x->w->stmts[s2], v) != 2)
        return 0;
    return remap_passes(x->t, &x->at[(size_t)s * (size_t)nv + (size_t)v],
                        &x->at[(size_t)s2 * (size_t)nv + (size_t)v], NULL);
}

/* The passes a change of the cell (vectors cell[0 .. count) of statement
 * s) can alter: s's reads, and the remaps into and out of s. */
static int local_price(const search *x, int s, const int *cell, int count)
{
    int nv = x->w->nvectors, total = stmt_transfers(x->t, x->w, x->at, s);
    for (int k = 0; k < count; k++) {
        size_t c = (size_t)s * (size_t)nv + (size_t)cell[k];
        total += remap_between(x, cell[k], x->prev[c], s);
        total += remap_between(x, cell[k], s, x->next[c]);
    }
    return total;
}

static void set_cell(search *x, int s, const int *cell, int count, const hd_agl *F)
{
    for (int k = 0; k < count; k++)
        x->at[(size_t)s * (size_t)x->w->nvectors + (size_t)cell[k]] = *F;
}

/* The best of `cands` (and of the moves that make one read of the cell,
 * or one remap, cost nothing) for the cell, if better than what it has. */
static bool improve_cell(search *x, int s, const int *cell, int count, bool written,
                         const hd_agl *cands, int ncand)
{
    const hd_wu_stmt *st = &x->w->stmts[s];
    int nv = x->w->nvectors;
    hd_agl *row = &x->at[(size_t)s * (size_t)nv];
    hd_agl keep = row[cell[0]], best = keep;
    int best_cost = local_price(x, s, cell, count);
    int nlocal = 2 * st->tree.count + 2 * count;
    hd_agl *local = hd_xmalloc((size_t)(nlocal + 1) * sizeof *local);
    int m = 0;
    for (int i = 0; i < st->tree.count; i++) {
        int v = st->leaf_vector[i];
        if (v < 0)
            continue;
        if (written) {           /* F_home = F_v P^-1: this read stays home */
            hd_agl pinv = agl_inverse(&st->tree.node[i].P);
            local[m++] = hd_agl_compose(&row[v], &pinv);
        } else if (v == cell[0]) {   /* F_v = F_home P */
            local[m++] = hd_agl_compose(&row[st->lhs], &st->tree.node[i].P);
        }
    }
    for (int k = 0; k < count; k++) {
        size_t c = (size_t)s * (size_t)nv + (size_t)cell[k];
        if (x->prev[c] >= 0)
            local[m++] = x->at[(size_t)x->prev[c] * (size_t)nv + (size_t)cell[k]];
        if (x->next[c] >= 0)
            local[m++] = x->at[(size_t)x->next[c] * (size_t)nv + (size_t)cell[k]];
    }
    for (int j = 0; j < ncand + m; j++) {
        const hd_agl *F = j < ncand ? &cands[j] : &local[j - ncand];
        set_cell(x, s, cell, count, F);
        int c = local_price(x, s, cell, count);
        if (c < best_cost) {
            best_cost = c;
            best = *F;
        }
    }
    set_cell(x, s, cell, count, &best);
    free(local);
    return !hd_agl_equal(&best, &keep);
}

/* A descent from *at (Hyperdo's, not Wu's): each statement's written
 * vectors as one cell, each vector it only reads as another, given the
 * candidate that lowers the program's passes most, until none does or
 * HD_WU_DESCENT_ROUNDS rounds. */
static void descend(const hd_target *t, const hd_wu_prog *w, hd_agl *at, const hd_agl *cands,
                    int ncand)
{
    int nv = w->nvectors;
    size_t cells = (size_t)(w->nstmts + 1) * (size_t)(nv + 1);
    search x = { t, w, at, hd_xmalloc(cells * sizeof(int)), hd_xmalloc(cells * sizeof(int)) };
    for (int v = 0; v < nv; v++) {
        int last = -1;
        for (int s = 0; s < w->nstmts; s++) {
            x.prev[(size_t)s * (size_t)nv + (size_t)v] = last;
            if (use_of(&w->stmts[s], v))
                last = s;
        }
        last = -1;
        for (int s = w->nstmts - 1; s >= 0; s--) {
            x.next[(size_t)s * (size_t)nv + (size_t)v] = last;
            if (use_of(&w->stmts[s], v))
                last = s;
        }
    }
    int *cell = hd_xmalloc((size_t)(nv + 1) * sizeof *cell);
    for (int round = 0; round < HD_WU_DESCENT_ROUNDS; round++) {
        bool changed = false;
        for (int s = 0; s < w->nstmts; s++) {
            const hd_wu_stmt *st = &w->stmts[s];
            cell[0] = st->lhs;
            memcpy(cell + 1, st->also, (size_t)st->nalso * sizeof *cell);
            changed |= improve_cell(&x, s, cell, 1 + st->nalso, true, cands, ncand);
            for (int v = 0; v < nv; v++)
                if (use_of(st, v) == 2 && v != st->lhs && !in_list(st->also, st->nalso, v)) {
                    cell[0] = v;
                    changed |= improve_cell(&x, s, cell, 1, false, cands, ncand);
                }
        }
        if (!changed)
            break;
    }
    free(cell);
    free(x.prev);
    free(x.next);
}

/* One linear F for every array everywhere (the static problem, as the
 * plan solves it for processors: hd_omega_choose_mapping) over the
 * logical transfers: a start the descent can only improve on. */
static hd_agl static_mapping(const hd_target *t, const hd_wu_prog *w)
{
    int m = 0;
    for (int s = 0; s < w->nstmts; s++)
        m += w->stmts[s].tree.count;
    hd_lcc *c = hd_xmalloc((size_t)(m + 1) * sizeof *c);
    const hd_lcc **cp = hd_xmalloc((size_t)(m + 1) * sizeof *cp);
    uint64_t *weight = hd_xmalloc((size_t)(m + 1) * sizeof *weight);
    int k = 0;
    for (int s = 0; s < w->nstmts; s++)
        for (int i = 0; i < w->stmts[s].tree.count; i++)
            if (w->stmts[s].leaf_vector[i] >= 0) {
                /* Each distinct transfer once, weighted by its uses. */
                const hd_agl *P = &w->stmts[s].tree.node[i].P;
                hd_lcc x = { .dir = HD_GATHER, .A = P->A, .b = P->b };
                int j = 0;
                while (j < k && !hd_lcc_equal(&c[j], &x))
                    j++;
                if (j == k) {
                    c[k] = x;
                    cp[k] = &c[k];
                    weight[k++] = 0;
                }
                weight[j]++;
            }
    hd_agl F = hd_agl_identity(w->n);
    uint64_t passes;
    if (k > 0)
        hd_omega_choose_mapping(t, cp, weight, k, &F.A, &passes);
    free(c);
    free(cp);
    free(weight);
    return F;
}

/* The mappings Hyperdo runs: Algorithm II's projected, and the static
 * mapping, each improved by the descent; the cheaper kept in r->at. */
static void complete(const hd_target *t, const hd_wu_prog *w, hd_wu_prog_result *r)
{
    int nv = w->nvectors;
    size_t cells = (size_t)(w->nstmts + 1) * (size_t)(nv + 1);
    r->projected = price(t, w, r->at);
    /* Candidates: every mapping the projection uses, the identity and F. */
    hd_agl F = static_mapping(t, w);
    hd_agl *cands = hd_xmalloc((HD_WU_DESCENT_CANDIDATES + 2) * sizeof *cands);
    int ncand = 0;
    cands[ncand++] = hd_agl_identity(w->n);
    cands[ncand++] = F;
    for (size_t c = 0; c < cells && ncand < HD_WU_DESCENT_CANDIDATES + 2; c++) {
        if (!r->used[c])
            continue;
        bool seen = false;
        for (int j = 0; j < ncand && !seen; j++)
            seen = hd_agl_equal(&cands[j], &r->at[c]);
        if (!seen)
            cands[ncand++] = r->at[c];
    }
    hd_agl *other = hd_xmalloc(cells * sizeof *other);
    for (size_t c = 0; c < cells; c++)
        other[c] = F;
    r->static_cost = price(t, w, other);
    descend(t, w, r->at, cands, ncand);
    descend(t, w, other, cands, ncand);
    r->realized = price(t, w, r->at);
    int o = price(t, w, other);
    if (o < r->realized) {
        memcpy(r->at, other, cells * sizeof *other);
        r->realized = o;
    }
    r->realized_transfers = r->realized - hd_wu_prog_remaps(t, w, r->at, NULL);
    free(other);
    free(cands);
}

/* --------------------------------------------- Chapter 4: alignment */

/* The statements' trees with their reads: a leaf of a vector an earlier
 * statement assigned reads that statement's result (the latest). */
static hd_align_tree *trees_with_reads(const hd_wu_prog *w)
{
    hd_align_tree *trees = hd_xcalloc((size_t)w->nstmts, sizeof *trees);
    int *last = hd_xmalloc((size_t)(w->nvectors + 1) * sizeof *last);
    for (int v = 0; v < w->nvectors; v++)
        last[v] = -1;
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        hd_align_tree_init(&trees[s], w->n);
        for (int i = 0; i < st->tree.count; i++) {
            const hd_align_node *nd = &st->tree.node[i];
            if (st->leaf_vector[i] < 0) {
                hd_align_op(&trees[s], nd->left, nd->right);
            } else {
                int leaf = hd_align_leaf(&trees[s], &nd->P);
                trees[s].node[leaf].reads = last[st->leaf_vector[i]];
            }
        }
        last[st->lhs] = s;
    }
    free(last);
    return trees;
}

static int align(const hd_target *t, const hd_wu_prog *w, hd_wu_prog_result *out)
{
    int m = w->nstmts, rc = HD_OK;
    hd_agl id = hd_agl_identity(w->n);
    /* Nothing done: every operation where the left-hand side lives, every
     * result there too, so a leaf reading an earlier result sees P. */
    out->align_identity = 0;
    for (int s = 0; s < m && rc == HD_OK; s++) {
        const hd_align_tree *tr = &w->stmts[s].tree;
        hd_agl *A = hd_xcalloc((size_t)tr->count + 1, sizeof *A);
        for (int i = 0; i < tr->count; i++)
            A[i] = id;
        int c = 0;
        rc = hd_align_cost(t, tr, &id, A, &c);
        out->align_identity += c;
        free(A);
    }
    hd_align_tree *trees = trees_with_reads(w);
    hd_align_stmt *st = hd_xcalloc((size_t)m, sizeof *st);
    out->root_free = hd_xcalloc((size_t)m, sizeof *out->root_free);
    out->cost_free = hd_xcalloc((size_t)m, sizeof *out->cost_free);
    out->cost_fixed = hd_xcalloc((size_t)m, sizeof *out->cost_fixed);
    for (int fixed = 0; fixed < 2 && rc == HD_OK; fixed++) {
        for (int s = 0; s < m; s++)
            st[s] = (hd_align_stmt){ &trees[s], fixed ? &id : NULL };
        hd_align_program_result r;
        rc = hd_align_program(t, st, m, HD_WU_PROGRAM_LIMIT, &r);
        if (rc != HD_OK)
            break;
        for (int s = 0; s < m; s++) {
            if (fixed) {
                out->cost_fixed[s] = r.stmt[s].cost;
            } else {
                out->cost_free[s] = r.stmt[s].cost;
                out->root_free[s] = r.root[s];
            }
        }
        *(fixed ? &out->align_fixed : &out->align_free) = r.cost;
        hd_align_program_free(&r);
    }
    for (int s = 0; s < m; s++)
        hd_align_tree_free(&trees[s]);
    free(trees);
    free(st);
    return rc;
}

/* ------------------------------------------------------------ the whole */

void hd_wu_prog_result_free(hd_wu_prog_result *r)
{
    for (int x = 0; x < r->nversions; x++)
        free(r->versions[x].uses);
    free(r->versions);
    free(r->at);
    free(r->used);
    free(r->root_free);
    free(r->cost_free);
    free(r->cost_fixed);
    memset(r, 0, sizeof *r);
}

int hd_wu_prog_analyse(const hd_target *t, const hd_wu_prog *w, hd_wu_prog_result *out)
{
    memset(out, 0, sizeof *out);
    if ((t->kind != HD_TARGET_OMEGA && t->kind != HD_TARGET_BUTTERFLY) || w->nstmts == 0 ||
        t->n != w->n)
        return HD_EINVAL;
    versions vs = { 0 };
    build_versions(w, &vs);
    out->map_status = map_program(t, w, &vs, out);
    versions_free(&vs);
    if (w->from_c) {
        project(w, out);
        if (out->map_status == HD_OK)
            complete(t, w, out);
        else
            out->realized = out->projected = out->static_cost = out->realized_transfers =
                out->map_identity;
        out->program_own = price(t, w, w->own);
        out->improves = out->map_status == HD_OK && out->realized < out->map_identity;
        out->align_status = HD_EINVAL;
    } else {
        out->align_status = align(t, w, out);
    }
    return HD_OK;
}

/* --------------------------------------- the map pragmas of a C program */

int hd_wu_prog_maps(const hd_wu_prog *w, const hd_wu_prog_result *r, hd_wu_map **out)
{
    *out = NULL;
    if (!r->at)
        return 0;
    int nv = w->nvectors, count = 0, cap = 0;
    hd_agl *now = hd_xmalloc((size_t)(nv + 1) * sizeof *now);
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        if (s == 0 || st->func_begin != w->stmts[s - 1].func_begin)
            for (int v = 0; v < nv; v++)
                now[v] = hd_agl_identity(w->n);
        for (int v = 0; v < nv; v++) {
            size_t c = (size_t)s * (size_t)nv + (size_t)v;
            if (!r->used[c] || hd_agl_equal(&r->at[c], &now[v]))
                continue;
            hd_xreserve(out, &cap, count + 1, sizeof **out);
            (*out)[count++] = (hd_wu_map){ s, v, r->at[c] };
            now[v] = r->at[c];
        }
    }
    free(now);
    return count;
}
