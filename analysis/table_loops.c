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

/* Is ref's flattened index the loop variable itself? */
static bool names_iteration(const hd_loop *l, const hd_ref *ref)
{
    hd_affine m;
    char why[8];
    if (!hd_expr_affine(ref->index, l->k, &m, why, sizeof why) || m.c)
        return false;
    for (int t = 0; t < 64; t++)
        if (m.row[t] != (t < l->k ? UINT64_C(1) << t : 0))
            return false;
    return true;
}

static bool written_here(const hd_loop *l, int arr)
{
    for (int k = 0; k < l->nrefs; k++)
        if (l->refs[k].is_write && l->refs[k].array == arr)
            return true;
    return false;
}

void hd_analyse_table_loop(const hd_program *p, hd_diags *d, hd_analysis *out, hd_loop *l)
{
    const hd_ref *home = &l->refs[l->home];
    const hd_array *ha = &p->arrays[home->array];
    if (l->nreds) {
        const hd_reduction *red = &l->reds[0];
        hd_report(d, HD_ERROR, l->begin, l->line, "this doall over a table distribution "
                  "reduces into '%s': reductions are not supported over a table distribution "
                  "yet (docs/meshes.md)", red->name);
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
        if (a->dist != HD_DIST_TABLE) {
            hd_report(d, HD_ERROR, ref->begin, ref->line, "this doall runs over the owner "
                      "table of '%s', and '%s' is distributed by %s: a doall over a table "
                      "distribution uses only arrays distributed by a table and replicated "
                      "ones", ha->name, a->name, hd_dist_name(a->dist));
            continue;
        }
        bool at_i = names_iteration(l, ref);
        if (ref->is_write) {
            if (!at_i) {
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' writes an array "
                          "distributed by a table at an element other than %s: iteration "
                          "%s runs on the owner of element %s and writes only there", ref->text,
                          l->var, l->var, l->var);
            } else if (a->table != ha->table) {
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' and '%s' are written by "
                          "the same iteration but are distributed by different owner tables; "
                          "split the loop", ref->text, home->text);
            } else if (l->trip > a->size) {
                hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' writes elements 0 to "
                          "%lld of '%s', which has %lld", ref->text, (long long)l->trip - 1,
                          a->name, (long long)a->size);
            }
            comm->kind = HD_COMM_LOCAL;
            continue;
        }
        if (at_i && a->table == ha->table && l->trip <= a->size) {
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
        char why[300];
        snprintf(why, sizeof why, "'%s' is distributed by a table: which elements each "
                 "processor needs depends on data, so an inspector gathers them (each "
                 "distinct element once per pair of processors, Chung and Ranka 1990)",
                 a->name);
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
        if (a->dist != HD_DIST_TABLE || a->dist_refused)
            continue;
        hd_report(d, HD_ERROR, ref->begin, ref->line, "'%s' is distributed by a table: only "
                  "a doall that writes element %s of an array distributed by a table (and "
                  "so runs over its owners) may use it", a->name, l->var);
        refused = true;
    }
    return refused;
}
