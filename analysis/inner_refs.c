/*
 * inner_refs.c — references of a doall body whose index reads the
 * variable of an inner loop with known values (hd_inner: `for (int k =
 * lo; k < hi; k++)` inside the body, docs/annotations.md "Statements").
 * Each is checked over every iteration i (where its guard may hold) and
 * every value of those variables: its bounds, where its element lives,
 * and for a write that its owner is the iteration's and that no other
 * iteration writes the same element.  Such a read is local when its
 * element always lives with the iteration (a row of a[i][k] beside
 * c[i]); otherwise general: the element changes within the iteration,
 * so the node code gathers the array whole (docs/codegen.md).  Also the
 * headers of the body's loops, which may not read distributed data.
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t hd_inner_mask(const hd_expr *e)
{
    if (!e)
        return 0;
    if (e->kind == HD_EX_OPAQUE)
        return e->var > 0 ? UINT32_C(1) << (e->var - 1) : 0;
    uint32_t m = 0;
    for (int k = 0; k < e->nkids; k++)
        m |= hd_inner_mask(e->kid[k]);
    return m;
}

void hd_inner_first(const hd_loop *l, int64_t *vals)
{
    for (int v = 0; v < l->ninners; v++)
        vals[v] = l->inners[v].lo;
}

bool hd_inner_next(const hd_loop *l, uint32_t mask, int64_t *vals)
{
    for (int v = 0; v < l->ninners; v++) {
        if (!(mask >> v & 1))
            continue;
        if (++vals[v] < l->inners[v].hi)
            return true;
        vals[v] = l->inners[v].lo;
    }
    return false;
}

static void values_text(const hd_loop *l, uint32_t mask, const int64_t *vals, char *buf,
                        size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int v = 0; v < l->ninners && at < size; v++)
        if (mask >> v & 1)
            at += (size_t)snprintf(buf + at, size - at, ", %s = %lld", l->inners[v].name,
                                   (long long)vals[v]);
}

/* The first inner loop ref reads, for the reason a read is general. */
static const hd_inner *first_inner(const hd_loop *l, uint32_t mask)
{
    for (int v = 0; v < l->ninners; v++)
        if (mask >> v & 1)
            return &l->inners[v];
    return NULL;
}

/*
 * A read whose index is GF(2)-affine in i for each value of the inner
 * variables it reads (b[k][j], a[(i >> 4) * 16 + k]) is a family of LCCs
 * over those values: each value one LCC, classified, priced and mapped
 * with the program's others (Section 5's set), as a stage loop's are
 * (analysis/stages.c), its entries named "b[k][j] at k = 3, j = 5".  The
 * node code still reads such a family from the array's whole copy: its
 * elements change within an iteration, and one exchange per value is not
 * made (docs/annotations.md, "Statements").  Values whose index leaves
 * the array somewhere are left out, which the note says.
 */
static void read_per_value(const hd_program *p, const hd_loop *l, const hd_ref *ref,
                           const hd_layout *lay, const hd_affine *dst, uint32_t mask,
                           hd_ref_analysis *res, hd_analysis *results)
{
    const hd_array *a = &p->arrays[ref->array];
    int var[HD_MAX_INNERS], nv = 0;
    long long combos = 1;
    for (int v = 0; v < l->ninners; v++)
        if (mask >> v & 1) {
            var[nv++] = v;
            combos *= l->inners[v].hi - l->inners[v].lo;
            if (combos > HD_STAGE_MAX_VALUES)
                return;
        }
    if (!nv || combos < 1 || ref->index_plain)
        return;
    int m = (int)combos;
    int *stage_var = hd_arena_alloc(&results->store, (size_t)nv * sizeof *stage_var);
    for (int k = 0; k < nv; k++)
        stage_var[k] = -1 - var[k];   /* an inner loop's (analysis.h) */
    long long *values = hd_arena_alloc(&results->store, (size_t)m * (size_t)nv * sizeof *values);
    hd_ref_stage *stages = hd_arena_alloc(&results->store, (size_t)m * sizeof *stages);
    int64_t vals[HD_MAX_INNERS];
    hd_inner_first(l, vals);
    char why[256];
    for (int c = 0; c < m; c++) {
        hd_ref_stage *st = &stages[c];
        memset(st, 0, sizeof *st);
        st->value = &values[(size_t)c * (size_t)nv];
        for (int k = 0; k < nv; k++)
            values[(size_t)c * (size_t)nv + (size_t)k] = vals[var[k]];
        hd_expr *bound = hd_expr_bind_vars(ref->index, vals);
        hd_affine map;
        bool affine = hd_expr_affine(bound, l->k, &map, why, sizeof why);
        for (int s = 1; affine && s < ref->nsubs; s++) {
            hd_expr *sub = hd_expr_bind_vars(ref->subs[s].expr, vals);
            hd_affine sm;
            int w = __builtin_ctzll((unsigned long long)a->extent[s]);
            affine = hd_expr_affine(sub, l->k, &sm, why, sizeof why);
            st->outside |= affine && (~hd_affine_zero_bits(&sm) & ~hd_mask(w));
            hd_expr_free(sub);
        }
        hd_expr_free(bound);
        if (!affine)
            return;   /* some value is no LCC: the read stays one general read */
        st->outside |= (~hd_affine_zero_bits(&map) & ~hd_mask(a->log2_size)) != 0;
        if (st->outside) {
            st->comm.kind = HD_COMM_LOCAL;
        } else {
            hd_affine src = hd_affine_compose(&lay->owner, &map, lay->n);
            hd_lcc lcc = { .A = hd_matrix_zero(p->n) };
            st->comm = hd_comm_from_owners(p->n, &src, dst, &lcc);
            if (st->comm.kind == HD_COMM_LCC)
                st->comm.lcc = hd_analysis_keep_lcc(results, &lcc);
            else if (st->comm.kind == HD_COMM_GENERAL)
                st->comm.reason = hd_analysis_keep_reason(results, st->comm.reason);
        }
        hd_inner_next(l, mask, vals);
    }
    res->nstage_vars = nv;
    res->stage_var = stage_var;
    res->nstages = m;
    res->stages = stages;
    char note[256];
    snprintf(note, sizeof note, "The node code reads '%s' from a whole copy of it (an "
             "all-gather), whose cost these LCCs do not count.", a->name);
    res->stage_note = hd_analysis_keep_reason(results, note);
}

/* Is guard g's chain known false at iteration i with the inner variables
 * at vals (a branch C does not take for this k, if (k > 0) ...)? */
static bool guard_false(const hd_loop *l, int g, uint64_t i, const int64_t *vals)
{
    for (; g >= 0; g = l->guards[g].parent) {
        const hd_guard *gd = &l->guards[g];
        uint64_t v;
        char why[8];
        if (gd->cond && hd_expr_eval_vars(gd->cond, i, vals, &v, why, sizeof why) &&
            (v != 0) != gd->when)
            return true;
    }
    return false;
}

void hd_analyse_inner_ref(const hd_program *p, hd_diags *d, const hd_loop *l, hd_ref *ref,
                          const hd_layout *layouts, const hd_ref_analysis *home_result,
                          hd_ref_analysis *res, hd_analysis *results)
{
    const hd_array *a = &p->arrays[ref->array];
    const hd_ref *home = &l->refs[l->home];
    const hd_expr *home_index = home->home_index ? home->home_index : home->index;
    uint32_t mask = hd_inner_mask(ref->index);
    const hd_inner *in = first_inner(l, mask);
    long long count = l->k <= 40 ? 1LL << l->k : HD_INNER_ENUMERATE_MAX + 1;
    for (int v = 0; v < l->ninners && count <= HD_INNER_ENUMERATE_MAX; v++)
        if (mask >> v & 1)
            count *= l->inners[v].hi > l->inners[v].lo ? l->inners[v].hi - l->inners[v].lo : 1;
    char why[256], reason[512];
    snprintf(reason, sizeof reason, "the index changes with '%s', the variable of the inner "
             "loop on line %d: every processor gets the whole of '%s' before the loop",
             in ? in->name : "?", in ? in->line : 0, a->name);
    res->comm = (hd_comm){ .kind = HD_COMM_GENERAL,
                           .reason = hd_analysis_keep_reason(results, reason) };
    res->conflict = -1;
    if (a->log2_size < 0 || a->log2_size > 40) {
        ref->check_at_run_time = true;
        return;
    }
    if (count > HD_INNER_ENUMERATE_MAX || l->k > HD_ENUMERATE_MAX_BITS ||
        (ref->is_write && a->log2_size > HD_ENUMERATE_MAX_BITS)) {
        if (ref->is_write)
            hd_report(d, HD_ERROR, ref->begin, ref->line, "cannot check the elements '%s' "
                      "writes: its index reads the variables of inner loops, and the "
                      "iterations times their values are more than the %lld the translator "
                      "enumerates (HD_INNER_ENUMERATE_MAX)", ref->text,
                      (long long)HD_INNER_ENUMERATE_MAX);
        ref->check_at_run_time = true;
        return;
    }
    const hd_layout *lay = &layouts[ref->array];
    const hd_layout *home_lay = &layouts[home->array];
    size_t size = (size_t)1 << a->log2_size;
    uint64_t *writer = ref->is_write ? hd_xcalloc(size, sizeof *writer) : NULL;
    int64_t vals[HD_MAX_INNERS];
    bool local = true, ok = true;
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k) && ok; i++) {
        if (ref->guard >= 0 && hd_guard_at(l, ref->guard, i) == HD_GUARD_NO)
            continue;
        uint64_t h, e;
        bool home_known = home_result->map ? (h = hd_affine_apply(home_result->map, i), true)
                                           : hd_expr_eval(home_index, i, &h, why, sizeof why);
        uint64_t mine = home_known ? hd_layout_owner(home_lay, h) : 0;
        hd_inner_first(l, vals);
        do {
            if (guard_false(l, ref->guard, i, vals))
                continue;
            bool inside = hd_expr_eval_vars(ref->index, i, vals, &e, why, sizeof why);
            for (int s = 1; inside && s < ref->nsubs; s++) {
                uint64_t sv;
                inside = hd_expr_eval_vars(ref->subs[s].expr, i, vals, &sv, why, sizeof why) &&
                         sv < (uint64_t)a->extent[s];
            }
            inside = inside && e < size;
            if (!inside) {
                char at[256];
                values_text(l, mask, vals, at, sizeof at);
                if (ref->is_write) {
                    hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' writes outside '%s' "
                              "(or its element is not known when translating) at %s = %llu%s",
                              ref->text, a->name, l->var, (unsigned long long)i, at);
                    ok = false;
                    break;
                }
                /* A read C may never reach (a break before it): checked
                 * where it happens, and gathered whole. */
                ref->check_at_run_time = true;
                local = false;
                continue;
            }
            if (!home_known || hd_layout_owner(lay, e) != mine) {
                if (ref->is_write) {
                    char at[256];
                    values_text(l, mask, vals, at, sizeof at);
                    hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' writes an element "
                              "of another processor than the iteration's (%s) at %s = %llu%s: "
                              "one iteration's writes must live on one processor",
                              ref->text, home->text, l->var, (unsigned long long)i, at);
                    ok = false;
                    break;
                }
                local = false;
            }
            if (writer) {
                if (writer[e] && writer[e] != i + 1) {
                    hd_report(d, HD_ERROR, ref->begin, ref->line, "iterations %s = %llu and "
                              "%s = %llu both write element %llu of '%s' (a doall loop may not "
                              "write an element twice)", l->var,
                              (unsigned long long)(writer[e] - 1), l->var,
                              (unsigned long long)i, (unsigned long long)e, a->name);
                    ok = false;
                    break;
                }
                writer[e] = i + 1;
            }
        } while (hd_inner_next(l, mask, vals));
    }
    free(writer);
    if (local && ok)
        res->comm = (hd_comm){ .kind = HD_COMM_LOCAL };
    else if (ok && !ref->is_write && home_result->map) {
        hd_affine dst = hd_affine_compose(&home_lay->owner, home_result->map, home_lay->n);
        read_per_value(p, l, ref, lay, &dst, mask, res, results);
    }
}

void hd_check_inner_headers(const hd_program *p, hd_diags *d, const hd_loop *l)
{
    for (int h = 0; h < l->nheaders; h++) {
        const hd_inner_header *hd = &l->headers[h];
        for (int k = 0; k < hd->narrays; k++) {
            const hd_array *a = &p->arrays[hd->arrays[k]];
            if (a->dist == HD_DIST_NONE)
                continue;
            bool direct = hd->what && strcmp(hd->what, a->name) == 0;
            hd_report(d, HD_ERROR, hd->begin, hd->line, "this loop's header depends on "
                      "the elements of '%s', which is distributed%s%s%s: an inner loop "
                      "of a doall body may not run a number of times that depends on "
                      "distributed data (its references are checked and priced from the "
                      "values its variable takes, known when translating); read the bound "
                      "from a replicated array or an outer variable", a->name,
                      direct ? "" : " (through '",
                      direct ? "" : hd->what, direct ? "" : "')");
            break;
        }
    }
}
