/*
 * stages.c — an LCC family read once per stage (docs/annotations.md,
 * "Stage loops").  A read such as x[i ^ (1 << s)] inside a sequential
 * `for (s = 0; s < LOGN; s++)` is an LCC family: A is known when
 * translating, b only when the doall runs (docs/layouts.md, "Parametric
 * indices"), and taken alone it is priced at the worst b.  When every
 * outer variable its index reads is the variable of a stage loop around
 * the doall whose values the front end knows (hd_loop.stages), each
 * value gives the index's b, so each stage is one LCC with its own b,
 * classified and priced as any other, and Section 5's dynamic program
 * (Hou et al. 2001) chooses the program's one mapping for all of them:
 * the FFT's stages of Section 6.2 seen as the communications they are
 * (the first and last d stages local, the n others neighbour exchanges).
 *
 * The index at a value is the family's A i with b its value at i = 0, each
 * subscript computed by the same evaluator as every index (hd_expr_eval)
 * with the variables' values in place of the unknowns.  The family's
 * reading guarantees that i moves no bit beyond a subscript's extent
 * (owners.c, family_of), so a subscript inside its extent at i = 0 is
 * inside at every i; a value where one is outside (or undefined in C) is
 * one at which the doall cannot run (the node code checks b and stops),
 * and it is left out of the set, which the report says.  The node code
 * is unchanged: it computes b each time the doall runs, correct for every
 * value.
 */
#include "analysis.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The variables the index names (hd_expr.decl marks; 0 for a member of
 * an outer structure), and for the note the name of one that is none of
 * the stage loops'. */
typedef struct {
    unsigned mark[HD_STAGE_MAX_VALUES];
    int n;
    bool other;             /* an unknown that is no variable named directly */
    const char *other_reason;
} unknowns;

/* The value derived from the stage variables that mark names, or NULL. */
static const hd_stage_value *derived_of(const hd_loop *l, unsigned mark)
{
    for (int k = 0; k < l->nderived; k++)
        if (l->derived[k].decl == mark)
            return &l->derived[k];
    return NULL;
}

static void collect(const hd_loop *l, const hd_expr *e, unknowns *u)
{
    if (!e)
        return;
    const hd_stage_value *d = e->kind == HD_EX_OPAQUE && e->invariant && e->decl
                                  ? derived_of(l, e->decl) : NULL;
    if (d && d->value) {
        /* A value derived from stage variables reads theirs. */
        collect(l, d->value, u);
        return;
    }
    if (e->kind == HD_EX_OPAQUE && e->invariant) {
        bool seen = false;
        for (int k = 0; k < u->n; k++)
            seen = seen || u->mark[k] == e->decl;
        if (!e->decl) {
            u->other = true;
            if (!u->other_reason)
                u->other_reason = e->reason;
        } else if (!seen && u->n < HD_STAGE_MAX_VALUES) {
            u->mark[u->n++] = e->decl;
        }
    }
    for (int k = 0; k < e->nkids; k++)
        collect(l, e->kid[k], u);
}

/* The name an unknown's reason quotes ("the index depends on 'p.s', ..."). */
static void quoted_name(const char *reason, char *out, size_t size)
{
    const char *a = reason ? strchr(reason, '\'') : NULL;
    const char *b = a ? strchr(a + 1, '\'') : NULL;
    if (!a || !b || (size_t)(b - a) >= size) {
        snprintf(out, size, "an outer value");
        return;
    }
    snprintf(out, size, "'%.*s'", (int)(b - a - 1), a + 1);
}

/* The name of the variable marked `mark` among e's unknowns. */
static bool name_of_mark(const hd_expr *e, unsigned mark, char *out, size_t size)
{
    if (!e)
        return false;
    if (e->kind == HD_EX_OPAQUE && e->invariant && e->decl == mark) {
        quoted_name(e->reason, out, size);
        return true;
    }
    for (int k = 0; k < e->nkids; k++)
        if (name_of_mark(e->kid[k], mark, out, size))
            return true;
    return false;
}

/* The name of a stage variable, for a note. */
static bool name_of_stage(const hd_loop *l, unsigned mark, char *out, size_t size)
{
    for (int k = 0; k < l->nstages; k++)
        if (l->stages[k].decl == mark) {
            snprintf(out, size, "'%s'", l->stages[k].var);
            return true;
        }
    return false;
}

/* v in a C integer type of `bits` bits, held in 64 bits as hd_expr holds
 * its values (sign- or zero-extended). */
static uint64_t in_type(long long v, int bits, bool sg)
{
    uint64_t u = (uint64_t)v;
    if (bits >= 64)
        return u;
    u &= (UINT64_C(1) << bits) - 1;
    if (sg && ((u >> (bits - 1)) & 1))
        u |= ~((UINT64_C(1) << bits) - 1);
    return u;
}

/* A copy of e with each unknown marked mark[k] replaced by value[k], and
 * each derived value by its initializer, itself so replaced. */
static hd_expr *bound_copy(const hd_loop *l, const hd_expr *e, const unsigned *mark,
                           const long long *value, int n)
{
    if (!e)
        return NULL;
    if (e->kind == HD_EX_OPAQUE && e->invariant && e->decl) {
        for (int k = 0; k < n; k++)
            if (mark[k] == e->decl) {
                hd_expr *c = hd_expr_new(HD_EX_CONST, e->bits, e->is_signed);
                c->value = in_type(value[k], e->bits, e->is_signed);
                return c;
            }
        const hd_stage_value *d = derived_of(l, e->decl);
        if (d && d->value)
            return bound_copy(l, d->value, mark, value, n);
    }
    hd_expr *c = hd_expr_copy_node(e);
    c->nkids = e->nkids;
    for (int k = 0; k < e->nkids; k++)
        c->kid[k] = bound_copy(l, e->kid[k], mark, value, n);
    return c;
}

/* The flattened index at i = 0 with the variables at these values: false
 * when a subscript is outside its extent or undefined there. */
static bool index_at(const hd_loop *l, const hd_array *a, const hd_ref *ref,
                     const unsigned *mark, const long long *value, int n, uint64_t *flat)
{
    char why[64];
    *flat = 0;
    for (int d = 0; d < ref->nsubs; d++) {
        hd_expr *sub = bound_copy(l, ref->subs[d].expr, mark, value, n);
        uint64_t v;
        bool ok = sub && hd_expr_eval(sub, 0, &v, why, sizeof why);
        hd_expr_free(sub);
        /* Values are held extended: a negative one is huge here. */
        if (!ok || v >= (uint64_t)a->extent[d])
            return false;
        int w = __builtin_ctzll((unsigned long long)a->extent[d]);
        *flat = (*flat << w) | v;
    }
    return true;
}

/* The note of a family that is not read per value. */
__attribute__((format(printf, 3, 4)))
static void note(hd_analysis *a, hd_ref_analysis *res, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    res->stage_note = hd_analysis_keep_reason(a, buf);
}

void hd_read_stages(const hd_program *p, hd_analysis *a, const hd_loop *l, const hd_ref *ref,
                    const hd_layout *lay, const hd_affine *dst)
{
    hd_ref_analysis *res = &a->refs[ref->id];
    const hd_array *arr = &p->arrays[ref->array];
    unknowns u = { .n = 0 };
    collect(l, ref->index, &u);
    char name[128];
    if (u.other) {
        quoted_name(u.other_reason, name, sizeof name);
        note(a, res, "not read per stage: %s is no variable of a for loop around the doall "
             "(docs/annotations.md, \"Stage loops\")", name);
        return;
    }
    if (u.n == 0)
        return;
    /* Each unknown must be the variable of a stage loop with known values. */
    int var[HD_STAGE_MAX_VALUES];
    long long combos = 1;
    for (int k = 0; k < u.n; k++) {
        var[k] = -1;
        for (int j = 0; j < l->nstages; j++)
            if (l->stages[j].decl == u.mark[k])
                var[k] = j;
        if (!name_of_mark(ref->index, u.mark[k], name, sizeof name) &&
            !name_of_stage(l, u.mark[k], name, sizeof name))
            snprintf(name, sizeof name, "an outer variable");
        if (var[k] < 0) {
            const hd_stage_value *d = derived_of(l, u.mark[k]);
            if (d && d->refused)
                note(a, res, "not read per stage: %s (line %d) is no value known at each "
                     "stage: %s", name, d->line, d->refused);
            else
                note(a, res, "not read per stage: %s is neither the variable of a for loop "
                     "around the doall nor a value set from such variables "
                     "(docs/annotations.md, \"Stage loops\")", name);
            return;
        }
        const hd_stage_loop *s = &l->stages[var[k]];
        if (s->refused) {
            note(a, res, "not read per stage: the loop on line %d over %s is no stage loop: "
                 "%s", s->line, name, s->refused);
            return;
        }
        combos *= s->nvalues;
        if (combos > HD_STAGE_MAX_VALUES) {
            note(a, res, "not read per stage: its stage loops give more than %d values "
                 "together (HD_STAGE_MAX_VALUES)", HD_STAGE_MAX_VALUES);
            return;
        }
    }
    /* The variables in the loops' order, outermost first, so that the
     * values run as the loops do. */
    for (int x = 1; x < u.n; x++)
        for (int y = x; y > 0 && var[y - 1] > var[y]; y--) {
            int t = var[y];
            var[y] = var[y - 1];
            var[y - 1] = t;
            unsigned m = u.mark[y];
            u.mark[y] = u.mark[y - 1];
            u.mark[y - 1] = m;
        }
    int nv = u.n, m = (int)combos;
    int *stage_var = hd_arena_alloc(&a->store, (size_t)nv * sizeof *stage_var);
    for (int k = 0; k < nv; k++)
        stage_var[k] = var[k];
    long long *values = hd_arena_alloc(&a->store, (size_t)(m ? m : 1) * (size_t)nv * sizeof *values);
    hd_ref_stage *stages = hd_arena_alloc(&a->store, (size_t)(m ? m : 1) * sizeof *stages);
    int at[HD_STAGE_MAX_VALUES] = { 0 };
    for (int c = 0; c < m; c++) {
        long long *v = &values[(size_t)c * (size_t)nv];
        for (int k = 0; k < nv; k++)
            v[k] = l->stages[var[k]].values[at[k]];
        /* The next combination: the innermost loop fastest. */
        for (int k = nv - 1; k >= 0; k--) {
            if (++at[k] < l->stages[var[k]].nvalues)
                break;
            at[k] = 0;
        }
        hd_ref_stage *st = &stages[c];
        memset(st, 0, sizeof *st);
        st->value = v;
        uint64_t flat;
        if (!index_at(l, arr, ref, u.mark, v, nv, &flat)) {
            st->outside = true;
            st->comm.kind = HD_COMM_LOCAL;
            continue;
        }
        hd_affine index = *res->family;
        index.c = flat;
        hd_affine src = hd_affine_compose(&lay->owner, &index, lay->n);
        hd_lcc lcc = { .A = hd_matrix_zero(p->n) };
        st->comm = hd_comm_from_owners(p->n, &src, dst, &lcc);
        if (st->comm.kind == HD_COMM_LCC)
            st->comm.lcc = hd_analysis_keep_lcc(a, &lcc);
        else if (st->comm.kind == HD_COMM_GENERAL)
            st->comm.reason = hd_analysis_keep_reason(a, st->comm.reason);
    }
    res->nstage_vars = nv;
    res->stage_var = stage_var;
    res->nstages = m;
    res->stages = stages;
}
