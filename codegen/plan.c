/*
 * plan.c — the node plan of each doall: which iterations each processor
 * visits, and how each reference of the body reaches its element
 * (docs/codegen.md, "The node program in general").
 *
 * Iterations.  Under owner computes iteration i runs on the owner of the
 * element its assignment writes.  When that element's index is GF(2)-
 * affine in i (every canonical loop writing b[i], b[i ^ c], b[m][i] ...
 * under block, cyclic and block-cyclic layouts), so is its owner: o(i) =
 * M i + c over GF(2) (Hou et al. 2001, Section 3).  Processor p's iterations are
 * then the solutions of M i = p + c, a coset x0 + null(M), which the node
 * code enumerates in increasing order without testing any iteration
 * (analysis/coset.c).  Otherwise every processor scans all iterations.
 *
 * References.  A read of a distributed array is
 *   LOCAL    when its element always lives with the iteration;
 *   SLOTS    when its index is affine, the home's owner is affine, and C
 *            evaluates it at every iteration: its owner computes which
 *            of its elements each processor reads and sends each once, at
 *            a slot both sides compute;
 *   REQUEST  otherwise (an index or a guard that only the iteration's
 *            processor can evaluate, or an index that is not affine): the
 *            iteration's processor asks the owner, only where C reads it.
 * References of one array through one map are one slot group; through one
 * index text under one guard, one request group; and every element a
 * processor needs from another travels once per doall: groups of one
 * array that may read the same element are all made requests, whose
 * tickets are shared (hd_requests).
 */
#include "codegen_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ maps of a reference */

/* Its index map (NULL when it is not GF(2)-affine). */
static const hd_affine *map_of(const gen *g, const hd_ref *ref)
{
    return hd_ref_result(g->results, ref)->map;
}

/* Its map, or the map of its LCC family (the constant then has only the
 * known bits of b: its linear part is exact, its constant is not). */
static const hd_affine *linear_map_of(const gen *g, const hd_ref *ref)
{
    const hd_ref_analysis *r = hd_ref_result(g->results, ref);
    return r->map ? r->map : r->family;
}

hd_affine owner_map_of(const gen *g, const hd_ref *ref)
{
    const hd_layout *l = &g->layout[ref->array];
    return hd_affine_compose(&l->owner, linear_map_of(g, ref), l->n);
}

hd_affine offset_map_of(const gen *g, const hd_ref *ref)
{
    const hd_layout *l = &g->layout[ref->array];
    return hd_affine_compose(&l->offset, linear_map_of(g, ref), l->bits - l->n);
}

static void owner_rows(const hd_affine *o, int n, uint64_t *rows)
{
    for (int t = 0; t < n; t++)
        rows[t] = o->row[t] & hd_mask(o->in);
}

/* The flattened element index of a reference, as C: its subscripts,
 * each written by sub (as written, or rewritten for the node code),
 * row-major ((s0 * E1 + s1) * E2 + s2 ...). */
void put_flat_index(text *t, const gen *g, const hd_ref *ref, subscript_writer sub,
                    const void *ctx)
{
    const hd_array *a = &g->prog->arrays[ref->array];
    for (int d = 1; d < ref->nsubs; d++)
        put(t, "(");
    for (int d = 0; d < ref->nsubs; d++) {
        if (d > 0)
            putf(t, " * %lld + ", (long long)a->extent[d]);
        put(t, "(hd_index)(");
        sub(t, g, ctx, ref->subs[d].begin, ref->subs[d].end);
        put(t, ")");
        if (d > 0)
            put(t, ")");
    }
}

static void subscript_as_written(text *t, const gen *g, const void *ctx, size_t b, size_t e)
{
    (void)ctx;
    put_source(t, g, b, e);
}

/* The flattened index as written in the source. */
static char *index_text(const gen *g, const hd_ref *ref)
{
    text t = { 0 };
    put_flat_index(&t, g, ref, subscript_as_written, NULL);
    return take(&t);
}

/* The index's text without blanks, to tell equal indices apart. */
static bool same_index_text(const gen *g, const hd_ref *x, const hd_ref *y)
{
    if (x->nsubs != y->nsubs)
        return false;
    for (int d = 0; d < x->nsubs; d++) {
        size_t i = x->subs[d].begin, j = y->subs[d].begin;
        for (;;) {
            while (i < x->subs[d].end && (g->src[i] == ' ' || g->src[i] == '\t' ||
                                         g->src[i] == '\n' || g->src[i] == '\r'))
                i++;
            while (j < y->subs[d].end && (g->src[j] == ' ' || g->src[j] == '\t' ||
                                         g->src[j] == '\n' || g->src[j] == '\r'))
                j++;
            if (i >= x->subs[d].end || j >= y->subs[d].end)
                break;
            if (g->src[i] != g->src[j])
                return false;
            i++;
            j++;
        }
        if (i < x->subs[d].end || j < y->subs[d].end)
            return false;
    }
    return true;
}

static bool same_map(const hd_affine *x, const hd_affine *y)
{
    if (x->in != y->in || x->c != y->c)
        return false;
    for (int t = 0; t < 64; t++)
        if ((x->row[t] ^ y->row[t]) & hd_mask(x->in))
            return false;
    return true;
}

/* ------------------------------------------------------------ the groups */

static bool is_distributed(const gen *g, const hd_ref *ref)
{
    return g->prog->arrays[ref->array].dist != HD_DIST_NONE;
}

/* Is reference r inside the text of guard gd's condition? */
static bool in_guard(const hd_ref *r, const hd_guard *gd)
{
    return r->begin >= gd->begin && r->end <= gd->end;
}

/* A family's group is also keyed by its index's text: its b comes from it. */
static int add_slot_group(const gen *g, node_plan *np, int array, int ref, const hd_affine *map,
                          bool family)
{
    for (int s = 0; s < np->nslots; s++)
        if (np->slots[s].array == array && same_map(&np->slots[s].map, map) &&
            np->slots[s].family == family &&
            (!family || same_index_text(g, &np->loop->refs[np->slots[s].ref],
                                        &np->loop->refs[ref])))
            return s;
    hd_xreserve(&np->slots, &np->slots_cap, np->nslots + 1, sizeof *np->slots);
    slot_group *s = &np->slots[np->nslots];
    memset(s, 0, sizeof *s);
    s->array = array;
    s->ref = ref;
    s->map = *map;
    s->family = family;
    return np->nslots++;
}

static int add_request_group(gen *g, node_plan *np, int k)
{
    const hd_ref *ref = &np->loop->refs[k];
    for (int q = 0; q < np->nreqs; q++) {
        const hd_ref *other = &np->loop->refs[np->reqs[q].ref];
        if (np->reqs[q].array == ref->array && np->reqs[q].guard == ref->guard &&
            same_index_text(g, other, ref))
            return q;
    }
    hd_xreserve(&np->reqs, &np->reqs_cap, np->nreqs + 1, sizeof *np->reqs);
    np->reqs[np->nreqs] = (request_group){ ref->array, k, ref->guard, 0, 0, 1 };
    request_group *rq = &np->reqs[np->nreqs];
    rq->vars = hd_inner_mask(ref->index);
    for (int gi = ref->guard; gi >= 0; gi = np->loop->guards[gi].parent)
        rq->vars |= hd_inner_mask(np->loop->guards[gi].cond);
    for (int v = 0; v < np->loop->ninners; v++)
        if (rq->vars >> v & 1)
            rq->per *= np->loop->inners[v].hi - np->loop->inners[v].lo;
    return np->nreqs++;
}

/* Can two slot groups of one array read one element on one processor?
 * Unknowns (i1, i2): M i1 = M i2 and F1 i1 + f1 = F2 i2 + f2 over GF(2);
 * beyond 32 bits of i the question is not asked (answer: yes). */
static bool may_share(const gen *g, const node_plan *np, const slot_group *x,
                      const slot_group *y)
{
    int k = np->loop->k, m = g->prog->arrays[x->array].log2_size, n = g->prog->n;
    if (2 * k > 64 || x->family || y->family)
        return true;   /* a family's b is not known yet */
    uint64_t *rows = hd_xmalloc((size_t)(n + m) * sizeof *rows);
    uint8_t *rhs = hd_xmalloc((size_t)(n + m) * sizeof *rhs);
    hd_affine home = owner_map_of(g, &np->loop->refs[np->loop->home]);
    int r = 0;
    for (int t = 0; t < n; t++, r++) {
        uint64_t mrow = home.row[t] & hd_mask(k);
        rows[r] = mrow | (mrow << k);
        rhs[r] = 0;
    }
    for (int b = 0; b < m; b++, r++) {
        rows[r] = (x->map.row[b] & hd_mask(k)) | ((y->map.row[b] & hd_mask(k)) << k);
        rhs[r] = (uint8_t)(((x->map.c ^ y->map.c) >> b) & 1);
    }
    bool shared = hd_solve_one(rows, rhs, r, 2 * k, NULL);
    free(rows);
    free(rhs);
    return shared;
}

/* The slot group's systems: which pairs of processors it joins, and the
 * elements one sends the other.  For sender p and reader q they are the
 * elements of the iterations i with home owner q and source owner p, the
 * solutions of [M; O F] i = (q + home_c, p + src_c): the image of that
 * coset under the index map, a coset e0 + W of W = F(null [M; O F])
 * (coset.c).  Its elements numbered in increasing order are its slots:
 * pext(e, leads) with the leads of W's reduced basis, for both sides. */
static bool complete_slot_group(const gen *g, node_plan *np, slot_group *s)
{
    const hd_loop *l = np->loop;
    int n = g->prog->n, k = l->k, m = g->prog->arrays[s->array].log2_size;
    const hd_ref *ref = &l->refs[s->ref];
    hd_affine src = owner_map_of(g, ref);
    hd_affine home = owner_map_of(g, &l->refs[l->home]);
    uint64_t rows[128];
    owner_rows(&home, n, rows);
    owner_rows(&src, n, rows + n);
    s->home_c = home.c & hd_mask(n);
    s->src_c = src.c & hd_mask(n);
    if (hd_system_solve(rows, 2 * n, k, &s->pair) != HD_OK ||
        hd_system_solve(rows + n, n, k, &s->src) != HD_OK)
        return false;
    s->w = hd_space_image(&s->pair.null, &s->map, m);
    s->leads = hd_space_leads(&s->w);
    s->log2_slots = s->w.dim;
    return true;
}

/* An element read at i + c with c fixed during the loop: the tree is a
 * signed addition or subtraction (so no wrap at the node's width) of the
 * loop variable and something without it, under casts that do not
 * narrow. */
static const hd_expr *widened(const hd_expr *e)
{
    while (e && e->kind == HD_EX_CAST && e->nkids == 1 && e->kid[0] && e->kid[0]->bits <= e->bits)
        e = e->kid[0];
    return e;
}

static bool has_index(const hd_expr *e)
{
    if (!e)
        return true;   /* unknown: as if it had */
    if (e->kind == HD_EX_INDEX)
        return true;
    for (int k = 0; k < e->nkids; k++)
        if (has_index(e->kid[k]))
            return true;
    return false;
}

static bool shift_form(const hd_expr *index)
{
    const hd_expr *e = widened(index);
    if (!e || e->kind != HD_EX_BINARY || (e->op != HD_OP_ADD && e->op != HD_OP_SUB) ||
        e->nkids != 2 || !(e->is_signed || e->bits == 64))
        return false;
    const hd_expr *a = widened(e->kid[0]), *b = widened(e->kid[1]);
    if (a && a->kind == HD_EX_INDEX && !has_index(e->kid[1]))
        return true;
    return e->op == HD_OP_ADD && b && b->kind == HD_EX_INDEX && !has_index(e->kid[0]);
}

/* Can every processor compute guard gi's chain: no distributed array and
 * no variable of the body in its conditions (with over_values, none but
 * the variables of inner loops with known values, which every processor
 * can run over)? */
static bool guards_computable(const gen *g, const hd_loop *l, int gi, bool over_values)
{
    for (; gi >= 0; gi = l->guards[gi].parent) {
        if (over_values ? l->guards[gi].uses_plain : l->guards[gi].uses_locals)
            return false;
        for (int j = 0; j < l->nrefs; j++)
            if (is_distributed(g, &l->refs[j]) && in_guard(&l->refs[j], &l->guards[gi]))
                return false;
    }
    return true;
}

static bool guards_anywhere(const gen *g, const hd_loop *l, int gi)
{
    return guards_computable(g, l, gi, false);
}

/* Does reference k's index read a distributed array (A[q[5]][j])?  A
 * stream's c is computed before anything is fetched, from what every
 * processor has: constants and outer scalars only. */
static bool reads_distributed(const gen *g, const hd_loop *l, int k)
{
    for (int j = 0; j < l->nrefs; j++)
        if (j != k && is_distributed(g, &l->refs[j]) && inside(&l->refs[j], &l->refs[k]))
            return true;
    return false;
}

static int add_stream_group(node_plan *np, int k)
{
    const hd_ref *ref = &np->loop->refs[k];
    for (int q = 0; q < np->nstreams; q++)
        if (np->streams[q].array == ref->array && np->streams[q].guard == ref->guard)
            return q;
    hd_xreserve(&np->streams, &np->streams_cap, np->nstreams + 1, sizeof *np->streams);
    np->streams[np->nstreams] = (stream_group){ ref->array, k, ref->guard };
    return np->nstreams++;
}

/* Round of a request group: after every round whose values its index or
 * guards read. */
static int level_of(gen *g, node_plan *np, int q, int depth)
{
    request_group *rq = &np->reqs[q];
    if (rq->level > 0)
        return rq->level;
    if (depth > np->nreqs)
        return 1;   /* cannot happen: a reference is not inside itself */
    const hd_loop *l = np->loop;
    int level = 1;
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        if (ref->array != rq->array || np->refs[k].way != WAY_REQUEST ||
            np->refs[k].group != q)
            continue;
        for (int j = 0; j < l->nrefs; j++) {
            if (np->refs[j].way != WAY_REQUEST || np->refs[j].group == q)
                continue;
            bool feeds = inside(&l->refs[j], ref);
            for (int gi = ref->guard; gi >= 0 && !feeds; gi = l->guards[gi].parent)
                feeds = in_guard(&l->refs[j], &l->guards[gi]);
            if (feeds) {
                int below = level_of(g, np, np->refs[j].group, depth + 1);
                if (below + 1 > level)
                    level = below + 1;
            }
        }
    }
    rq->level = level;
    return level;
}

/* A request is decided before the loop runs, by the iteration's processor:
 * what its index and guards read must be what the body will read there,
 * so not an element the same iteration writes earlier (the front end
 * lists references in the order C evaluates them: an assignment's right
 * side before its target), and not a variable of the body, which has a
 * value only while the body runs. */
static bool request_over_values(const hd_loop *l, int k);

static void check_request(gen *g, const node_plan *np, int k)
{
    const hd_loop *l = np->loop;
    const hd_ref *ref = &l->refs[k];
    const hd_array *a = &g->prog->arrays[ref->array];
    bool over_values = request_over_values(l, k);
    if (ref->in_jump_loop) {
        error_at(g, ref->begin, "'%s' is read inside a loop that a break or continue may "
                 "leave early, so C may not reach it; the element comes from another "
                 "processor, asked for before the body runs, and %s: read it outside "
                 "that loop, or without the break", ref->text,
                 l->on_table || a->dist == HD_DIST_TABLE
                     ? "the loop runs over an owner table (no whole copy of the array)"
                     : "the loop writes the array (no whole copy of it)");
        return;
    }
    if (ref->index_local && !over_values) {
        if (l->on_table || a->dist == HD_DIST_TABLE)
            error_at(g, ref->begin, "the index of '%s' uses a variable of the loop "
                     "body, and the loop runs over an owner table: its reads are "
                     "requests made before the body runs, which know only the doall's "
                     "variable and the values of inner loops over constant bounds; "
                     "write the read without it (one read per neighbour, as "
                     "tests/e2e/mesh64.c does)", ref->text);
        else
            error_at(g, ref->begin, "the index of '%s' uses a variable of the "
                     "loop body, and the loop writes '%s'; the processor that holds "
                     "the element must compute it too: write its expression into the "
                     "index", ref->text, a->name);
        return;
    }
    for (int gi = ref->guard; gi >= 0; gi = l->guards[gi].parent)
        if (l->guards[gi].uses_locals && !(over_values && !l->guards[gi].uses_plain)) {
            error_at(g, ref->begin, "'%s' is read only where the condition at line %d "
                     "holds, and that condition uses a variable of the loop body; the "
                     "element comes from another processor, which is asked before the "
                     "body runs: write the condition with the variable's expression",
                     ref->text, l->guards[gi].line);
            return;
        }
    for (int j = 0; j < l->nrefs; j++) {
        const hd_ref *in = &l->refs[j];
        bool written_before = false;
        for (int w = 0; w < j; w++)
            written_before |= l->refs[w].is_write && l->refs[w].array == in->array;
        if (!is_distributed(g, in) || !written_before)
            continue;
        bool feeds = inside(in, ref);
        for (int gi = ref->guard; gi >= 0 && !feeds; gi = l->guards[gi].parent)
            feeds = in_guard(in, &l->guards[gi]);
        if (feeds) {
            error_at(g, in->begin, "'%s' decides whether or which element '%s' reads, "
                     "and the iteration writes '%s' before it reads it: that must be "
                     "known before the loop runs, since the element comes from another "
                     "processor",
                     in->text, ref->text, g->prog->arrays[in->array].name);
            return;
        }
    }
}

/* ------------------------------------------------------ whole arrays */

/* Does e read a variable of the body (which has a value only while the
 * body runs, so that no processor can compute it before)? */
static bool reads_body(const hd_expr *e)
{
    if (!e)
        return false;
    if (e->kind == HD_EX_OPAQUE)
        return e->body_local;
    for (int k = 0; k < e->nkids; k++)
        if (reads_body(e->kid[k]))
            return true;
    return false;
}

static bool guard_reads_body(const hd_loop *l, int gi)
{
    for (; gi >= 0; gi = l->guards[gi].parent)
        if (l->guards[gi].uses_locals)
            return true;
    return false;
}

/* The combinations of inner variables a request over them asks for, per
 * iteration, at most (each one a ticket). */
#define MAX_PER_ITERATION (1LL << 16)

/* Can reference k be asked for before the loop, once per iteration and
 * value of the inner loop variables it reads (a neighbour loop over a
 * mesh, for (k = 0; k < 8; k++) ... v[nb[i][k]])?  When its index and
 * guards read no other variable of the body, no break or continue may
 * skip it, and the values are few. */
static bool request_over_values(const hd_loop *l, int k)
{
    const hd_ref *ref = &l->refs[k];
    if (ref->index_plain || ref->in_jump_loop)
        return false;
    uint32_t vars = hd_inner_mask(ref->index);
    for (int gi = ref->guard; gi >= 0; gi = l->guards[gi].parent) {
        if (l->guards[gi].uses_plain)
            return false;
        vars |= hd_inner_mask(l->guards[gi].cond);
    }
    long long per = 1;
    for (int v = 0; v < l->ninners; v++)
        if (vars >> v & 1) {
            per *= l->inners[v].hi - l->inners[v].lo;
            if (per > MAX_PER_ITERATION)
                return false;
        }
    return true;
}

/* May reference k, which no processor can ask for before the loop, be
 * read from a whole copy of its array?  Only when the loop does not write
 * the array (the copy is the array before the loop, as every read sees it
 * when no iteration writes it) and no owner table lays it out (table
 * arrays' slices differ in size: codegen.md). */
static bool may_be_whole(const gen *g, const hd_loop *l, int k)
{
    const hd_ref *ref = &l->refs[k];
    if (l->on_table || g->prog->arrays[ref->array].dist == HD_DIST_TABLE ||
        hd_loop_uses(l, ref->array, true))
        return false;
    /* A read a break or continue may skip is not asked for before the
     * loop: its element may not exist where C does not reach it. */
    return ref->index_local || reads_body(ref->index) || guard_reads_body(l, ref->guard) ||
           ref->in_jump_loop;
}

/* Is reference ref's element inside its array at every iteration of 0 ..
 * 2^k - 1, guarded or not?  Then it may be fetched at every iteration,
 * whatever its guard (an if, the loop's range), and its offset is a base
 * for the others: its index and each subscript after the first are
 * GF(2)-affine maps that set no bit beyond their extents. */
static bool inside_everywhere(const gen *g, const hd_loop *l, const hd_ref *ref)
{
    const hd_array *a = &g->prog->arrays[ref->array];
    const hd_affine *map = hd_ref_result(g->results, ref)->map;
    char why[8];
    if (!map || ref->check_at_run_time || ref->uses_vars || a->log2_size < 0 ||
        (~hd_affine_zero_bits(map) & ~hd_mask(a->log2_size)))
        return false;
    for (int d = 1; d < ref->nsubs; d++) {
        hd_affine m;
        int w = __builtin_ctzll((unsigned long long)a->extent[d]);
        if (!ref->subs[d].expr || !hd_expr_affine(ref->subs[d].expr, l->k, &m, why, sizeof why) ||
            (~hd_affine_zero_bits(&m) & ~hd_mask(w)))
            return false;
    }
    return true;
}

/* --------------------------------------------------- fast local offsets */

/* In the loop over my iterations, hd_t numbers them 0, 1, ... and i =
 * x0 + sum of the basis vectors picked by hd_t's bits.  A local reference
 * whose offset maps basis vector t to 2^t, with a base whose low bits are
 * 0 for every processor, has offset base + hd_t: a plain induction
 * variable the C compiler vectorizes. */
static bool offset_is_base_plus_t(const gen *g, const node_plan *np, const hd_ref *ref)
{
    if (!map_of(g, ref) || !np->affine_home)
        return false;
    hd_affine off = offset_map_of(g, ref);
    const hd_space *b = &np->own.null;
    uint64_t low = hd_mask(b->dim), base0 = hd_affine_apply(&off, 0);
    for (int t = 0; t < b->dim; t++)
        if ((hd_affine_apply(&off, b->v[t]) ^ base0) != (UINT64_C(1) << t))
            return false;
    if (base0 & low)
        return false;
    for (int r = 0; r < np->own.m; r++)
        if ((hd_affine_apply(&off, np->own.part[r]) ^ base0) & low)
            return false;
    return true;
}

/* ------------------------------------------------------------- planning */

bool plan_doall(gen *g, const hd_loop *l, node_plan *np)
{
    const hd_program *p = g->prog;
    int n = p->n;
    memset(np, 0, sizeof *np);
    np->loop = l;
    np->refs = hd_xcalloc((size_t)(l->nrefs ? l->nrefs : 1), sizeof *np->refs);
    const hd_ref *home = &l->refs[l->home];
    np->on_table = l->on_table;
    np->affine_home = !l->on_table && map_of(g, home) != NULL;
    if (np->affine_home) {
        hd_affine o = owner_map_of(g, home);
        uint64_t rows[64];
        owner_rows(&o, n, rows);
        np->own_c = o.c & hd_mask(n);
        if (hd_system_solve(rows, n, l->k, &np->own) != HD_OK)
            return false;
    }

    /* First: every remote read a slot group where it can be one. */
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        ref_plan *rp = &np->refs[k];
        rp->group = -1;
        if (!is_distributed(g, ref)) {
            rp->way = WAY_REPLICATED;
            continue;
        }
        rp->index = index_text(g, ref);
        if (ref->is_write || hd_ref_result(g->results, ref)->comm.kind == HD_COMM_LOCAL) {
            rp->way = WAY_LOCAL;
            /* A guarded read may name an element outside its array where
             * its guard is false (docs/annotations.md): its offset is no
             * base for the others, computed before any guard is. */
            rp->fast = !ref->check_at_run_time && !ref->uses_vars &&
                       (ref->guard < 0 || inside_everywhere(g, l, ref)) &&
                       (l->on_table || offset_is_base_plus_t(g, np, ref));
            rp->base = k;
            if (l->on_table) {
                /* Element i of an array of the home's table, at i: my
                 * t-th element, as the home's. */
                rp->fast = true;
                rp->base = l->home;
                continue;
            }
            if (rp->fast) {
                hd_affine mine = offset_map_of(g, ref);
                for (int j = 0; j < k; j++) {
                    if (np->refs[j].way != WAY_LOCAL || !np->refs[j].fast ||
                        np->refs[j].base != j)
                        continue;
                    hd_affine other = offset_map_of(g, &l->refs[j]);
                    if (same_map(&mine, &other)) {
                        rp->base = j;
                        break;
                    }
                }
            }
            continue;
        }
        if (linear_map_of(g, ref) && np->affine_home &&
            g->prog->arrays[ref->array].dist != HD_DIST_TABLE) {
            rp->way = WAY_SLOTS;
            rp->group = add_slot_group(g, np, ref->array, k, linear_map_of(g, ref),
                                       !map_of(g, ref));
        } else {
            rp->way = WAY_REQUEST;
        }
    }
    /* A slot group is read at every iteration only if one of its
     * references is unguarded; the others are asked for where read. */
    for (int s = 0; s < np->nslots; s++) {
        bool unguarded = false;
        for (int k = 0; k < l->nrefs; k++)
            if (np->refs[k].way == WAY_SLOTS && np->refs[k].group == s)
                unguarded |= l->refs[k].guard < 0 || inside_everywhere(g, l, &l->refs[k]);
        if (!unguarded)
            for (int k = 0; k < l->nrefs; k++)
                if (np->refs[k].way == WAY_SLOTS && np->refs[k].group == s)
                    np->refs[k].way = WAY_REQUEST;
    }
    /* One element, one trip: an array read by requests, or by two slot
     * groups that may meet on an element, is read by requests only. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < l->nrefs; k++) {
            if (np->refs[k].way != WAY_SLOTS)
                continue;
            int s = np->refs[k].group;
            bool demote = false;
            for (int j = 0; j < l->nrefs && !demote; j++) {
                if (l->refs[j].array != l->refs[k].array)
                    continue;
                if (np->refs[j].way == WAY_REQUEST)
                    demote = true;
                else if (np->refs[j].way == WAY_SLOTS && np->refs[j].group != s)
                    demote = may_share(g, np, &np->slots[s], &np->slots[np->refs[j].group]);
            }
            if (demote) {
                np->refs[k].way = WAY_REQUEST;
                changed = true;
            }
        }
    }
    /* Streams: a request through i + c whose guards every processor can
     * compute is sent by the owner instead, when it is its array's one
     * remote group (so that no element travels twice) and no request's
     * index or guard reads it (requests are decided before streams are
     * read). */
    for (int k = 0; k < l->nrefs; k++)
        if (np->refs[k].way == WAY_REQUEST && !l->on_table && !l->refs[k].index_local &&
            !l->refs[k].in_jump_loop && shift_form(l->refs[k].index) &&
            g->prog->arrays[l->refs[k].array].dist != HD_DIST_TABLE &&
            guards_anywhere(g, l, l->refs[k].guard) && !reads_distributed(g, l, k))
            np->refs[k].way = WAY_STREAM;
    for (int k = 0; k < l->nrefs; k++) {
        if (np->refs[k].way != WAY_STREAM)
            continue;
        bool alone = true;
        for (int j = 0; j < l->nrefs && alone; j++) {
            const hd_ref *x = &l->refs[k], *y = &l->refs[j];
            if (y->array == x->array && (np->refs[j].way == WAY_SLOTS ||
                                         np->refs[j].way == WAY_REQUEST ||
                                         (np->refs[j].way == WAY_STREAM &&
                                          (y->guard != x->guard || !same_index_text(g, x, y)))))
                alone = false;
            if (np->refs[j].way == WAY_REQUEST) {
                alone &= !inside(x, y);
                for (int gi = y->guard; gi >= 0 && alone; gi = l->guards[gi].parent)
                    alone = !in_guard(x, &l->guards[gi]);
            }
        }
        if (!alone)
            for (int j = 0; j < l->nrefs; j++)
                if (np->refs[j].way == WAY_STREAM && l->refs[j].array == l->refs[k].array)
                    np->refs[j].way = WAY_REQUEST;
    }

    /* Whole arrays: a remote read that no processor can ask for before the
     * loop (its index or guard reads a variable of the body), and then
     * every remote read of its array, which the copy serves too. */
    for (int k = 0; k < l->nrefs; k++)
        if (np->refs[k].way != WAY_LOCAL && np->refs[k].way != WAY_REPLICATED &&
            may_be_whole(g, l, k))
            for (int j = 0; j < l->nrefs; j++)
                if (l->refs[j].array == l->refs[k].array && np->refs[j].way != WAY_LOCAL &&
                    np->refs[j].way != WAY_REPLICATED && !l->refs[j].is_write)
                    np->refs[j].way = WAY_WHOLE;

    /* The slot groups still used, renumbered; the request and stream
     * groups. */
    int *renumber = hd_xmalloc((size_t)(np->nslots ? np->nslots : 1) * sizeof *renumber);
    int kept = 0;
    for (int s = 0; s < np->nslots; s++) {
        bool used = false;
        for (int k = 0; k < l->nrefs; k++)
            used |= np->refs[k].way == WAY_SLOTS && np->refs[k].group == s;
        renumber[s] = used ? kept : -1;
        if (used)
            np->slots[kept++] = np->slots[s];
    }
    np->nslots = kept;
    for (int k = 0; k < l->nrefs; k++) {
        if (np->refs[k].way == WAY_SLOTS) {
            np->refs[k].group = renumber[np->refs[k].group];
        } else if (np->refs[k].way == WAY_REQUEST) {
            np->refs[k].group = add_request_group(g, np, k);
            check_request(g, np, k);
        } else if (np->refs[k].way == WAY_STREAM) {
            np->refs[k].group = add_stream_group(np, k);
        }
    }
    free(renumber);
    for (int s = 0; s < np->nslots; s++)
        if (!complete_slot_group(g, np, &np->slots[s]))
            return false;
    for (int q = 0; q < np->nreqs; q++) {
        int level = level_of(g, np, q, 0);
        if (level > np->levels)
            np->levels = level;
    }
    /* A round over a table is kept across executions when what decides
     * its elements is all in the environment (which the host compares
     * with the last one's) and the loop variable: no index or guard of
     * its requests reads a distributed array or a variable of the body. */
    np->kept = hd_xcalloc((size_t)np->levels + 1, sizeof *np->kept);
    /* An extent bound at run time is in no environment: when it changes,
     * so do the owners, and a kept round would ask the old ones. */
    bool extents = false;
    for (int k = 0; k < l->nrefs; k++) {
        const hd_array *a = &g->prog->arrays[l->refs[k].array];
        extents |= a->dist == HD_DIST_TABLE && g->prog->tables[a->table].extent;
    }
    for (int level = 1; l->on_table && !extents && level <= np->levels; level++) {
        bool keep = true;
        for (int q = 0; q < np->nreqs && keep; q++) {
            const request_group *rq = &np->reqs[q];
            if (rq->level == level)
                keep = !reads_distributed(g, l, rq->ref) && !l->refs[rq->ref].in_macro &&
                       guards_computable(g, l, rq->guard, rq->vars != 0);
        }
        np->kept[level] = keep;
    }
    if (np->nslots == 1 && !np->nreqs && !np->nstreams) {
        const hd_comm *c = &hd_ref_result(g->results, &l->refs[np->slots[0].ref])->comm;
        np->permutation = c->kind == HD_COMM_LCC && hd_lcc_classify(c->lcc) == HD_LCP;
    }
    return true;
}

void plan_free(node_plan *np)
{
    if (!np->refs)
        return;
    for (int k = 0; k < np->loop->nrefs; k++)
        free(np->refs[k].index);
    free(np->refs);
    free(np->slots);
    free(np->reqs);
    free(np->streams);
    free(np->kept);
    memset(np, 0, sizeof *np);
}

