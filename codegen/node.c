/*
 * node.c — the node function of a doall, written from its plan (plan.c):
 * the SPMD code of Fig. 1d (Hou et al. 2001) that every processor runs.
 *
 *   1. my iterations: the coset of i whose home element I own, as one or
 *      two plain loops (no test of who owns an iteration), or a scan of
 *      every iteration when the home's owner is not GF(2)-affine;
 *   2. slot groups (LCCs): for each, the iterations of other processors
 *      that read my elements (another coset), each element put at its
 *      slot in the message to its reader; one v_send per processor that
 *      reads from me, one v_receive per processor I read from;
 *   3. request rounds: for my iterations, under their guards, the
 *      elements only I can name, asked of their owners (hd_requests);
 *   4. my iterations, in increasing order, running the body with every
 *      distributed reference rewritten to where its element is: my own
 *      slice, a slot of a received message, or an answer.
 * docs/codegen.md follows the output of one example line by line.
 */
#include "codegen_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *elem(const gen *g, int arr)
{
    return g->prog->arrays[arr].elem_type;
}

static const char *name_of(const gen *g, int arr)
{
    return g->prog->arrays[arr].name;
}

/* The owner and the local offset of element `index` of array arr, as C,
 * from its layout: the runtime's inline hd_owner and hd_local_offset for a
 * bit field (cyclic, block, block_cyclic), its hd_owner_in and
 * hd_offset_in for any other GF(2) map (the skews, the 2-D layouts, xor), which
 * read the rows the program's layout table gives hd_run_layouts. */
static bool by_table(const gen *g, int arr)
{
    return g->prog->arrays[arr].dist == HD_DIST_TABLE;
}

static void put_owner(text *t, const gen *g, const char *index, int arr)
{
    const hd_layout *l = &g->layout[arr];
    if (by_table(g, arr) || l->shift < 0)
        putf(t, "hd_owner_in(%d, %s)", g->array_id[arr], index);
    else
        putf(t, "hd_owner(%s, %d, %d)", index, l->shift, l->n);
}

static void put_offset(text *t, const gen *g, const char *index, int arr)
{
    const hd_layout *l = &g->layout[arr];
    if (by_table(g, arr) || l->shift < 0)
        putf(t, "hd_offset_in(%d, %s)", g->array_id[arr], index);
    else
        putf(t, "hd_local_offset(%s, %d, %d)", index, l->shift, l->n);
}

/* The element at local offset `offset` of processor `v` of array arr. */
static void put_element(text *t, const gen *g, const char *offset, const char *v,
                        int arr)
{
    put_element_index(t, g, offset, v, arr);
}

void put_element_index(text *t, const gen *g, const char *offset, const char *v, int arr)
{
    const hd_layout *l = &g->layout[arr];
    if (by_table(g, arr) || l->shift < 0)
        putf(t, "hd_element_in(%d, %s, %s)", g->array_id[arr], v, offset);
    else
        putf(t, "hd_global_index(%s, %s, %d, %d)", offset, v, l->shift, l->n);
}

/* "file:line:col: 'text'", naming a reference in a run-time error. */
static void put_where(text *t, const gen *g, const hd_ref *ref)
{
    text w = { 0 };
    putf(&w, "%s:%d:%d: '%s'", g->prog->path, ref->line, ref->col, ref->text);
    put_c_string(t, w.s);
    free(w.s);
}

/* Array arr's number of elements, as C. */
static void put_size(text *t, const gen *g, int arr)
{
    const hd_array *a = &g->prog->arrays[arr];
    if (by_table(g, arr) && g->prog->tables[a->table].extent)
        putf(t, "hd_size_in(%d)", g->array_id[arr]);   /* bound at run time */
    else if (by_table(g, arr))
        putf(t, "(hd_index)%lld", (long long)a->size);
    else
        putf(t, "(hd_index)1 << %d", a->log2_size);
}

/* The element index of reference k, checked at run time when the front end
 * could not check it. */
static void put_index(text *t, const gen *g, const node_plan *np, int k)
{
    const hd_ref *ref = &np->loop->refs[k];
    if (!ref->check_at_run_time) {
        put(t, np->refs[k].index);
        return;
    }
    putf(t, "hd_checked(%s, ", np->refs[k].index);
    put_size(t, g, ref->array);
    put(t, ", ");
    put_where(t, g, ref);
    put(t, ")");
}

/* pext(e, leads): the bits of e at the leading bits, packed, as runs. */
static void put_slot(text *t, uint64_t leads, const char *e)
{
    int at = 0, parts = 0;
    if (!leads) {
        put(t, "0");
        return;
    }
    put(t, "(");
    for (int b = 0; b < 64;) {
        if (!((leads >> b) & 1)) {
            b++;
            continue;
        }
        int len = 0;
        while (b + len < 64 && ((leads >> (b + len)) & 1))
            len++;
        putf(t, "%s(((uint64_t)%s >> %d) & 0x%llxu)", parts ? " | " : "", e, b,
             (unsigned long long)hd_mask(len));
        if (at)
            putf(t, " << %d", at);
        at += len;
        b += len;
        parts++;
    }
    put(t, ")");
}

/* hd_me as the right-hand side of a system whose owner map adds c. */
static const char *me_plus(char *buf, size_t size, uint64_t c)
{
    if (c)
        snprintf(buf, size, "(uint64_t)hd_me ^ %#llx", (unsigned long long)c);
    else
        snprintf(buf, size, "(uint64_t)hd_me");
    return buf;
}

static void put_table(text *t, const char *type, const char *name, const uint64_t *v, int n)
{
    putf(t, "    static const %s %s[%d] = {", type, name, n > 0 ? n : 1);
    for (int k = 0; k < n; k++)
        putf(t, "%s%#llx", k ? ", " : " ", (unsigned long long)v[k]);
    put(t, n > 0 ? " };\n" : " 0 };\n");
}

/* ----------------------------------------------------------- the body */

/* How the loop over my iterations reaches slot group s's element
 * (put_compute_loop): hd_from<s>, hd_off<s> and hd_slot<s> are its owner,
 * offset and slot at the start of the current block of 2^inner
 * iterations (or at the current iteration, when inner is 0), and within a
 * block the offset and slot move by hd_u << c_off and hd_u << c_slot. */
typedef struct {
    int inner;
    struct {
        int c_off, c_slot;
        bool plus_off, plus_slot;   /* the block's bits are 0: + (else ^) */
    } s[64];
} body_ctx;

static void put_rewritten(text *t, const gen *g, const node_plan *np, size_t begin,
                          size_t end, const body_ctx *body);
static void put_site(text *t, const gen *g, const node_plan *np, int s, const body_ctx *body);

/* What replaces reference k in the body: an expression for its element.
 * `body`: in the loop over my iterations, where each slot group's owner,
 * offset and slot are kept up to date step by step; NULL elsewhere. */
static void subscript_rewritten(text *t, const gen *g, const void *np, size_t b, size_t e);

/* The combination of the inner variables in vars, numbered from 0 with
 * the last varying fastest: from their values as C in the body (by name)
 * or from the inspector's counters hd_x<v> (by_counter). */
static void put_combination(text *t, const hd_loop *l, uint32_t vars, bool by_counter)
{
    put(t, "(hd_index)(0");
    for (int v = 0; v < l->ninners; v++) {
        if (!(vars >> v & 1))
            continue;
        const hd_inner *in = &l->inners[v];
        if (by_counter)
            putf(t, " * %lld + (hd_x%d - %lld)", (long long)(in->hi - in->lo), v, (long long)in->lo);
        else
            putf(t, " * %lld + ((long long)(%s) - %lld)", (long long)(in->hi - in->lo), in->name,
                 (long long)in->lo);
    }
    put(t, ")");
}


static void put_ref_value(text *t, const gen *g, const node_plan *np, int k, const body_ctx *body)
{
    const hd_loop *l = np->loop;
    const hd_ref *ref = &l->refs[k];
    const ref_plan *rp = &np->refs[k];
    const char *a = name_of(g, ref->array);
    switch (rp->way) {
    case WAY_REPLICATED:
        put_source(t, g, ref->begin, ref->end);
        break;
    case WAY_LOCAL:
        putf(t, "hd_l_%s[", a);
        if (rp->fast) {
            putf(t, "hd_b%d + hd_t", rp->base);
        } else {
            text idx = { 0 };
            put_index(&idx, g, np, k);
            put_offset(t, g, idx.s, ref->array);
            free(idx.s);
        }
        put(t, "]");
        break;
    case WAY_SLOTS:
        if (body && body->inner) {
            int q = rp->group;
            char off[64], slot[64];
            if (body->s[q].c_off < 0)
                snprintf(off, sizeof off, "hd_off%d", q);
            else
                snprintf(off, sizeof off, "(hd_off%d %s (hd_u << %d))", q,
                         body->s[q].plus_off ? "+" : "^", body->s[q].c_off);
            if (body->s[q].c_slot < 0)
                snprintf(slot, sizeof slot, "hd_slot%d", q);
            else
                snprintf(slot, sizeof slot, "(hd_slot%d %s (hd_u << %d))", q,
                         body->s[q].plus_slot ? "+" : "^", body->s[q].c_slot);
            if (np->permutation)
                putf(t, "hd_src0[%s]", slot);
            else
                putf(t, "(*(hd_from%d == hd_me ? &hd_l_%s[%s] : (const %s *)hd_in%d[hd_from%d] + %s))",
                     q, a, off, elem(g, ref->array), q, q, slot);
        } else if (body && np->permutation) {
            put(t, "hd_src0[hd_slot0]");
        } else if (body) {
            putf(t, "(*(hd_from%d == hd_me ? &hd_l_%s[hd_off%d] : (const %s *)hd_in%d[hd_from%d] + "
                    "hd_slot%d))", rp->group, a, rp->group, elem(g, ref->array), rp->group,
                 rp->group, rp->group);
        } else
            putf(t, "(*hd_at_%d_%d(hd_me, hd_l_%s, hd_in%d, %s))", (int)(l - g->prog->loops),
                 rp->group, a, rp->group, rp->index);
        break;
    case WAY_STREAM:
        putf(t, "(*hd_s%d)", rp->group);
        break;
    case WAY_REQUEST: {
        const request_group *rq = &np->reqs[rp->group];
        text at = { 0 };
        put(&at, "hd_t");
        if (rq->vars) {
            putf(&at, " * %lld + ", rq->per);
            put_combination(&at, l, rq->vars, false);
        }
        putf(t, "(*(hd_k%d[%s] < 0 ? &hd_l_%s[~hd_k%d[%s]] : (const %s *)hd_v%d[hd_k%d[%s]]))",
             rp->group, at.s, a, rp->group, at.s, elem(g, ref->array), rq->level, rp->group, at.s);
        free(at.s);
        break;
    }
    case WAY_WHOLE: {
        /* The subscripts as the body computes them (their own reads
         * rewritten), checked where C may not have reached them. */
        text idx = { 0 };
        put_flat_index(&idx, g, ref, subscript_rewritten, np);
        putf(t, "hd_w_%s[", a);
        if (ref->check_at_run_time) {
            putf(t, "hd_checked(%s, ", idx.s);
            put_size(t, g, ref->array);
            put(t, ", ");
            put_where(t, g, ref);
            put(t, ")");
        } else {
            put(t, idx.s);
        }
        put(t, "]");
        free(idx.s);
        break;
    }
    }
}

/* Text [begin, end) of the loop with every distributed reference in it
 * rewritten (put_ref_value); a reference's own index is part of what
 * replaces it. */
static void put_rewritten(text *t, const gen *g, const node_plan *np, size_t begin,
                          size_t end, const body_ctx *body)
{
    const hd_loop *l = np->loop;
    size_t at = begin;
    for (;;) {
        /* The next reference, or element of an array the loop reduces into
         * (a site: its subscript holds references of its own). */
        int next = -1, site = -1;
        unsigned nb = 0, ne = 0;
        for (int k = 0; k < l->nrefs; k++) {
            const hd_ref *ref = &l->refs[k];
            if (np->refs[k].way == WAY_REPLICATED || ref->begin < at || ref->end > end)
                continue;
            if (next < 0 || ref->begin < nb || (ref->begin == nb && ref->end > ne)) {
                next = k;
                nb = ref->begin;
                ne = ref->end;
            }
        }
        for (int s = 0; s < l->nsites; s++) {
            const hd_red_site *rs = &l->sites[s];
            if (rs->begin < at || rs->end > end)
                continue;
            if ((next < 0 && site < 0) || rs->begin < nb || (rs->begin == nb && rs->end > ne)) {
                site = s;
                nb = rs->begin;
                ne = rs->end;
            }
        }
        if (next < 0 && site < 0)
            break;
        put_source(t, g, at, nb);
        if (site >= 0 && l->sites[site].begin == nb && l->sites[site].end == ne)
            put_site(t, g, np, site, body);
        else
            put_ref_value(t, g, np, next, body);
        at = ne;
    }
    put_source(t, g, at, end);
}

/* Site s of an array reduction, h[e]: the element of my private copy of h
 * (codegen/reductions.c), e checked at run time, since it may depend on
 * data (docs/annotations.md, "Reductions"). */
static void put_site(text *t, const gen *g, const node_plan *np, int s, const body_ctx *body)
{
    const hd_loop *l = np->loop;
    const hd_red_site *site = &l->sites[s];
    const hd_reduction *red = &l->reds[site->red];
    putf(t, "hd_p_%s[hd_checked((hd_index)(", red->name);
    put_rewritten(t, g, np, site->sub_begin, site->sub_end, body);
    putf(t, "), (hd_index)1 << %d, ", g->prog->arrays[red->array].log2_size);
    text w = { 0 };
    putf(&w, "%s:%d:%d: '", g->prog->path, site->line, site->col);
    for (unsigned k = site->begin; k < site->end && k < g->len; k++)
        if (g->src[k] != '\n' && g->src[k] != '\r')
            putf(&w, "%c", g->src[k]);
    put(&w, "'");
    put_c_string(t, w.s);
    free(w.s);
    put(t, ")]");
}

static void subscript_rewritten(text *t, const gen *g, const void *np, size_t b, size_t e)
{
    put_rewritten(t, g, np, b, e, NULL);
}

/* The condition under which C evaluates what guard gi guards, outermost
 * condition first so that C evaluates each only where the outer hold. */
static void put_guard(text *t, const gen *g, const node_plan *np, int gi)
{
    const hd_loop *l = np->loop;
    const hd_guard *gd = &l->guards[gi];
    if (gd->unevaluated) {
        put(t, "(0)");
        return;
    }
    if (gd->parent >= 0) {
        put_guard(t, g, np, gd->parent);
        put(t, " && ");
    }
    put(t, gd->when ? "(" : "!(");
    if (gd->text)
        put(t, gd->text);   /* the loop's range */
    else
        put_rewritten(t, g, np, gd->begin, gd->end, NULL);
    put(t, ")");
}

static void put_body(text *t, const gen *g, const node_plan *np, const char *indent,
                     const body_ctx *body)
{
    const hd_loop *l = np->loop;
    if (l->range_guard >= 0)   /* i in lo .. hi - 1: the iterations C runs */
        putf(t, "%sif (%s)\n", indent, l->guards[l->range_guard].text);
    line_directive(t, g, l->body_begin);
    put(t, indent);
    if (!l->body_is_block)
        put(t, "{ ");
    put_rewritten(t, g, np, l->body_begin, l->body_end, body);
    if (!l->body_is_block)
        put(t, "; }");
    put(t, "\n");
}

/* ------------------------------------------------------------- the loops */

/*
 * A loop over the coset x0 + span(b_0 .. b_{d-1}) in increasing order
 * (coset.c), binding the loop variable and hd_t (the element's number,
 * whose bit t picks b_t).  The first `inner` basis vectors are the single
 * bits lo, lo + 1, ...: that part is a plain counted loop, i = x + (u <<
 * lo); the rest steps from one run to the next by XOR with a table.
 * Returns the indentation of the loop's body.
 */
typedef struct {
    int inner, lo, outer;
} loop_shape;

static loop_shape shape_of(const hd_space *b)
{
    loop_shape s = { 0, 0, b->dim };
    if (b->dim == 0 || __builtin_popcountll(b->v[0]) != 1)
        return s;
    s.lo = __builtin_ctzll(b->v[0]);
    while (s.inner < b->dim && b->v[s.inner] == UINT64_C(1) << (s.lo + s.inner))
        s.inner++;
    s.outer = b->dim - s.inner;
    return s;
}

static void put_steps(text *t, const char *name, const hd_space *b, loop_shape s)
{
    uint64_t steps[65];
    uint64_t acc = 0;
    for (int c = 0; c < s.outer; c++) {
        acc ^= b->v[s.inner + c];
        steps[c] = acc;
    }
    steps[s.outer] = 0;
    put_table(t, "hd_index", name, steps, s.outer + 1);
}

/* Opens the loop: x0 and count are C expressions (count is 2^dim, or 0). */
static const char *open_coset_loop(text *t, const hd_loop *l, const hd_space *b,
                                   const char *x0, const char *count, const char *steps)
{
    loop_shape s = shape_of(b);
    if (s.outer == 0) {
        putf(t, "    {\n        const hd_index hd_x = %s;\n", x0);
        putf(t, "        const hd_index hd_count = %s;\n", count);
        put(t, "        for (hd_index hd_t = 0; hd_t < hd_count; hd_t++) {\n");
        if (s.lo)
            putf(t, "            const %s %s = (%s)(hd_x + (hd_t << %d));\n", l->var_type,
                 l->var, l->var_type, s.lo);
        else
            putf(t, "            const %s %s = (%s)(hd_x + hd_t);\n", l->var_type, l->var,
                 l->var_type);
        putf(t, "            HD_VISIT(%s);\n", l->var);
        return "            ";
    }
    putf(t, "    {\n        hd_index hd_x = %s;\n", x0);
    putf(t, "        const hd_index hd_count = %s;\n", count);
    putf(t, "        for (hd_index hd_o = 0; hd_o < hd_count >> %d; hd_o++, "
            "hd_x ^= %s[__builtin_ctzll((unsigned long long)hd_o)])\n",
         s.inner, steps);
    if (s.inner == 0) {
        put(t, "        {\n            const hd_index hd_t = hd_o;\n");
        putf(t, "            const %s %s = (%s)hd_x;\n", l->var_type, l->var, l->var_type);
    } else {
        putf(t, "        for (hd_index hd_u = 0; hd_u < %llu; hd_u++) {\n",
             (unsigned long long)1 << s.inner);
        putf(t, "            const hd_index hd_t = (hd_o << %d) + hd_u;\n", s.inner);
        putf(t, "            const %s %s = (%s)(hd_x + (hd_u << %d));\n", l->var_type,
             l->var, l->var_type, s.lo);
    }
    putf(t, "            HD_VISIT(%s);\n", l->var);
    return "            ";
}

static void close_coset_loop(text *t)
{
    put(t, "        }\n    }\n");
}

/* My iterations.  Affine home: the coset of hd_me (set up by put_mine);
 * otherwise a scan that skips the iterations of others. */
static const char *open_my_loop(text *t, const gen *g, const node_plan *np)
{
    const hd_loop *l = np->loop;
    if (np->affine_home)
        return open_coset_loop(t, l, &np->own.null, "hd_i0", "hd_mine", "hd_own_steps");
    const hd_ref *home = &l->refs[l->home];
    if (np->on_table) {
        putf(t, "    {\n        for (hd_index hd_t = hd_t0; hd_t < hd_mine; hd_t++) {\n"
                "            const %s %s = (%s)hd_element_in(%d, hd_me, hd_t);\n"
                "            HD_VISIT(%s);\n",
             l->var_type, l->var, l->var_type, g->array_id[home->array], l->var);
        return "            ";
    }
    putf(t, "    {\n        hd_index hd_n = 0;\n"
            "        for (%s %s = 0; %s < %llu; %s++) {\n"
            "            HD_VISIT(%s);\n            if (",
         l->var_type, l->var, l->var, (unsigned long long)1 << l->k, l->var, l->var);
    /* Outside the loop's range the home's index may name no element. */
    if (l->range_guard >= 0)
        putf(t, "!(%s) || ", l->guards[l->range_guard].text);
    put_owner(t, g, np->refs[l->home].index, home->array);
    put(t, " != hd_me)\n                continue;\n"
           "            const hd_index hd_t = hd_n++;\n");
    return "            ";
}

static void put_unused_t(text *t, const char *indent)
{
    putf(t, "%s(void)hd_t;\n", indent);
}

/* ----------------------------------------------------- the node function */

/* The arrays read whole (WAY_WHOLE): each gathered once on every
 * processor before the loop (open), freed after it. */
static void put_wholes(text *t, const gen *g, const node_plan *np, bool open)
{
    const hd_loop *l = np->loop;
    for (int k = 0; k < l->nrefs; k++) {
        if (np->refs[k].way != WAY_WHOLE)
            continue;
        bool first = true;
        for (int j = 0; j < k && first; j++)
            first = !(np->refs[j].way == WAY_WHOLE && l->refs[j].array == l->refs[k].array);
        if (!first)
            continue;
        const char *a = name_of(g, l->refs[k].array);
        if (!open) {
            putf(t, "    free((void *)hd_w_%s);\n", a);
            continue;
        }
        put(t, "\n    /* ");
        put_commented(t, l->refs[k].text);
        putf(t, " is read at elements known only while the body runs (its\n"
                "     * index or its guard reads a variable of the body): every processor\n"
                "     * gets the whole of '%s' before the loop, an all-gather (Stout and\n"
                "     * Wagar 1990), and reads it at the element's index. */\n"
                "    const %s *const hd_w_%s = hd_whole(%d);\n",
             a, elem(g, l->refs[k].array), a, g->array_id[l->refs[k].array]);
    }
}

/* Where my iterations are: hd_i0 (the first) and hd_mine (how many). */
static void put_mine(text *t, const gen *g, const node_plan *np)
{
    const hd_loop *l = np->loop;
    const hd_ref *home = &l->refs[l->home];
    int n = g->prog->n;
    if (np->on_table) {
        const hd_owner_table *ot = &g->prog->tables[g->prog->arrays[home->array].table];
        int64_t lo, hi;
        bool lo_known, hi_known;
        hd_loop_range(l, &lo, &lo_known, &hi, &hi_known);
        char lo_c[64], hi_c[64];
        snprintf(lo_c, sizeof lo_c, "%lld", (long long)lo);
        snprintf(hi_c, sizeof hi_c, "%lld", (long long)hi);
        put(t, "    /* My iterations: the i whose ");
        put_commented(t, home->text);
        put(t, ot->spread == HD_DIST_NONE ? " I hold by the owner table " : " I hold, spread by ");
        put_commented(t, ot->name);
        put(t, ", i.e. my elements\n     * in ");
        put_commented(t, lo_known ? lo_c : l->lo_text);
        put(t, " .. ");
        put_commented(t, hi_known ? hi_c : l->hi_text);
        put(t, " - 1, in increasing order (the t-th: my t-th element). */\n");
        if (lo_known && lo == 0)
            put(t, "    const hd_index hd_t0 = 0;\n");
        else
            putf(t, "    const hd_index hd_t0 = hd_local_below(%d, (hd_index)(%s));\n",
                 g->array_id[home->array], lo_known ? lo_c : l->lo_text);
        putf(t, "    const hd_index hd_mine = hd_local_below(%d, (hd_index)(%s));\n",
             g->array_id[home->array], hi_known ? hi_c : l->hi_text);
        putf(t, "    const hd_index hd_b%d = 0;   /* the home's elements and its table's at i */\n"
                "    (void)hd_b%d;\n", l->home, l->home);
        return;
    }
    if (!np->affine_home) {
        putf(t, "    /* My iterations: those whose ");
        put_commented(t, home->text);
        put(t, " I hold; its owner is not a GF(2)-affine map of the\n"
               "     * loop variable, so every iteration is looked at. */\n");
        if (!np->nreqs)
            return;
        put(t, "    hd_index hd_mine = 0;\n");
        const char *in = open_my_loop(t, g, np);
        put_unused_t(t, in);
        put(t, "            hd_mine++;\n");
        close_coset_loop(t);
        return;
    }
    const hd_system *own = &np->own;
    loop_shape s = shape_of(&own->null);
    char rhs[64];
    put(t, "    /* My iterations: the i whose ");
    put_commented(t, home->text);
    putf(t, " I hold, i.e. owner(i) = hd_me,\n"
            "     * the coset x0 + span(basis) of the GF(2) system owner(i) = hd_me "
            "(2^%d of them). */\n", own->null.dim);
    put_table(t, "hd_index", "hd_own_part", own->part, n);
    if (own->nchecks) {
        put_table(t, "uint64_t", "hd_own_checks", own->check, own->nchecks);
        putf(t, "    const hd_index hd_mine = hd_solvable(hd_own_checks, %d, %s)\n"
                "                             ? (hd_index)1 << %d : 0;\n",
             own->nchecks, me_plus(rhs, sizeof rhs, np->own_c), own->null.dim);
    } else {
        putf(t, "    const hd_index hd_mine = (hd_index)1 << %d;\n", own->null.dim);
    }
    putf(t, "    const hd_index hd_i0 = hd_combine(hd_own_part, %d, %s);\n", n,
         me_plus(rhs, sizeof rhs, np->own_c));
    if (s.outer) {
        put_steps(t, "hd_own_steps", &own->null, s);
        put(t, "    (void)hd_own_steps;   /* unused when every loop over my iterations is blocked */\n");
    }
    /* The local references whose offset is hd_b<k> + hd_t. */
    for (int k = 0; k < l->nrefs; k++) {
        if (np->refs[k].way != WAY_LOCAL || !np->refs[k].fast || np->refs[k].base != k)
            continue;
        putf(t, "    hd_index hd_b%d;   /* ", k);
        put_commented(t, l->refs[k].text);
        putf(t, " and every reference with its offsets: mine at hd_b%d + hd_t */\n"
                "    {\n        const %s %s = (%s)hd_i0;\n        (void)%s;\n        hd_b%d = ",
             k, l->var_type, l->var, l->var_type, l->var, k);
        put_offset(t, g, np->refs[k].index, l->refs[k].array);
        put(t, ";\n    }\n");
    }
}

/* Does the body read slot group s other than inside a request's index
 * (which the request rounds read instead)? */
static bool slot_read_in_body(const node_plan *np, int s)
{
    const hd_loop *l = np->loop;
    for (int k = 0; k < l->nrefs; k++) {
        if (np->refs[k].way != WAY_SLOTS || np->refs[k].group != s)
            continue;
        bool in_request = false;
        for (int j = 0; j < l->nrefs && !in_request; j++)
            in_request = np->refs[j].way == WAY_REQUEST && inside(&l->refs[k], &l->refs[j]);
        if (!in_request)
            return true;
    }
    return false;
}

/* Does a request's index or guard read slot group s?  (Then the request
 * rounds fetch its elements by their index: hd_at_<d>_<s>.) */
static bool slot_read_in_requests(const node_plan *np, int s)
{
    const hd_loop *l = np->loop;
    for (int k = 0; k < l->nrefs; k++) {
        if (np->refs[k].way != WAY_SLOTS || np->refs[k].group != s)
            continue;
        for (int j = 0; j < l->nrefs; j++) {
            if (np->refs[j].way != WAY_REQUEST)
                continue;
            if (inside(&l->refs[k], &l->refs[j]))
                return true;
            for (int gi = l->refs[j].guard; gi >= 0; gi = l->guards[gi].parent)
                if (l->refs[k].begin >= l->guards[gi].begin && l->refs[k].end <= l->guards[gi].end)
                    return true;
        }
    }
    return false;
}

/* ------------------------------------------------ affine quantities by steps */

/* Along a coset enumeration x0 + sum of the basis vectors picked by t's
 * bits, going from t - 1 to t flips bits 0 .. ctz(t) of t, so a GF(2)-
 * affine quantity q of the iteration changes by the sum of q's linear part
 * over those basis vectors: q += step[ctz(t)], step[c] = sum_{u <= c}
 * (q(b_u) + q(0)).  One XOR per quantity and iteration, whatever C
 * expression computes q (reverse(i, 20) is a loop of 20). */
static void put_q_steps(text *t, const char *name, const hd_affine *q, const hd_space *b)
{
    uint64_t steps[65], acc = 0, q0 = hd_affine_apply(q, 0);
    for (int c = 0; c < b->dim; c++) {
        acc ^= hd_affine_apply(q, b->v[c]) ^ q0;
        steps[c] = acc;
    }
    steps[b->dim] = 0;
    put_table(t, "hd_index", name, steps, b->dim + 1);
}

/* The slot pext(e, leads) of a group's element as a map of i. */
static hd_affine slot_map_of(const slot_group *sg)
{
    hd_affine m = hd_affine_constant(sg->map.in, 0);
    int j = 0;
    for (int b = 0; b < 64; b++)
        if ((sg->leads >> b) & 1) {
            m.row[j] = sg->map.row[b];
            m.c |= ((sg->map.c >> b) & 1) << j;
            j++;
        }
    return m;
}

/* Declares hd_from<s>, hd_off<s> and hd_slot<s> (where my iteration's
 * element of slot group s is) at the first iteration hd_i0, and their
 * steps along my coset (or along `steps`, the basis vectors beyond a
 * block, put_compute_loop). */
static void put_slot_state(text *t, const gen *g, const node_plan *np, int s,
                           const hd_space *steps)
{
    const slot_group *sg = &np->slots[s];
    const hd_loop *l = np->loop;
    const hd_ref *ref = &l->refs[sg->ref];
    char name[40];
    hd_affine from = owner_map_of(g, ref), off = offset_map_of(g, ref), slot = slot_map_of(sg);
    if (!steps)
        steps = &np->own.null;
    if (steps->dim > 0) {
        snprintf(name, sizeof name, "hd_step_from%d", s);
        put_q_steps(t, name, &from, steps);
        snprintf(name, sizeof name, "hd_step_off%d", s);
        put_q_steps(t, name, &off, steps);
        snprintf(name, sizeof name, "hd_step_slot%d", s);
        put_q_steps(t, name, &slot, steps);
    }
    putf(t, "    hd_index hd_from%d = 0, hd_off%d = 0, hd_slot%d = 0;   /* ", s, s, s);
    put_commented(t, ref->text);
    putf(t, ": its owner, my offset, its slot */\n    if (hd_mine) {\n        const %s %s = (%s)hd_i0;\n"
            "        const hd_index hd_e = %s;\n        (void)%s;\n        hd_from%d = ",
         l->var_type, l->var, l->var_type, np->refs[sg->ref].index, l->var, s);
    put_owner(t, g, "hd_e", sg->array);
    putf(t, ";\n        hd_off%d = ", s);
    put_offset(t, g, "hd_e", sg->array);
    putf(t, ";\n        hd_slot%d = ", s);
    put_slot(t, sg->leads, "hd_e");
    put(t, ";\n    }\n");
    if (np->permutation)   /* its reads take hd_src0[hd_slot0] alone */
        putf(t, "    (void)hd_from%d;\n    (void)hd_off%d;\n", s, s);
}

/* In the loop over my iterations, before the body: the next iteration's. */
static void put_slot_steps(text *t, const node_plan *np, const char *indent)
{
    bool any = false;
    for (int s = 0; s < np->nslots; s++)
        any |= slot_read_in_body(np, s);
    if (!any || np->own.null.dim == 0)
        return;
    putf(t, "%sif (hd_t) {\n%s    const int hd_c = __builtin_ctzll((unsigned long long)hd_t);\n",
         indent, indent);
    for (int s = 0; s < np->nslots; s++)
        if (slot_read_in_body(np, s))
            putf(t, "%s    hd_from%d ^= hd_step_from%d[hd_c];\n%s    hd_off%d ^= hd_step_off%d[hd_c];\n"
                "%s    hd_slot%d ^= hd_step_slot%d[hd_c];\n",
             indent, s, s, indent, s, s, indent, s, s);
    putf(t, "%s}\n", indent);
}

/* The fetch of a slot group's element: mine, or at its slot in the
 * message from its owner. */
static void put_slot_reader(text *t, const gen *g, const node_plan *np, int d, int s)
{
    const slot_group *sg = &np->slots[s];
    const char *type = elem(g, sg->array);
    putf(t, "static inline const %s *hd_at_%d_%d(int hd_me, const %s *hd_l,\n"
            "                                      const void *const *hd_in, hd_index hd_e)\n{\n"
            "    const int hd_from = ",
         type, d, s, type);
    put_owner(t, g, "hd_e", sg->array);
    put(t, ";\n    if (hd_from == hd_me)\n        return &hd_l[");
    put_offset(t, g, "hd_e", sg->array);
    putf(t, "];\n    return (const %s *)hd_in[hd_from] + ", type);
    put_slot(t, sg->leads, "hd_e");
    put(t, ";\n}\n\n");
}

/* Packing slot group s: the iterations of others that read my elements
 * (one per reader and element: the send space), each element copied to
 * its slot in the message to its reader.  The reader, the slot and my
 * element's offset step along the enumeration (put_q_steps). */
static int run_of(const hd_affine *q, const hd_space *b, int most, int *c);
static bool block_bits_free_e(const hd_affine *q, const hd_space *w, int run, int c);

/* The local offset of an element as a map of the element's index. */
static hd_affine element_offset_map(const gen *g, int arr)
{
    return g->layout[arr].offset;
}

/*
 * Packing slot group s: to each processor q that reads my elements (the
 * runtime knows which: hd_group_out gives NULL elsewhere), those elements
 * in increasing order, the j-th at slot j.  They are e0 + W (plan.c): e0
 * comes from one iteration of q reading one of my elements (a solution of
 * the pair's system), reduced modulo W, and the rest by XOR steps along
 * W's basis, in blocks over which my element's offset moves by a stride:
 * the writes are sequential and the reads in memory order, as a sender
 * written by hand packs them.
 */
static void put_pack(text *t, const gen *g, const node_plan *np, int s)
{
    const hd_loop *l = np->loop;
    const slot_group *sg = &np->slots[s];
    const hd_ref *ref = &l->refs[sg->ref];
    int n = g->prog->n;
    char name[40];
    put(t, "    /* Pack ");
    put_commented(t, ref->text);
    putf(t, ": to each processor q whose iterations read my elements, those\n"
            "     * elements in increasing order, the j-th at slot j (2^%d of them). */\n",
         sg->log2_slots);
    snprintf(name, sizeof name, "hd_pair_part%d", s);
    put_table(t, "hd_index", name, sg->pair.part, 2 * n);
    if (sg->w.dim) {
        snprintf(name, sizeof name, "hd_slots%d", s);
        put_table(t, "hd_index", name, sg->w.v, sg->w.dim);
    }
    hd_affine off = element_offset_map(g, sg->array);
    loop_shape sh = shape_of(&sg->w);
    int c_get, inner = run_of(&off, &sg->w, sh.inner, &c_get);
    if (inner < 3)
        inner = 0;
    run_of(&off, &sg->w, inner, &c_get);
    hd_space outer = hd_space_zero(sg->w.k);
    for (int v = inner; v < sg->w.dim; v++)
        outer.v[outer.dim++] = sg->w.v[v];
    if (sg->w.dim) {
        snprintf(name, sizeof name, "hd_step_get%d", s);
        put_q_steps(t, name, &off, &outer);
    }
    const char *dst = np->permutation ? "hd_to_buf" : "hd_out[hd_q]";
    if (np->permutation)
        putf(t, "    {\n        void *const *const hd_out = hd_group_out(hd_msgs, %d);\n"
                "        const int hd_q = hd_to;   /* the one reader of my elements */\n"
                "        void *const hd_to_buf = hd_q == hd_me ? (void *)hd_self0 : hd_out[hd_q];\n"
                "        if (hd_to_buf) {\n", s);
    else
        putf(t, "    {\n        void *const *const hd_out = hd_group_out(hd_msgs, %d);\n"
                "        for (int hd_q = 0; hd_q < %d; hd_q++) {\n"
                "            if (!hd_out[hd_q])\n                continue;\n",
             s, 1 << n);
    char qc[64], pc[64];
    if (sg->home_c)
        snprintf(qc, sizeof qc, "((uint64_t)hd_q ^ %#llx)", (unsigned long long)sg->home_c);
    else
        snprintf(qc, sizeof qc, "(uint64_t)hd_q");
    if (sg->family)
        snprintf(pc, sizeof pc, "(uint64_t)hd_me ^ hd_family_c%d", s);
    else
        me_plus(pc, sizeof pc, sg->src_c);
    putf(t, "            /* An iteration of hd_q that reads one of my elements. */\n"
            "            const %s %s = (%s)hd_combine(hd_pair_part%d, %d, %s | (%s) << %d);\n"
            "            (void)%s;\n",
         l->var_type, l->var, l->var_type, s, 2 * n, qc, pc, n, l->var);
    text first = { 0 };
    if (sg->w.dim)
        putf(&first, "hd_reduce(hd_slots%d, %d, %s)", s, sg->w.dim, np->refs[sg->ref].index);
    else
        put(&first, np->refs[sg->ref].index);
    if (!sg->w.dim) {
        putf(t, "            HD_VISIT(hd_q);\n"
                "            ((%s *)%s)[0] = hd_l_%s[", elem(g, sg->array), dst,
             name_of(g, sg->array));
        put_offset(t, g, first.s, sg->array);
        free(first.s);
        put(t, "];\n        }\n    }\n");
        return;
    }
    put(t, "            hd_index hd_get = ");
    put_offset(t, g, first.s, sg->array);
    free(first.s);
    putf(t, ";\n            %s *const hd_dst = %s;\n", elem(g, sg->array), dst);
    if (inner) {
        bool plus = block_bits_free_e(&off, &sg->w, inner, c_get);
        putf(t, "            for (hd_index hd_o = 1; hd_o <= ((hd_index)1 << %d); hd_o++) {\n"
                "                for (hd_index hd_u = 0; hd_u < %llu; hd_u++) {\n"
                "                    HD_VISIT(hd_u);\n"
                "                    hd_dst[((hd_o - 1) << %d) + hd_u] = hd_l_%s[hd_get %s (hd_u << %d)];\n"
                "                }\n",
             sg->w.dim - inner, (unsigned long long)1 << inner, inner, name_of(g, sg->array),
             plus ? "+" : "^", c_get);
    } else {
        putf(t, "            for (hd_index hd_o = 1; hd_o <= ((hd_index)1 << %d); hd_o++) {\n"
                "                HD_VISIT(hd_o);\n"
                "                hd_dst[hd_o - 1] = hd_l_%s[hd_get];\n",
             sg->w.dim, name_of(g, sg->array));
    }
    putf(t, "                hd_get ^= hd_step_get%d[__builtin_ctzll((unsigned long long)hd_o)];\n"
            "            }\n        }\n    }\n", s);
}

/*
 * An LCC family's b (docs/layouts.md, "Parametric indices"): the element
 * read at i = 0, the same for the whole loop, computed once, each
 * subscript checked against its extent (the analysis showed that the loop
 * variable moves no bit beyond it, so every iteration's element is then
 * inside); its owner is the pair system's src_c, for every processor.
 */
static void put_family_b(text *t, const gen *g, const node_plan *np, int s)
{
    const slot_group *sg = &np->slots[s];
    const hd_loop *l = np->loop;
    const hd_ref *ref = &l->refs[sg->ref];
    const hd_array *a = &g->prog->arrays[sg->array];
    char name[32];
    put(t, "    /* ");
    put_commented(t, ref->text);
    putf(t, ": an LCC family, b (its element at %s = 0) known now. */\n"
            "    hd_index hd_family%d;\n    {\n        const %s %s = 0;\n        (void)%s;\n",
         l->var, s, l->var_type, l->var, l->var);
    for (int d = 0; d < ref->nsubs; d++) {
        put(t, "        hd_checked((hd_index)(");
        put_source(t, g, ref->subs[d].begin, ref->subs[d].end);
        putf(t, "), %lld, ", (long long)a->extent[d]);
        put_where(t, g, ref);
        put(t, ");\n");
    }
    putf(t, "        hd_family%d = %s;\n    }\n    const uint64_t hd_family_c%d = (uint64_t)", s,
         np->refs[sg->ref].index, s);
    snprintf(name, sizeof name, "hd_family%d", s);
    put_owner(t, g, name, sg->array);
    put(t, ";\n");
}

/*
 * A permutation of the processors (an LCP, Hou et al. 2001, Definition 2;
 * plan.c): the iterations that read my elements all run on one processor,
 * hd_to, the home owner of any of them (a solution of source owner(i) =
 * me); the elements my iterations read all live on one, hd_from, the owner
 * of my first iteration's.  Each is O(1) in the number of processors: no
 * scan of them (Lee and Aboelaze's Lemma, for their templates under skew:
 * each processor finds its partners and its element's local address from
 * its own number alone).
 */
static void put_partners(text *t, const gen *g, const node_plan *np)
{
    const slot_group *sg = &np->slots[0];
    const hd_loop *l = np->loop;
    const hd_ref *home = &l->refs[l->home];
    int n = g->prog->n;
    char me[64];
    if (sg->family)
        snprintf(me, sizeof me, "(uint64_t)hd_me ^ hd_family_c0");
    else
        me_plus(me, sizeof me, sg->src_c);
    put_table(t, "hd_index", "hd_src_part0", sg->src.part, n);
    putf(t, "    int hd_to, hd_from;   /* my partners */\n    {\n"
            "        const %s %s = (%s)hd_combine(hd_src_part0, %d, %s);\n"
            "        (void)%s;\n        hd_to = ",
         l->var_type, l->var, l->var_type, n, me, l->var);
    put_owner(t, g, np->refs[l->home].index, home->array);
    putf(t, ";\n    }\n    {\n        const %s %s = (%s)hd_i0;\n        (void)%s;\n"
            "        hd_from = ",
         l->var_type, l->var, l->var_type, l->var);
    put_owner(t, g, np->refs[sg->ref].index, sg->array);
    /* A fixed point of the permutation is its own partner both ways: it
     * packs its elements into its own slots, so that every read takes its
     * element from one buffer, with no test of whose it is. */
    putf(t, ";\n    }\n    %s *const hd_self0 = hd_to == hd_me ? hd_alloc((hd_index)1 << %d, "
            "sizeof *hd_l_%s) : NULL;\n",
         elem(g, sg->array), sg->log2_slots, name_of(g, sg->array));
}

static void put_slot_groups(text *t, const gen *g, const node_plan *np)
{
    const hd_loop *l = np->loop;
    int n = g->prog->n, P = 1 << n;
    put(t, "\n    /* Elements my iterations read by an LCC: each element q needs from p\n"
           "     * travels once, at its slot; both sides know every size. */\n");
    for (int s = 0; s < np->nslots; s++)
        if (np->slots[s].family)
            put_family_b(t, g, np, s);
    if (np->permutation)
        put_partners(t, g, np);
    for (int s = 0; s < np->nslots; s++) {
        char name[32];
        snprintf(name, sizeof name, "hd_pair%d", s);
        put_table(t, "uint64_t", name, np->slots[s].pair.check, np->slots[s].pair.nchecks);
    }
    putf(t, "    const hd_lcc_group hd_groups[%d] = {\n", np->nslots);
    for (int s = 0; s < np->nslots; s++) {
        const slot_group *sg = &np->slots[s];
        char src_c[32];
        if (sg->family)
            snprintf(src_c, sizeof src_c, "hd_family_c%d", s);
        else
            snprintf(src_c, sizeof src_c, "%#llx", (unsigned long long)sg->src_c);
        putf(t, "        { sizeof *hd_l_%s, _Alignof(%s), %d, %#llx, %s, %d, hd_pair%d },   /* ",
             name_of(g, sg->array), elem(g, sg->array), sg->log2_slots,
             (unsigned long long)sg->home_c, src_c, sg->pair.nchecks, s);
        put_commented(t, l->refs[sg->ref].text);
        put(t, " */\n");
    }
    put(t, "    };\n    hd_exchange *const hd_msgs = hd_exchange_groups(");
    putf(t, "%d, hd_groups);\n", np->nslots);
    for (int s = 0; s < np->nslots; s++)
        put_pack(t, g, np, s);
    const hd_plan_comm *coll = collective_of(g, np);
    if (coll)
        put_collective_exchange(t, g, coll);
    if (np->permutation && !coll) {
        putf(t, "    /* One message to the processor whose iterations read my elements, one\n"
                "     * from the one that holds the elements mine read (Hou et al. 2001,\n"
                "     * Fig. 1d). */\n"
                "    if (hd_to != hd_me) {\n"
                "        size_t hd_n;\n"
                "        const void *hd_out = hd_batch(hd_msgs, hd_to, &hd_n);\n"
                "        if (hd_n)\n"
                "            %ssend(hd_to, hd_out, hd_n);\n"
                "    }\n"
                "    if (hd_from != hd_me) {\n"
                "        size_t hd_n;\n"
                "        void *hd_in = hd_inbox(hd_msgs, hd_from, &hd_n);\n"
                "        if (hd_n)\n"
                "            %sreceive(hd_from, hd_in, hd_n);\n"
                "    }\n", g->v, g->v);
    }
    if (np->permutation) {
        putf(t, "    const void *const *const hd_in0 = hd_group_in(hd_msgs, 0);\n"
                "    (void)hd_in0;   /* its reads may all be ruled out by guards */\n"
                "    const %s *const hd_src0 = hd_from == hd_me ? hd_self0 : (const %s *)hd_in0[hd_from];\n"
                "    (void)hd_src0;\n",
             elem(g, np->slots[0].array), elem(g, np->slots[0].array));
        return;
    }
    const hd_plan_comm *group = group_collective_of(g, np);
    if (group) {
        put_group_collective(t, g, group);
        return;
    }
    if (alltoall_of(g, np)) {
        put(t, "    /* Every processor's elements for every other, by COMPLETE EXCHANGE\n"
               "     * (Stout and Wagar 1990, Section 6): the cost model prefers it to one\n"
               "     * message per pair (docs/collectives.md). */\n"
               "    hd_exchange_run_alltoall(hd_msgs);\n");
        for (int s = 0; s < np->nslots; s++)
            putf(t, "    const void *const *const hd_in%d = hd_group_in(hd_msgs, %d);\n"
                    "    (void)hd_in%d;   /* its reads may all be ruled out by guards */\n", s, s, s);
        return;
    }
    putf(t, "    /* One message to each processor whose iterations read my elements, one\n"
            "     * from each that holds elements mine read (Hou et al. 2001, Fig. 1d). */\n"
            "    for (int hd_k = 1; hd_k < %d; hd_k++) {\n"
            "        size_t hd_n;\n"
            "        const void *hd_out = hd_batch(hd_msgs, hd_me ^ hd_k, &hd_n);\n"
            "        if (hd_n)\n"
            "            %ssend(hd_me ^ hd_k, hd_out, hd_n);\n"
            "    }\n"
            "    for (int hd_k = 1; hd_k < %d; hd_k++) {\n"
            "        size_t hd_n;\n"
            "        void *hd_in = hd_inbox(hd_msgs, hd_me ^ hd_k, &hd_n);\n"
            "        if (hd_n)\n"
            "            %sreceive(hd_me ^ hd_k, hd_in, hd_n);\n"
            "    }\n", P, g->v, P, g->v);
    for (int s = 0; s < np->nslots; s++)
        putf(t, "    const void *const *const hd_in%d = hd_group_in(hd_msgs, %d);\n"
                "    (void)hd_in%d;   /* its reads may all be ruled out by guards */\n", s, s, s);
}

/* ----------------------------------------------------------- streams */

/* The guard of stream group q as a condition, or NULL without one. */
static bool put_stream_guard(text *t, const gen *g, const node_plan *np, int q)
{
    if (np->streams[q].guard < 0)
        return false;
    put(t, "if (");
    put_guard(t, g, np, np->streams[q].guard);
    put(t, ") ");
    return true;
}

/*
 * Streams (plan.c): every processor walks its elements of each stream
 * group's array in increasing order and sends element e to the processor
 * of iteration e - c where that iteration exists and its guard holds;
 * every processor counts, over its own iterations, what it will receive
 * from each other, so that sizes are known on both sides without asking.
 */
static void put_streams(text *t, const gen *g, const node_plan *np)
{
    const hd_loop *l = np->loop;
    const hd_ref *home = &l->refs[l->home];
    int n = g->prog->n, P = 1 << n;
    put(t, "\n    /* Streams: elements read at i + c, c fixed during the loop; each owner\n"
           "     * sends the elements others' iterations read, in increasing order. */\n"
           "    hd_exchange *const hd_stream = hd_exchange_new();\n");
    for (int q = 0; q < np->nstreams; q++) {
        const stream_group *sg = &np->streams[q];
        const hd_ref *ref = &l->refs[sg->ref];
        const hd_array *a = &g->prog->arrays[sg->array];
        putf(t, "    hd_index hd_c%d;   /* ", q);
        put_commented(t, ref->text);
        putf(t, ": element i + hd_c%d */\n    {\n        const %s %s = 0;\n        (void)%s;\n"
                "        hd_c%d = %s;\n    }\n",
             q, l->var_type, l->var, l->var, q, np->refs[sg->ref].index);
        const hd_layout *lay = &g->layout[sg->array];
        putf(t, "    for (hd_index hd_j = 0; hd_j < %lld; hd_j++) {\n"
                "        const hd_index hd_n = ", (long long)1 << (lay->bits - lay->n));
        put_element(t, g, "hd_j", "hd_me", sg->array);
        putf(t, " - hd_c%d;\n"
                "        HD_VISIT(hd_n);\n"
                "        if (hd_n < 0 || hd_n >= %lld)\n            continue;\n"
                "        const %s %s = (%s)hd_n;\n        (void)%s;\n        ",
             q, (long long)1 << l->k,
             l->var_type, l->var, l->var_type, l->var);
        if (sg->guard >= 0) {
            put(t, "if (!(");
            put_guard(t, g, np, sg->guard);
            put(t, "))\n            continue;\n        ");
        }
        put(t, "const int hd_to = ");
        put_owner(t, g, np->refs[l->home].index, home->array);
        putf(t, ";\n        if (hd_to != hd_me)\n"
                "            hd_put(hd_stream, hd_to, &hd_l_%s[hd_j], sizeof *hd_l_%s);\n    }\n",
             a->name, a->name);
    }
    put(t, "    /* What my iterations will receive, from each processor. */\n");
    for (int q = 0; q < np->nstreams; q++) {
        putf(t, "    hd_index *const hd_cnt%d = hd_alloc(%d, sizeof *hd_cnt%d);\n", q, P, q);
        putf(t, "    memset(hd_cnt%d, 0, %d * sizeof *hd_cnt%d);\n", q, P, q);
    }
    const char *in = open_my_loop(t, g, np);
    put_unused_t(t, in);
    for (int q = 0; q < np->nstreams; q++) {
        const stream_group *sg = &np->streams[q];
        const hd_ref *ref = &l->refs[sg->ref];
        put(t, in);
        put_stream_guard(t, g, np, q);
        putf(t, "{\n%s    const hd_index hd_e = hd_checked((hd_index)%s + hd_c%d, (hd_index)1 << %d, ",
             in, l->var, q, g->prog->arrays[sg->array].log2_size);
        put_where(t, g, ref);
        putf(t, ");\n%s    const int hd_f = ", in);
        put_owner(t, g, "hd_e", sg->array);
        putf(t, ";\n%s    if (hd_f != hd_me)\n%s        hd_cnt%d[hd_f]++;\n%s}\n", in, in, q, in);
    }
    close_coset_loop(t);
    putf(t, "    for (int hd_p = 0; hd_p < %d; hd_p++) {\n        size_t hd_bytes = 0;\n", P);
    for (int q = 0; q < np->nstreams; q++)
        putf(t, "        hd_bytes += (size_t)hd_cnt%d[hd_p] * sizeof *hd_l_%s;\n", q,
             name_of(g, np->streams[q].array));
    putf(t, "        if (hd_p != hd_me)\n            hd_expect(hd_stream, hd_p, hd_bytes);\n    }\n"
            "    for (int hd_k = 1; hd_k < %d; hd_k++) {\n"
            "        size_t hd_n;\n"
            "        const void *hd_out = hd_batch(hd_stream, hd_me ^ hd_k, &hd_n);\n"
            "        if (hd_n)\n"
            "            %ssend(hd_me ^ hd_k, hd_out, hd_n);\n"
            "    }\n"
            "    for (int hd_k = 1; hd_k < %d; hd_k++) {\n"
            "        size_t hd_n;\n"
            "        void *hd_in = hd_inbox(hd_stream, hd_me ^ hd_k, &hd_n);\n"
            "        if (hd_n)\n"
            "            %sreceive(hd_me ^ hd_k, hd_in, hd_n);\n"
            "    }\n"
            "    const unsigned char *const *const hd_sin = hd_inboxes(hd_stream);\n"
            "    (void)hd_sin;\n", P, g->v, P, g->v);
    /* Each group's values from p start after the earlier groups'. */
    putf(t, "    for (int hd_p = 0; hd_p < %d; hd_p++) {\n        hd_index hd_at = 0;\n", P);
    for (int q = 0; q < np->nstreams; q++)
        putf(t, "        const hd_index hd_n%d = hd_cnt%d[hd_p];\n"
                "        hd_cnt%d[hd_p] = hd_at;   /* now: where the next value from hd_p is */\n"
                "        hd_at += hd_n%d * (hd_index)sizeof *hd_l_%s;\n",
             q, q, q, q, name_of(g, np->streams[q].array));
    put(t, "    }\n");
}

/* In the loop over my iterations, before the body: where each stream
 * group's element of this iteration is (mine, or the next value from its
 * owner), when its guard holds. */
static void put_stream_fetch(text *t, const gen *g, const node_plan *np, const char *in)
{
    const hd_loop *l = np->loop;
    for (int q = 0; q < np->nstreams; q++) {
        const stream_group *sg = &np->streams[q];
        const char *a = name_of(g, sg->array), *type = elem(g, sg->array);
        putf(t, "%s%s hd_sv%d;\n%sconst %s *hd_s%d = &hd_sv%d;\n%s", in, type, q, in, type, q, q,
             in);
        put_stream_guard(t, g, np, q);
        putf(t, "{\n%s    const hd_index hd_e = (hd_index)%s + hd_c%d;\n%s    const int hd_f = ",
             in, l->var, q, in);
        put_owner(t, g, "hd_e", sg->array);
        putf(t, ";\n%s    if (hd_f == hd_me) {\n%s        hd_s%d = &hd_l_%s[", in, in, q, a);
        put_offset(t, g, "hd_e", sg->array);
        putf(t, "];\n%s    } else {\n"
                "%s        memcpy(&hd_sv%d, hd_sin[hd_f] + hd_cnt%d[hd_f], sizeof hd_sv%d);\n"
                "%s        hd_cnt%d[hd_f] += (hd_index)sizeof hd_sv%d;\n%s    }\n%s}\n",
             in, in, q, q, q, in, q, q, in, in);
    }
}

/* The longest run of the first basis vectors of my coset over which
 * linear map q's image of basis vector t is 2^(c + t) (c found from the
 * first), or 0 everywhere (c = -1: q stays put); at most `most`. */
static int run_of(const hd_affine *q, const hd_space *b, int most, int *c)
{
    uint64_t q0 = hd_affine_apply(q, 0);
    uint64_t first = most > 0 ? hd_affine_apply(q, b->v[0]) ^ q0 : 0;
    *c = first ? __builtin_ctzll(first) : -1;
    int run = 0;
    while (run < most) {
        uint64_t img = hd_affine_apply(q, b->v[run]) ^ q0;
        if (first ? (*c + run >= 64 || img != UINT64_C(1) << (*c + run)) : img != 0)
            break;
        run++;
    }
    return run;
}

/* Are bits c .. c+run-1 of q zero at the first iteration of every block
 * of the coset sys's solutions + span(basis), for every processor (q(0),
 * q of each particular column, q of each basis vector beyond the run)?
 * Then + may add the position in the block, which compilers read as a
 * stride. */
static bool block_bits_free(const hd_affine *q, const hd_system *sys, const hd_space *basis,
                            int run, int c)
{
    uint64_t mask = hd_mask(run) << c, q0 = hd_affine_apply(q, 0);
    if (q0 & mask)
        return false;
    for (int r = 0; r < sys->m; r++)
        if ((hd_affine_apply(q, sys->part[r]) ^ q0) & mask)
            return false;
    for (int t = run; t < basis->dim; t++)
        if ((hd_affine_apply(q, basis->v[t]) ^ q0) & mask)
            return false;
    return true;
}

/* The same for the element coset e0 + W that a pack walks, e0 reduced
 * modulo W: is bit c .. c+run-1 of q zero at every block's first element
 * for every e0?  Only when no element can set them: q's constant and the
 * images of W's vectors beyond the run, and of every bit outside W's
 * leads (e0's bits), leave them 0. */
static bool block_bits_free_e(const hd_affine *q, const hd_space *w, int run, int c)
{
    uint64_t mask = hd_mask(run) << c, q0 = hd_affine_apply(q, 0);
    if (q0 & mask)
        return false;
    for (int t = run; t < w->dim; t++)
        if ((hd_affine_apply(q, w->v[t]) ^ q0) & mask)
            return false;
    uint64_t leads = hd_space_leads(w);
    for (int b = 0; b < q->in; b++)
        if (!((leads >> b) & 1) && ((hd_affine_apply(q, UINT64_C(1) << b) ^ q0) & mask))
            return false;
    return true;
}

/*
 * The loop over my iterations when the body reads slot groups: in blocks
 * of 2^inner consecutive iterations over which every such group's owner
 * stays put and its offset and slot move by a fixed stride (a transpose's
 * column, a butterfly's half), so that within a block the body reads
 * base + (hd_u << c) with a branch that goes the same way every time; the
 * owners, offsets and slots step by XOR from one block to the next.
 * Blocks of fewer than 8 iterations are not worth it: then every
 * iteration steps (put_slot_steps).
 */
static void put_compute_loop(text *t, const gen *g, const node_plan *np)
{
    const hd_loop *l = np->loop;
    body_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    bool any = false;
    int inner = 0;
    if (np->affine_home && np->nslots <= 64) {
        loop_shape sh = shape_of(&np->own.null);
        inner = sh.inner;
        for (int q = 0; q < np->nslots; q++) {
            if (!slot_read_in_body(np, q))
                continue;
            any = true;
            const slot_group *sg = &np->slots[q];
            const hd_ref *ref = &l->refs[sg->ref];
            hd_affine from = owner_map_of(g, ref), off = offset_map_of(g, ref);
            hd_affine slot = slot_map_of(sg);
            int c;
            int run = run_of(&from, &np->own.null, inner, &c);
            inner = c < 0 ? run : 0;   /* the owner must stay put */
            inner = run_of(&off, &np->own.null, inner, &ctx.s[q].c_off);
            inner = run_of(&slot, &np->own.null, inner, &ctx.s[q].c_slot);
        }
        if (inner < 3)
            inner = 0;
        for (int q = 0; inner && q < np->nslots; q++) {
            if (!slot_read_in_body(np, q))
                continue;
            const slot_group *sg = &np->slots[q];
            const hd_ref *ref = &l->refs[sg->ref];
            hd_affine off = offset_map_of(g, ref), slot = slot_map_of(sg);
            int c;
            run_of(&off, &np->own.null, inner, &ctx.s[q].c_off);
            run_of(&slot, &np->own.null, inner, &c);
            ctx.s[q].c_slot = c;
            /* A family's constant is known only at run time: XOR, which
             * holds whatever it is. */
            ctx.s[q].plus_off = ctx.s[q].c_off >= 0 && !sg->family &&
                                block_bits_free(&off, &np->own, &np->own.null, inner, ctx.s[q].c_off);
            ctx.s[q].plus_slot = ctx.s[q].c_slot >= 0 && !sg->family &&
                                 block_bits_free(&slot, &np->own, &np->own.null, inner, ctx.s[q].c_slot);
        }
    }
    if (np->affine_home && np->own.null.dim == 0) {
        /* One iteration at most: no loop. */
        for (int q = 0; q < np->nslots; q++)
            if (slot_read_in_body(np, q))
                put_slot_state(t, g, np, q, NULL);
        putf(t, "\n    /* My iteration (one at most). */\n    if (hd_mine) {\n"
                "        const %s %s = (%s)hd_i0;\n        const hd_index hd_t = 0;\n"
                "        HD_VISIT(%s);\n        (void)hd_t;\n",
             l->var_type, l->var, l->var_type, l->var);
        put_stream_fetch(t, g, np, "        ");
        put_body(t, g, np, "        ", any ? &ctx : NULL);
        put(t, "    }\n");
        return;
    }
    if (!any || !inner) {
        for (int q = 0; q < np->nslots; q++)
            if (slot_read_in_body(np, q))
                put_slot_state(t, g, np, q, NULL);
        put(t, "\n    /* My iterations, in order. */\n");
        const char *in = open_my_loop(t, g, np);
        put_unused_t(t, in);
        put_slot_steps(t, np, in);
        put_stream_fetch(t, g, np, in);
        put_body(t, g, np, in, any ? &ctx : NULL);
        close_coset_loop(t);
        return;
    }
    ctx.inner = inner;
    /* Steps from one block to the next: over the basis vectors after the
     * block's. */
    hd_space outer = hd_space_zero(np->own.null.k);
    for (int v = inner; v < np->own.null.dim; v++)
        outer.v[outer.dim++] = np->own.null.v[v];
    hd_affine ident = hd_affine_identity(l->k);
    if (outer.dim)
        put_q_steps(t, "hd_block_steps", &ident, &outer);
    for (int q = 0; q < np->nslots; q++)
        if (slot_read_in_body(np, q))
            put_slot_state(t, g, np, q, &outer);
    putf(t, "\n    /* My iterations, in order: blocks of 2^%d over which every element read\n"
            "     * by an LCC stays with one owner and moves by a fixed stride. */\n"
            "    {\n        %shd_index hd_x = hd_i0;\n"
            "        for (hd_index hd_o = 0; hd_o < hd_mine >> %d; hd_o++) {\n",
         inner, outer.dim ? "" : "const ", inner);
    if (outer.dim) {
        put(t, "            if (hd_o) {\n"
            "                const int hd_c = __builtin_ctzll((unsigned long long)hd_o);\n"
            "                hd_x ^= hd_block_steps[hd_c];\n");
        for (int q = 0; q < np->nslots; q++)
            if (slot_read_in_body(np, q))
                putf(t, "                hd_from%d ^= hd_step_from%d[hd_c];\n"
                        "                hd_off%d ^= hd_step_off%d[hd_c];\n"
                        "                hd_slot%d ^= hd_step_slot%d[hd_c];\n", q, q, q, q, q, q);
        put(t, "            }\n");
    }
    loop_shape sh = shape_of(&np->own.null);
    putf(t, "            for (hd_index hd_u = 0; hd_u < %llu; hd_u++) {\n"
            "                const hd_index hd_t = (hd_o << %d) + hd_u;\n"
            "                const %s %s = (%s)(hd_x + (hd_u << %d));\n"
            "                HD_VISIT(%s);\n                (void)hd_t;\n",
         (unsigned long long)1 << inner, inner, l->var_type, l->var, l->var_type, sh.lo, l->var);
    put_stream_fetch(t, g, np, "                ");
    put_body(t, g, np, "                ", &ctx);
    put(t, "            }\n        }\n    }\n");
}

/* Round `level` of requests: for each of my iterations, where its guard
 * holds, the element of each request group of the round, asked of its
 * owner unless it is mine (~offset in the table: mine). */
static void put_request_round(text *t, const gen *g, const node_plan *np, int level)
{
    const hd_loop *l = np->loop;
    bool kept = np->on_table && np->kept[level];
    putf(t, "\n    /* Requests, round %d: the elements only my iterations can name, asked\n"
            "     * of their owners where C reads them (each element once). */\n", level);
    if (kept) {
        long long nq = 0;
        for (int q = 0; q < np->nreqs; q++)
            nq += np->reqs[q].level == level ? np->reqs[q].per : 0;
        putf(t, "    /* Kept from the last execution while the environment is the same: its\n"
                "     * indices and guards read nothing else, so the same elements are\n"
                "     * needed and only the values travel (Chung and Ranka 1990's c_kl). */\n"
                "    hd_requests *hd_q%d;\n"
                "    const int hd_again%d = hd_requests_keep(%d, %s, &hd_q%d);\n"
                "    hd_index *const hd_keys%d = hd_requests_scratch(hd_q%d, "
                "(size_t)(hd_mine ? hd_mine : 1) * %lld * sizeof(hd_index));\n",
             level, level, (int)(l - g->prog->loops) * 64 + level,
             np->env ? "hd_env->hd_same" : "1", level, level, level, nq);
        long long at = 0;
        for (int q = 0; q < np->nreqs; q++)
            if (np->reqs[q].level == level) {
                putf(t, "    hd_index *const hd_k%d = hd_keys%d + hd_mine * %lld;   /* ", q, level,
                     at);
                at += np->reqs[q].per;
                put_commented(t, l->refs[np->reqs[q].ref].text);
                put(t, " */\n");
            }
        putf(t, "    if (!hd_again%d)\n", level);
    } else {
        putf(t, "    hd_requests *const hd_q%d = hd_requests_new();\n", level);
        for (int q = 0; q < np->nreqs; q++)
            if (np->reqs[q].level == level) {
                putf(t, "    hd_index *const hd_k%d = hd_alloc(hd_mine * %lld, sizeof *hd_k%d);   /* ",
                     q, np->reqs[q].per, q);
                put_commented(t, l->refs[np->reqs[q].ref].text);
                put(t, " */\n");
            }
    }
    const char *in = open_my_loop(t, g, np);
    for (int q = 0; q < np->nreqs; q++) {
        const request_group *rq = &np->reqs[q];
        if (rq->level != level)
            continue;
        const hd_ref *ref = &l->refs[rq->ref];
        const char *outer_in = in;
        char deeper[256];
        int opened = 0;
        if (rq->vars) {
            /* Once per value of the inner loops' variables it reads, by
             * their names, as the body has them. */
            putf(t, "%s{   /* for every value of the inner loops' variables */\n", outer_in);
            for (int v = 0; v < l->ninners; v++) {
                if (!(rq->vars >> v & 1))
                    continue;
                const hd_inner *iv = &l->inners[v];
                opened++;
                putf(t, "%s%*sfor (long long hd_x%d = %lld; hd_x%d < %lld; hd_x%d++) {\n"
                        "%s%*sconst %s %s = (%s)hd_x%d;\n%s%*s(void)%s;\n",
                     outer_in, 4 * opened, "", v, (long long)iv->lo, v, (long long)iv->hi, v,
                     outer_in, 4 * opened + 4, "", iv->type, iv->name, iv->type, v,
                     outer_in, 4 * opened + 4, "", iv->name);
            }
            size_t w = strlen(outer_in);
            if (w > sizeof deeper - 80)
                w = sizeof deeper - 80;
            memcpy(deeper, outer_in, w);
            memset(deeper + w, ' ', (size_t)(4 * (opened < 16 ? opened : 16) + 4));
            deeper[w + (size_t)(4 * (opened < 16 ? opened : 16) + 4)] = 0;
            in = deeper;
        }
        putf(t, "%s", in);
        if (rq->guard >= 0) {
            put(t, "if (");
            put_guard(t, g, np, rq->guard);
            put(t, ") ");
        }
        putf(t, "{   /* ");
        put_commented(t, ref->text);
        putf(t, " */\n%s    const hd_index hd_e = ", in);
        /* The index with the references inside it rewritten. */
        text e = { 0 };
        put_flat_index(&e, g, ref, subscript_rewritten, np);
        putf(t, "hd_checked(%s, ", e.s);
        put_size(t, g, rq->array);
        put(t, ", ");
        free(e.s);
        put_where(t, g, ref);
        putf(t, ");\n%s    const int hd_from = ", in);
        put_owner(t, g, "hd_e", rq->array);
        putf(t, ";\n%s    hd_k%d[hd_t", in, q);
        if (rq->vars) {
            putf(t, " * %lld + ", rq->per);
            put_combination(t, l, rq->vars, true);
        }
        put(t, "] = hd_from == hd_me ? ~");
        put_offset(t, g, "hd_e", rq->array);
        putf(t, "\n%s                : hd_request(hd_q%d, %d, hd_from, hd_e);\n%s}\n", in, level,
             g->array_id[rq->array], in);
        if (rq->vars) {
            for (int o = opened; o >= 1; o--)
                putf(t, "%s%*s}\n", outer_in, 4 * o, "");
            putf(t, "%s}\n", outer_in);
            in = outer_in;
        }
    }
    close_coset_loop(t);
    putf(t, "    hd_requests_run(hd_q%d);\n"
            "    const void *const *const hd_v%d = hd_requests_values(hd_q%d);\n"
            "    (void)hd_v%d;   /* a round whose reads guards rule out */\n",
         level, level, level, level);
}

/* The arrays the body uses, each once, in order of first use: the
 * distributed ones, or the replicated ones. */
static int arrays_used(const gen *g, const hd_loop *l, bool distributed, int *out)
{
    int n = 0;
    for (int k = 0; k < l->nrefs; k++) {
        int a = l->refs[k].array;
        if ((g->prog->arrays[a].dist != HD_DIST_NONE) != distributed)
            continue;
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen |= out[j] == a;
        if (!seen)
            out[n++] = a;
    }
    return n;
}

/* A replicated array's declaration inside the environment, or a pointer
 * to its rows inside the node function: double w[4][8] is shipped whole
 * and read through `const double (*const w)[8]`. */
static void put_array_field(text *t, const hd_array *a)
{
    putf(t, "    %s %s", a->elem_type, a->name);
    for (int d = 0; d < a->ndims; d++)
        putf(t, "[%lld]", (long long)a->extent[d]);
    put(t, ";\n");
}

static void put_array_view(text *t, const hd_array *a)
{
    if (a->ndims == 1) {
        putf(t, "    const %s *const %s = hd_env->%s;\n", a->elem_type, a->name, a->name);
    } else {
        putf(t, "    const %s (*const %s)", a->elem_type, a->name);
        for (int d = 1; d < a->ndims; d++)
            putf(t, "[%lld]", (long long)a->extent[d]);
        putf(t, " = hd_env->%s;\n", a->name);
    }
    putf(t, "    (void)%s;\n", a->name);
}

void doall_arrays_of(const gen *g, const hd_loop *l, doall_arrays *u)
{
    u->dist = hd_xmalloc((size_t)(l->nrefs + l->nreds + 1) * sizeof *u->dist);
    u->repl = hd_xmalloc((size_t)(l->nrefs + 1) * sizeof *u->repl);
    u->ndist = arrays_used(g, l, true, u->dist);
    u->nrepl = arrays_used(g, l, false, u->repl);
    /* The arrays it reduces into: their slices take the result. */
    for (int k = 0; k < l->nreds; k++) {
        bool seen = l->reds[k].array < 0;
        for (int j = 0; j < u->ndist && !seen; j++)
            seen = u->dist[j] == l->reds[k].array;
        if (!seen)
            u->dist[u->ndist++] = l->reds[k].array;
    }
    u->env = l->nouters > 0 || u->nrepl > 0;
}

void doall_arrays_free(doall_arrays *u)
{
    free(u->dist);
    free(u->repl);
    u->dist = u->repl = NULL;
}

void put_node(text *t, gen *g, int d)
{
    const hd_program *p = g->prog;
    const hd_loop *l = &p->loops[d];
    node_plan plan;
    int errors = g->d.errors;
    if (!plan_doall(g, l, &plan) || g->d.errors != errors) {
        /* Nothing is written after an error; a system without solution
         * is a bug. */
        if (g->d.errors == errors)
            hd_report_input(&g->d, "internal error: the node code could not be planned");
        plan_free(&plan);
        return;
    }
    warn_unwritten_collectives(g, &plan);
    doall_arrays u;
    doall_arrays_of(g, l, &u);
    plan.env = u.env;
    for (int level = 1; level <= plan.levels; level++)
        g->keeps[d] |= plan.on_table && plan.kept[level] && u.env;
    const node_plan *np = &plan;
    const hd_ref *home = &l->refs[l->home];

    put(t, "/* hyperdo: the node program of the doall at ");
    put_commented(t, p->path);
    putf(t, ":%d (Hou et al. 2001, Fig. 1d).\n * Every processor runs the iterations whose ", l->line);
    put_commented(t, home->text);
    put(t, " it holds (owner computes). */\n");
    if (u.env) {
        putf(t, "struct hd_env_%d {\n", g->loop_base + d);
        for (int k = 0; k < l->nouters; k++)
            putf(t, "    %s %s;\n", l->outers[k].type, l->outers[k].name);
        for (int k = 0; k < u.nrepl; k++)
            put_array_field(t, &p->arrays[u.repl[k]]);
        if (g->keeps[d])
            put(t, "    int hd_same;   /* the rest is as it was at the last execution */\n");
        put(t, "};\n\n");
    }
    for (int s = 0; s < np->nslots; s++)
        if (slot_read_in_requests(np, s))
            put_slot_reader(t, g, np, d, s);
    put_reduction_results(t, l, d);
    /* In a program of several files the table of node functions is in the
     * file with main: a node function of another file is not static. */
    putf(t, "%svoid hd_node_%d(const void *hd_arg)\n{\n", g->files ? "" : "static ",
         g->loop_base + d);
    if (u.env) {
        putf(t, "    const struct hd_env_%d *hd_env = hd_arg;\n", g->loop_base + d);
        for (int k = 0; k < l->nouters; k++)
            putf(t, "    const %s %s = hd_env->%s;\n    (void)%s;\n", l->outers[k].type,
                 l->outers[k].name, l->outers[k].name, l->outers[k].name);
        for (int k = 0; k < u.nrepl; k++)
            put_array_view(t, &p->arrays[u.repl[k]]);
    } else {
        put(t, "    (void)hd_arg;\n");
    }
    putf(t, "    const int hd_me = %sget_pid();\n", g->v);
    put_reduction_copies(t, g, l);
    for (int k = 0; k < u.ndist; k++)
        /* (void): a reference the guards rule out everywhere leaves its
         * array unread. */
        putf(t, "    %s *const hd_l_%s = hd_local(%d);\n    (void)hd_l_%s;\n",
             elem(g, u.dist[k]), p->arrays[u.dist[k]].name, g->array_id[u.dist[k]],
             p->arrays[u.dist[k]].name);
    put_mine(t, g, np);
    /* Whole copies first: a request's guard or index may read them. */
    put_wholes(t, g, np, true);
    if (np->nslots)
        put_slot_groups(t, g, np);
    if (np->nstreams)
        put_streams(t, g, np);
    for (int level = 1; level <= np->levels; level++)
        put_request_round(t, g, np, level);

    put_compute_loop(t, g, np);
    put_wholes(t, g, np, false);
    put_reduction_combine(t, g, l, d);
    for (int q = 0; q < np->nreqs; q++)
        if (!(np->on_table && np->kept[np->reqs[q].level]))
            putf(t, "    free(hd_k%d);\n", q);
    for (int level = 1; level <= np->levels; level++)
        if (!(np->on_table && np->kept[level]))
            putf(t, "    hd_requests_free(hd_q%d);\n", level);
    if (np->nslots)
        put(t, "    hd_exchange_free(hd_msgs);\n");
    if (np->permutation)
        put(t, "    free(hd_self0);\n");
    for (int q = 0; q < np->nstreams; q++)
        putf(t, "    free(hd_cnt%d);\n", q);
    if (np->nstreams)
        put(t, "    hd_exchange_free(hd_stream);\n");
    put(t, "}\n\n");
    doall_arrays_free(&u);
    plan_free(&plan);
}
