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
 */
#include "codegen_internal.h"

#include <stdio.h>
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
        if (l->reds[k].local_type)
            error_at(g, l->begin, "'%s' (line %d) is a reduction of this doall but its "
                     "type '%s' is declared inside a function: the processors' code is at "
                     "file scope and cannot name it; declare the type at file scope",
                     l->reds[k].name, l->reds[k].line, l->reds[k].type);
}

void put_reduction_results(text *t, const hd_loop *l, int d)
{
    if (!l->nreds)
        return;
    put(t, "/* The reductions' values, combined over all processors: written by\n"
           " * physical processor 0 (the host, inside hd_doall), read by the host. */\n");
    for (int k = 0; k < l->nreds; k++)
        putf(t, "static %s hd_red_%d_%d;   /* %s, reduction(%s) */\n", l->reds[k].type, d, k,
             l->reds[k].name, hd_red_op_text(l->reds[k].op));
    put(t, "\n");
}

void put_reduction_copies(text *t, const hd_loop *l)
{
    for (int k = 0; k < l->nreds; k++) {
        const hd_reduction *r = &l->reds[k];
        putf(t, "    %s %s = ", r->type, r->name);
        put_identity(t, r);
        putf(t, ";   /* my part of the reduction(%s) */\n", hd_red_op_text(r->op));
    }
}

void put_reduction_combine(text *t, const hd_loop *l, int d)
{
    if (!l->nreds)
        return;
    put(t, "    /* The reductions: every processor's part combined (Stout and Wagar\n"
           "     * 1990's HISTOGRAM, then COMPLETE BROADCAST); the host keeps it. */\n");
    for (int k = 0; k < l->nreds; k++) {
        const hd_reduction *r = &l->reds[k];
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
        static const char *const op[] = { "+", "*", "", "", "&", "|", "^" };
        if (r->op == HD_RED_MIN || r->op == HD_RED_MAX)
            putf(t, "        %s = hd_red_%d_%d %s %s ? hd_red_%d_%d : %s;\n", r->name, d, k,
                 r->op == HD_RED_MIN ? "<" : ">", r->name, d, k, r->name);
        else
            putf(t, "        %s = %s %s hd_red_%d_%d;\n", r->name, r->name, op[r->op], d, k);
    }
}
