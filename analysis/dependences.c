/*
 * dependences.c — whether a doall is one: no iteration may read an element
 * an earlier iteration writes (a flow dependence), and which arrays a
 * doall writes whole.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* The iteration that writes each element of array `arr` in doall l (one
 * at most: the front end checked), or ~0; NULL, with *unknown set, when
 * a write's element is not known when translating.  With whole_only, the
 * writes of a part of an element (a member, partial) are left out, and
 * only the iterations where C surely runs the write count (its guard
 * known true); otherwise those where it may. */
static uint64_t *writers(const hd_program *p, const hd_loop *l, int arr, bool whole_only,
                         const hd_ref **unknown)
{
    size_t size = (size_t)1 << p->arrays[arr].log2_size;
    uint64_t *writer = hd_xmalloc(size * sizeof *writer);
    *unknown = NULL;
    memset(writer, 0xff, size * sizeof *writer);
    char why[64];
    for (int v = 0; v < l->nrefs; v++) {
        const hd_ref *x = &l->refs[v];
        /* An inner loop may stop early: its writes are not sure ones. */
        if (!x->is_write || x->array != arr ||
            (whole_only && (x->partial || x->uses_vars || x->in_jump_loop)))
            continue;
        uint32_t mask = hd_inner_mask(x->index);
        int64_t vals[HD_MAX_INNERS];
        hd_inner_first(l, vals);
        for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
            hd_guard_truth runs = x->guard >= 0 ? hd_guard_at(l, x->guard, i) : HD_GUARD_YES;
            if (runs == HD_GUARD_NO || (whole_only && runs != HD_GUARD_YES))
                continue;
            do {   /* every value of the inner variables it reads */
                uint64_t e;
                if (!hd_expr_eval_vars(x->index, i, vals, &e, why, sizeof why)) {
                    /* A write whose element depends on an outer variable: no
                     * read of the array can be checked against it. */
                    *unknown = x;
                    free(writer);
                    return NULL;
                }
                if (e < size)
                    writer[e] = i;
            } while (hd_inner_next(l, mask, vals));
        }
    }
    return writer;
}

/* By enumeration: the first iteration at which rd may read an element an
 * earlier iteration writes; reports it and returns true. */
static bool dependence_by_enumeration(const hd_program *p, hd_diags *d, const hd_loop *l, const hd_ref *rd,
                                      const uint64_t *writer)
{
    const hd_array *a = &p->arrays[rd->array];
    size_t size = (size_t)1 << a->log2_size;
    char why[256];
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
        hd_guard_truth t = hd_guard_at(l, rd->guard, i);
        if (t == HD_GUARD_NO)
            continue;
        uint32_t mask = hd_inner_mask(rd->index);
        int64_t vals[HD_MAX_INNERS];
        hd_inner_first(l, vals);
        do {   /* every value of the inner variables it reads */
            uint64_t e;
            if (!hd_expr_eval_vars(rd->index, i, vals, &e, why, sizeof why)) {
                hd_report(d, HD_ERROR, rd->begin, rd->line, "'%s' is written in this doall, so the element '%s' "
                         "reads must be known when translating (%s)", a->name, rd->text, why);
                return true;
            }
            if (e < size && writer[e] != ~UINT64_C(0) && writer[e] < i) {
                hd_report(d, HD_ERROR, rd->begin, rd->line, "iteration %s = %llu %s element %llu of '%s', which the "
                         "earlier iteration %s = %llu writes: the loop carries a dependence "
                         "and is not a doall", l->var, (unsigned long long)i,
                         t == HD_GUARD_YES && !mask ? "reads" : "may read (where its guard holds)",
                         (unsigned long long)e, a->name, l->var,
                         (unsigned long long)writer[e]);
                return true;
            }
        } while (hd_inner_next(l, mask, vals));
    }
    return false;
}

/*
 * Iteration i must read no element that an earlier iteration wrote (a
 * flow dependence: the loop is not a doall).  Elements that later
 * iterations write are fine: every processor sends its elements before it
 * computes and runs its own iterations in order, so a read always sees the
 * old value, as the sequential loop does.  Where the write and the read
 * are GF(2)-affine the question is decided exactly whatever the loop's
 * size (hd_affine_flow_conflict); otherwise the iterations are enumerated,
 * up to 2^HD_ENUMERATE_MAX_BITS, and a larger loop is refused: what cannot be
 * checked is not translated.  A guarded read counts where its guard may
 * hold (docs/annotations.md).
 */
void hd_check_dependences(const hd_program *p, const hd_analysis *an, const hd_loop *l,
                          hd_diags *d)
{
    for (int r = 0; r < l->nrefs; r++) {
        const hd_ref *rd = &l->refs[r];
        const hd_array *a = &p->arrays[rd->array];
        if (rd->is_write || a->dist == HD_DIST_NONE || !hd_loop_uses(l, rd->array, true))
            continue;
        /* Every write of the array names the element rd reads, whatever
         * it is: iteration i reads only what i writes (no other iteration
         * writes it: the front end checked the writes are one-to-one). */
        bool own_only = true;
        for (int w = 0; w < l->nrefs && own_only; w++)
            if (l->refs[w].is_write && l->refs[w].array == rd->array)
                own_only = hd_ref_same_index(p, &l->refs[w], rd);
        if (own_only)
            continue;
        const hd_affine *read_map = hd_ref_result(an, rd)->map;
        bool affine = read_map != NULL, conflict = false;
        uint64_t iw = 0, ir = 0;
        for (int w = 0; w < l->nrefs && affine; w++) {
            const hd_ref *wr = &l->refs[w];
            if (!wr->is_write || wr->array != rd->array)
                continue;
            const hd_affine *write_map = hd_ref_result(an, wr)->map;
            if (!write_map || wr->uses_vars) {   /* a home's map is at one value */
                affine = false;
                break;
            }
            int found = hd_affine_flow_conflict(write_map, read_map, a->log2_size, &iw, &ir);
            if (found < 0)
                affine = false;
            else if (found)
                conflict = true;
            if (conflict)
                break;
        }
        if (affine && !conflict)
            continue;
        if (affine && rd->guard < 0) {
            hd_report(d, HD_ERROR, rd->begin, rd->line, "iteration %s = %llu reads element %llu of '%s', which "
                     "the earlier iteration %s = %llu writes: the loop carries a "
                     "dependence and is not a doall", l->var, (unsigned long long)ir,
                     (unsigned long long)hd_affine_apply(read_map, ir), a->name, l->var,
                     (unsigned long long)iw);
            continue;
        }
        if (l->k > HD_ENUMERATE_MAX_BITS || a->log2_size > HD_ENUMERATE_MAX_BITS) {
            hd_report(d, HD_ERROR, rd->begin, rd->line, "cannot check that '%s' reads no element of '%s' that an "
                     "earlier iteration writes: %s, and this doall has 2^%d iterations "
                     "(the translator enumerates up to 2^%d)", rd->text, a->name,
                     affine ? "where its guard holds cannot be known when translating"
                            : "its index is not a GF(2)-affine map of the loop variable",
                     l->k, HD_ENUMERATE_MAX_BITS);
            continue;
        }
        const hd_ref *unknown;
        uint64_t *writer = writers(p, l, rd->array, false, &unknown);
        if (!writer) {
            hd_report(d, HD_ERROR, rd->begin, rd->line, "cannot check that '%s' reads no element of '%s' that an "
                     "earlier iteration writes: the element '%s' writes is not known when "
                     "translating", rd->text, a->name, unknown->text);
            continue;
        }
        dependence_by_enumeration(p, d, l, rd, writer);
        free(writer);
    }
}

/* Does the doall write every element of program array `arr`?  Then the
 * host need not send the old elements before it.  One affine write of a
 * 2^k-element array by 2^k iterations does (the front end checked it is
 * one-to-one and in bounds); otherwise the writes are enumerated. */
bool hd_loop_writes_all(const hd_program *p, const hd_analysis *an, const hd_loop *l, int arr)
{
    const hd_array *a = &p->arrays[arr];
    if (l->on_table) {
        /* Its writes are element i of the home's table's arrays
         * (table_loops.c): all of one when its range is the array's
         * elements (a size known when translating). */
        int64_t lo, hi;
        bool lo_known, hi_known;
        hd_loop_range(l, &lo, &lo_known, &hi, &hi_known);
        bool all = lo_known && lo == 0 && hi_known && hi == a->size && a->size > 0 &&
                   !(a->table >= 0 && p->tables[a->table].extent);
        for (int k = 0; k < l->nrefs; k++)
            if (l->refs[k].is_write && l->refs[k].array == arr && !l->refs[k].partial && all)
                return true;
        return false;
    }
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        const hd_affine *map = hd_ref_result(an, ref)->map;
        /* A write C may skip (its guard: an if, the loop's range) does not
         * overwrite its element everywhere. */
        if (ref->is_write && ref->array == arr && !ref->partial && map &&
            ref->guard < 0 && !ref->uses_vars && !ref->in_jump_loop &&
            a->log2_size == l->k && hd_affine_collision(map, a->log2_size) == 0 &&
            (~hd_affine_zero_bits(map) & ~hd_mask(a->log2_size)) == 0)
            return true;
    }
    if (l->k > HD_ENUMERATE_MAX_BITS || a->log2_size > HD_ENUMERATE_MAX_BITS)
        return false;
    const hd_ref *unknown;
    uint64_t *writer = writers(p, l, arr, true, &unknown);
    if (!writer)
        return false;
    /* Whole: no element is left without a writer. */
    size_t size = (size_t)1 << a->log2_size, e = 0;
    while (e < size && writer[e] != ~UINT64_C(0))
        e++;
    free(writer);
    return e == size;
}
