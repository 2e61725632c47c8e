/*
 * table_loops.c — owner computes over a table distribution (Chung and
 * Ranka 1990's finite element mappings; docs/meshes.md, "Programs over
 * meshes").  Iteration i writes element i of arrays distributed by one
 * owner table T and runs on T[i]; a read of such an array at i is local,
 * any other is data-driven: which elements a processor needs is known
 * only from the index arrays' contents, so the node code gathers them
 * with an inspector/executor (each distinct element once per pair: the
 * paper's c_kl words) and no LCC describes it.
 *
 * What is checked here, since nothing about the indices is known when
 * translating: every write names element i (one-to-one, in bounds, on
 * the iteration's processor by construction), and no read of an array
 * the loop writes names another element (an iteration could otherwise
 * read what another writes, in an order the doall does not fix).
 */
#include "analysis.h"

#include <stdio.h>
#include <string.h>

/* Is ref's flattened index the loop variable itself?  By its map, or,
 * for an index that is no GF(2) map (m[i / 10][i % 10] of a spread
 * double m[10][10], whose flattened element is i), by its value at each
 * iteration of the loop's range, up to 2^22 of them. */
static bool names_iteration(const hd_loop *l, const hd_ref *ref)
{
    hd_affine m;
    char why[8];
    if (hd_expr_affine(ref->index, l->k, &m, why, sizeof why)) {
        if (m.c)
            return false;
        for (int t = 0; t < 64; t++)
            if (m.row[t] != (t < l->k ? UINT64_C(1) << t : 0))
                return false;
        return true;
    }
    int64_t lo, hi;
    bool lo_known, hi_known;
    hd_loop_range(l, &lo, &lo_known, &hi, &hi_known);
    if (!lo_known || !hi_known || hi - lo > (INT64_C(1) << HD_ENUMERATE_MAX_BITS))
        return false;
    uint64_t value[HD_EVAL_BLOCK];
    bool ok[HD_EVAL_BLOCK];
    for (int64_t base = lo; base < hi; base += HD_EVAL_BLOCK) {
        int n = hi - base < HD_EVAL_BLOCK ? (int)(hi - base) : HD_EVAL_BLOCK;
        hd_expr_eval_block(ref->index, (uint64_t)base, n, value, ok);
        for (int j = 0; j < n; j++)
            if (!ok[j] || value[j] != (uint64_t)(base + j))
                return false;
    }
    return true;
}

/* Why a read of array a (a table's or a spread's) is general, for the
 * report: a spread says how its elements lie and why no LCC covers them. */
static void general_reason(const hd_program *p, const hd_array *a, char *why, size_t size)
{
    const hd_owner_table *t = &p->tables[a->table];
    if (t->spread == HD_DIST_NONE) {
        snprintf(why, size, "'%s' is distributed by a table: which elements each processor "
                 "needs depends on data, so an inspector gathers them (each distinct element "
                 "once per pair of processors, Chung and Ranka 1990)", a->name);
        return;
    }
    int P = 1 << p->n;
    char how[160];
    if (t->extent)
        snprintf(how, sizeof how, "its extent %s is known at run time", t->extent);
    else if (t->spread == HD_DIST_BLOCK)
        snprintf(how, sizeof how, "%lld elements in blocks of %lld, element e on processor "
                 "e / %lld", (long long)t->size, (long long)hd_spread_block(t, p->n),
                 (long long)hd_spread_block(t, p->n));
    else
        snprintf(how, sizeof how, "%lld elements, element e on processor (e / %lld) mod %d",
                 (long long)t->size, (long long)hd_spread_block(t, p->n), P);
    snprintf(why, size, "'%s' is distributed by %s of any extent (%s): no GF(2)-affine map "
             "of a power-of-two range of elements gives its owners, so it is no LCC; each "
             "processor finds the elements it reads at run time and asks their owners "
             "(table-driven, each distinct element once per pair of processors)", a->name,
             t->name, how);
}

static bool written_here(const hd_loop *l, int arr)
{
    for (int k = 0; k < l->nrefs; k++)
        if (l->refs[k].is_write && l->refs[k].array == arr)
            return true;
    return false;
}

/* How an array of a table is distributed, for messages: "a table", or
 * "block (of any extent)". */
static const char *by_what(const hd_program *p, const hd_array *a)
{
    const hd_owner_table *t = &p->tables[a->table];
    switch (t->spread) {
    case HD_DIST_BLOCK: return "block (of any extent)";
    case HD_DIST_CYCLIC: return "cyclic (of any extent)";
    case HD_DIST_BLOCK_CYCLIC: return "block_cyclic (of any extent)";
    default: return "a table";
    }
}

void hd_analyse_table_loop(const hd_program *p, hd_diags *d, hd_analysis *out, hd_loop *l)
{
    const hd_ref *home = &l->refs[l->home];
    const hd_array *ha = &p->arrays[home->array];
    int64_t lo, hi;
    bool lo_known, hi_known;
    hd_loop_range(l, &lo, &lo_known, &hi, &hi_known);
    if (l->nreds) {
        const hd_reduction *red = &l->reds[0];
        hd_report(d, HD_ERROR, l->begin, l->line, "this doall over %s distribution "
                  "reduces into '%s': reductions are not supported over a table distribution "
                  "or a spread (of any extent) yet (docs/meshes.md)",
                  p->tables[ha->table].spread == HD_DIST_NONE ? "a table" : "a spread",
                  red->name);
    }
    for (int k = 0; k < l->nrefs; k++) {
        hd_ref *ref = &l->refs[k];
        hd_comm *comm = &out->refs[ref->id].comm;
        const hd_array *a = &p->arrays[ref->array];
        if (a->dist_refused)
            continue;      /* its distribute pragma's error says it */
        if (a->dist == HD_DIST_NONE) {
            if (ref->is_write)
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' is written in a doall "
                          "loop but not distributed: name it in '#pragma hyperdo "
                          "distribute(%s : table(...))'", a->name, a->name);
            comm->kind = HD_COMM_LOCAL;    /* a replicated copy */
            continue;
        }
        if (a->dist != HD_DIST_TABLE && ref->is_write) {
            hd_report(d, HD_ERROR, ref->begin, ref->line, "this doall runs over the owner "
                      "table of '%s'%s%s%s, and it writes '%s', which is distributed by %s: "
                      "an iteration writes only element %s of arrays of that table; split the "
                      "loop", ha->name, p->tables[ha->table].spread == HD_DIST_NONE ? "" : " (",
                      p->tables[ha->table].spread == HD_DIST_NONE ? "" : by_what(p, ha),
                      p->tables[ha->table].spread == HD_DIST_NONE ? "" : ")",
                      a->name, hd_dist_name(a->dist), l->var);
            continue;
        }
        if (a->dist != HD_DIST_TABLE) {
            /* A GF(2) layout read from a doall whose iterations lie by a
             * table: no LCC joins the two, so each processor asks the
             * owners of the elements it reads, as for a table's. */
            char why[400];
            snprintf(why, sizeof why, "this doall runs over the owners of '%s' (%s), which "
                     "no GF(2)-affine map of %s gives, so no LCC reaches it: each processor "
                     "asks the owners (under %s) of the elements of '%s' it reads at run time",
                     ha->name, by_what(p, ha), l->var, hd_dist_name(a->dist), a->name);
            ref->check_at_run_time = true;
            out->refs[ref->id].conflict = -1;
            *comm = (hd_comm){ .kind = HD_COMM_GENERAL,
                               .reason = hd_analysis_keep_reason(out, why) };
            continue;
        }
        bool at_i = names_iteration(l, ref);
        if (ref->is_write) {
            if (!at_i) {
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' writes an array "
                          "distributed by %s at an element other than %s: iteration "
                          "%s runs on the owner of element %s and writes only there", ref->text,
                          by_what(p, a), l->var, l->var, l->var);
            } else if (a->table != ha->table) {
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' and '%s' are written by "
                          "the same iteration but are distributed by different owner tables "
                          "(%s and %s%s); split the loop", ref->text, home->text,
                          by_what(p, a), by_what(p, ha),
                          p->tables[a->table].spread != HD_DIST_NONE &&
                          p->tables[ha->table].spread != HD_DIST_NONE
                          ? ", or of other extents" : "");
            } else if (hi_known && !p->tables[a->table].extent && hi > a->size) {
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' writes elements %lld to "
                          "%lld of '%s', which has %lld", ref->text,
                          lo_known ? (long long)lo : 0LL, (long long)hi - 1, a->name,
                          (long long)a->size);
            }
            comm->kind = HD_COMM_LOCAL;
            continue;
        }
        /* The home's writes are checked inside the array (here, or at run
         * time), and arrays of one table have one size. */
        if (at_i && a->table == ha->table) {
            comm->kind = HD_COMM_LOCAL;
            continue;
        }
        if (written_here(l, ref->array) && !(at_i && a->table == ha->table)) {
            hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' reads '%s', which this doall "
                      "writes, at an element other iterations may write: what it reads "
                      "would depend on the order of the iterations (read a copy made before "
                      "the loop)", ref->text, a->name);
            continue;
        }
        /* Why the index is no GF(2) map: codegen refuses an index that
         * uses a variable of the body (the inspector runs before it). */
        hd_affine m;
        char not_affine[256];
        if (!hd_expr_affine(ref->index, l->k, &m, not_affine, sizeof not_affine))
            out->refs[ref->id].not_affine = hd_analysis_keep_reason(out, not_affine);
        ref->check_at_run_time = true;   /* the index is data: hd_checked */
        out->refs[ref->id].conflict = -1;  /* not known when translating */
        char why[600];
        general_reason(p, a, why, sizeof why);
        *comm = (hd_comm){ .kind = HD_COMM_GENERAL,
                           .reason = hd_analysis_keep_reason(out, why) };
    }
}

bool hd_table_refused(const hd_program *p, hd_diags *d, const hd_loop *l)
{
    bool refused = false;
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        const hd_array *a = &p->arrays[ref->array];
        /* Reads are general: the analysis makes them requests. */
        if (a->dist != HD_DIST_TABLE || a->dist_refused || !ref->is_write)
            continue;
        hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' is distributed by %s: only "
                  "a doall that writes element %s of an array distributed by a table or "
                  "spread (and so runs over its owners) may write it", a->name, by_what(p, a),
                  l->var);
        refused = true;
    }
    return refused;
}
