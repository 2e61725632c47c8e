/*
 * reductions.c — the code of a doall's reductions (docs/annotations.md,
 * "Reductions"; the front end's reductions.c says which statements are
 * ones).  In the node function each reduction variable s is a private
 * copy of the same name, so that the body's text `s += e` stays as it is:
 * it starts at the operator's identity and collects the processor's own
 * iterations, in their increasing order.  After the loop every processor
 * calls hd_coll_allreduce (runtime/include/hyperdo/coll.h: Stout and
 * Wagar 1990's HISTOGRAM, then COMPLETE BROADCAST), and physical
 * processor 0 stores the combined value in a static of the generated
 * file.  The host reads it once hd_doall returns and sets s = s op it.
 *
 * Why a static and not the environment: physical processor 0 is the
 * host, and runs its part of the doall inside hd_doall, in the host's
 * own thread (threads and sim back ends) or MPI rank 0, so the host's
 * static is the one it writes, and it has written it when hd_doall
 * returns; no other processor writes it (on MPI the others' copies are
 * their own).  The environment is a copy made before the loop, which
 * could carry the host variable's address but not bring a value back
 * on its own.
 *
 * A reduction into the elements of a distributed array h (h[key[i]] +=
 * 1) needs no static: each processor keeps a private copy of the whole
 * of h, hd_p_h, at the identity, and the body's h[e] (every site the
 * front end recorded) is rewritten to hd_p_h[e], e checked at run time
 * since it may depend on data.  After the loop the copies are combined
 * and each processor combines the result into its own slice of h, which
 * holds h's values from before the loop (the host sends them, as for any
 * array a doall reads) and is where the host finds h afterwards (as for
 * any array a doall writes).  When h's layout gives virtual processor v
 * the contiguous block v of h (block, or one element a processor), the
 * private copy is already ordered by owner, and Stout and Wagar 1990's
 * HISTOGRAM (Section 8, hd_coll_reduce_scatter) brings each processor
 * exactly its block; any other layout takes the whole combination
 * (hd_coll_allreduce: HISTOGRAM, then COMPLETE BROADCAST) and picks its
 * own elements from it.
 */
#include "codegen_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value op leaves unchanged, in s's type. */
static void put_identity(text *t, const hd_reduction *r)
{
    static const char *const int_max[] = {
        "INT8_MAX", "INT16_MAX", "INT32_MAX", "INT64_MAX",
        "UINT8_MAX", "UINT16_MAX", "UINT32_MAX", "UINT64_MAX",
    };
    static const char *const int_min[] = {
        "INT8_MIN", "INT16_MIN", "INT32_MIN", "INT64_MIN", "0", "0", "0", "0",
    };
    /* GCC's and Clang's infinities: <math.h>'s INFINITY would bring the
     * header's names into a program that may use them for its own. */
    static const char *const inf[] = { "__builtin_inff()", "__builtin_inf()",
                                       "__builtin_infl()" };
    bool integer = hd_red_type_integer(r->kind);
    switch (r->op) {
    case HD_RED_PROD:
        put(t, "1");
        return;
    case HD_RED_BAND:
        putf(t, "(%s)~(%s)0", r->type, r->type);
        return;
    case HD_RED_MIN:
        if (integer)
            put(t, int_max[r->kind]);
        else
            put(t, inf[r->kind - HD_RED_FLOAT]);
        return;
    case HD_RED_MAX:
        if (integer)
            put(t, int_min[r->kind]);
        else
            putf(t, "-%s", inf[r->kind - HD_RED_FLOAT]);
        return;
    default:
        put(t, "0");
        return;
    }
}

bool reductions_used(const hd_program *p)
{
    for (int d = 0; d < p->nloops; d++)
        if (p->loops[d].nreds)
            return true;
    return false;
}

void check_loop_reductions(gen *g, const hd_loop *l)
{
    for (int k = 0; k < l->nreds; k++)
        if (l->reds[k].local_type && l->reds[k].array >= 0)
            error_at(g, l->begin, "'%s' (line %d) is an array this doall reduces into but "
                     "the type of its elements '%s' is declared inside a function: the "
                     "processors' code is at file scope and cannot name it; declare the "
                     "type at file scope", l->reds[k].name, l->reds[k].line, l->reds[k].type);
        else if (l->reds[k].local_type)
            error_at(g, l->begin, "'%s' (line %d) is a reduction of this doall but its "
                     "type '%s' is declared inside a function: the processors' code is at "
                     "file scope and cannot name it; declare the type at file scope",
                     l->reds[k].name, l->reds[k].line, l->reds[k].type);
    for (int s = 0; s < l->nsites; s++)
        if (l->sites[s].in_macro)
            error_at(g, l->sites[s].begin, "'%s' is an array this doall reduces into, and "
                     "this element of it comes from a macro: the translator rewrites each "
                     "one in the text, so write it out", l->reds[l->sites[s].red].name);
}

/* The operator applied to x and y, as C (a value of the reduction's
 * type: C's usual conversions give x op y a wider type, which the
 * assignment it goes into converts back, as the sequential statement's
 * does). */
static void put_op(text *t, const hd_reduction *r, const char *x, const char *y)
{
    static const char *const op[] = { "+", "*", "", "", "&", "|", "^" };
    if (r->op == HD_RED_MIN || r->op == HD_RED_MAX)
        putf(t, "%s %s %s ? %s : %s", y, r->op == HD_RED_MIN ? "<" : ">", x, y, x);
    else
        putf(t, "%s %s %s", x, op[r->op], y);
}

void put_reduction_results(text *t, const hd_loop *l, int d)
{
    int scalars = 0;
    for (int k = 0; k < l->nreds; k++)
        scalars += l->reds[k].array < 0;
    if (!scalars)
        return;
    put(t, "/* The reductions' values, combined over all processors: written by\n"
           " * physical processor 0 (the host, inside hd_doall), read by the host. */\n");
    for (int k = 0; k < l->nreds; k++)
        if (l->reds[k].array < 0)
            putf(t, "static %s hd_red_%d_%d;   /* %s, reduction(%s) */\n", l->reds[k].type, d,
                 k, l->reds[k].name, hd_red_op_text(l->reds[k].op));
    put(t, "\n");
}

void put_reduction_copies(text *t, const gen *g, const hd_loop *l)
{
    for (int k = 0; k < l->nreds; k++) {
        const hd_reduction *r = &l->reds[k];
        if (r->array >= 0) {
            int m = g->prog->arrays[r->array].log2_size;
            putf(t, "    /* My part of the reduction(%s) into %s: a private copy of the "
                    "whole array. */\n", hd_red_op_text(r->op), r->name);
            putf(t, "    %s *const hd_p_%s = hd_alloc((hd_index)1 << %d, sizeof *hd_p_%s);\n",
                 r->type, r->name, m, r->name);
            putf(t, "    for (hd_index hd_j = 0; hd_j < (hd_index)1 << %d; hd_j++)\n"
                    "        hd_p_%s[hd_j] = ", m, r->name);
            put_identity(t, r);
            put(t, ";\n");
            continue;
        }
        putf(t, "    %s %s = ", r->type, r->name);
        put_identity(t, r);
        putf(t, ";   /* my part of the reduction(%s) */\n", hd_red_op_text(r->op));
    }
}

/* Does virtual processor v hold the contiguous block v of array a (its
 * owner the top n bits of an element's index, its offset the others in
 * order), as HISTOGRAM's result blocks are laid out? */
static bool owner_blocks(const gen *g, int a)
{
    const hd_layout *lay = &g->layout[a];
    return lay->shift >= 0 && lay->shift == lay->bits - lay->n;
}

/* After the loop: the private copies of array reduction r combined, and
 * the result combined into my slice of the array. */
static void put_array_combine(text *t, const gen *g, const hd_reduction *r)
{
    const hd_array *a = &g->prog->arrays[r->array];
    int m = a->log2_size, n = g->prog->n;
    char x[300], y[300];
    snprintf(x, sizeof x, "hd_l_%s[hd_j]", r->name);
    if (owner_blocks(g, r->array)) {
        putf(t, "    {   /* %s: block v of every processor's copy, combined, to virtual "
                "processor v (Stout\n"
                "         * and Wagar 1990, Section 8: HISTOGRAM), then into my elements. */\n",
             r->name);
        putf(t, "        %s *const hd_got = hd_alloc((hd_index)1 << %d, sizeof *hd_got);\n",
             r->type, m - n);
        putf(t, "        hd_coll_reduce_scatter(hd_p_%s, hd_got, (size_t)1 << %d, %s, %s);\n",
             r->name, m - n, hd_red_type_coll(r->kind), hd_red_op_coll(r->op));
        snprintf(y, sizeof y, "hd_got[hd_j]");
    } else {
        putf(t, "    {   /* %s: every processor's copy combined (Stout and Wagar 1990: "
                "HISTOGRAM, then\n"
                "         * COMPLETE BROADCAST); my elements are not one block of it. */\n",
             r->name);
        putf(t, "        %s *const hd_got = hd_alloc((hd_index)1 << %d, sizeof *hd_got);\n",
             r->type, m);
        putf(t, "        hd_coll_allreduce(hd_p_%s, hd_got, (size_t)1 << %d, %s, %s);\n",
             r->name, m, hd_red_type_coll(r->kind), hd_red_op_coll(r->op));
        text e = { 0 };
        put_element_index(&e, g, "hd_j", "hd_me", r->array);
        snprintf(y, sizeof y, "hd_got[%s]", e.s);
        free(e.s);
    }
    putf(t, "        for (hd_index hd_j = 0; hd_j < (hd_index)1 << %d; hd_j++)\n"
            "            %s = ", m - n, x);
    put_op(t, r, x, y);
    put(t, ";\n        free(hd_got);\n    }\n");
    putf(t, "    free(hd_p_%s);\n", r->name);
}

void put_reduction_combine(text *t, const gen *g, const hd_loop *l, int d)
{
    int scalars = 0;
    for (int k = 0; k < l->nreds; k++)
        if (l->reds[k].array >= 0)
            put_array_combine(t, g, &l->reds[k]);
        else
            scalars++;
    if (!scalars)
        return;
    put(t, "    /* The reductions: every processor's part combined (Stout and Wagar\n"
           "     * 1990's HISTOGRAM, then COMPLETE BROADCAST); the host keeps it. */\n");
    for (int k = 0; k < l->nreds; k++) {
        const hd_reduction *r = &l->reds[k];
        if (r->array >= 0)
            continue;
        putf(t, "    {\n        %s hd_all;\n"
                "        hd_coll_allreduce(&%s, &hd_all, 1, %s, %s);\n"
                "        if (hd_get_pid() == 0)\n            hd_red_%d_%d = hd_all;\n    }\n",
             r->type, r->name, hd_red_type_coll(r->kind), hd_red_op_coll(r->op), d, k);
    }
}

void put_reduction_host(text *t, const hd_loop *l, int d)
{
    for (int k = 0; k < l->nreds; k++) {
        const hd_reduction *r = &l->reds[k];
        char x[64];
        if (r->array >= 0)
            continue;   /* its result is in the array's slices */
        snprintf(x, sizeof x, "hd_red_%d_%d", d, k);
        putf(t, "        %s = ", r->name);
        put_op(t, r, r->name, x);
        put(t, ";\n");
    }
}
