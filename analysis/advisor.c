/*
 * advisor.c — the layout advisor (`hyperdo analyze --layouts`): for each
 * distributed array, the program analysed again under every layout the
 * array can have (cyclic, block, each block_cyclic(B) between them,
 * Lee and Aboelaze's skew where the array is an N x N matrix on N = 2^n
 * processors, HPF's (BLOCK, BLOCK) and (CYCLIC, CYCLIC) where it is a 2-D
 * array with at least the processor grid's rows and columns, and
 * Batcher's i XOR j where skew applies), the other arrays keeping theirs;
 * under each, the conflict
 * degrees of the array's references (docs/layouts.md) and the contention
 * the plan leaves after its mapping (Hou et al. 2001, Section 5); and the
 * layout that minimises them.
 *
 * The order of preference, said in the advice's reason: an accepted
 * program first (a layout can make a loop's writes live on two processors,
 * which is an error); then the least largest conflict degree (a known one
 * before an unknown one); then the least sum of conflict degrees; then
 * the fewest general communications (the mapping prices LCCs only, so a
 * layout that turns an LCC into a general exchange must not look cheaper
 * for it); then the least objective after mapping; then the least
 * contention degree after mapping; a tie keeps the declared layout, else
 * the first in the list.
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of the first diagnostic, without "path:line:col: ". */
static char *first_error(const hd_diags *d)
{
    for (int k = 0; k < d->nitems; k++) {
        const char *t = d->items[k].text, *e = strstr(t, "error: ");
        if (!e)
            continue;
        e += strlen("error: ");
        size_t len = strcspn(e, "\n");
        char *s = hd_xmalloc(len + 1);
        memcpy(s, e, len);
        s[len] = '\0';
        return s;
    }
    return hd_xstrdup("the program is not accepted");
}

/* The program analysed and planned with array `arr` laid out as c says. */
static void try_layout(hd_program *p, int arr, const hd_target *t, hd_objective obj,
                       hd_layout_candidate *c)
{
    hd_array_set_dist(&p->arrays[arr], p->n, c->dist, c->block_log2);
    hd_diags d;
    hd_diags_init(&d, p->path);
    hd_diags_set_source(&d, p->source, p->source_len);
    hd_analysis results;
    if (hd_analyse_program(p, &d, &results) != 0) {
        c->why_not = first_error(&d);
        hd_diags_free(&d);
        hd_analysis_free(&results);
        return;
    }
    hd_diags_free(&d);
    c->accepted = true;
    c->conflict = c->conflict_sum = 0;
    for (int k = 0; k < p->nloops; k++)
        for (int j = 0; j < p->loops[k].nrefs; j++) {
            const hd_ref *ref = &p->loops[k].refs[j];
            if (ref->array != arr)
                continue;
            long long x = hd_ref_result(&results, ref)->conflict;
            if (x < 0 || c->conflict < 0) {
                c->conflict = c->conflict_sum = -1;
                continue;
            }
            if (x > c->conflict)
                c->conflict = x;
            c->conflict_sum += x;
        }
    hd_spec spec;
    hd_program_spec(p, &results, &spec);
    hd_plan plan;
    if (hd_plan_build(&spec, t, obj, HD_MAPPING_OPTIMAL, &plan) == HD_OK) {
        c->cost = plan.cost;
        c->general = plan.m - plan.nlccs;
        c->worst_before = plan.worst_before;
        c->worst_after = plan.worst_after;
        hd_plan_free(&plan);
    } else {
        c->accepted = false;
        c->why_not = hd_xstrdup("the set optimizer failed (internal error)");
    }
    hd_spec_free(&spec);
    hd_analysis_free(&results);
}

/* -1, 0, 1 as x is a better, equal or worse conflict degree than y (an
 * unknown one, -1, is worse than any known). */
static int compare_conflict(long long x, long long y)
{
    if (x == y)
        return 0;
    if (x < 0)
        return 1;
    if (y < 0)
        return -1;
    return x < y ? -1 : 1;
}

/* Negative when a is better than b (the order of the file comment). */
static int compare(const hd_layout_candidate *a, const hd_layout_candidate *b)
{
    if (a->accepted != b->accepted)
        return a->accepted ? -1 : 1;
    if (!a->accepted)
        return 0;
    int c = compare_conflict(a->conflict, b->conflict);
    if (c == 0)
        c = compare_conflict(a->conflict_sum, b->conflict_sum);
    if (c == 0 && a->general != b->general)
        c = a->general < b->general ? -1 : 1;
    if (c == 0 && a->cost != b->cost)
        c = a->cost < b->cost ? -1 : 1;
    if (c == 0 && a->worst_after != b->worst_after)
        c = a->worst_after < b->worst_after ? -1 : 1;
    return c;
}

/* Why the best beat the declared layout, or that it is the declared one. */
static char *reason_for(const hd_array_advice *a)
{
    const hd_layout_candidate *b = &a->cand[a->best], *d = &a->cand[a->declared];
    char buf[512];
    if (a->best == a->declared) {
        snprintf(buf, sizeof buf, "the declared layout is as good as any: no other "
                 "has a smaller largest conflict degree, sum of conflict degrees, "
                 "number of general communications, objective after mapping or "
                 "contention after mapping");
    } else if (!d->accepted) {
        snprintf(buf, sizeof buf, "the declared layout is not accepted (%s)", d->why_not);
    } else if (compare_conflict(b->conflict, d->conflict) != 0) {
        snprintf(buf, sizeof buf, "its largest conflict degree is %lld where the "
                 "declared layout's is %lld", b->conflict, d->conflict);
    } else if (compare_conflict(b->conflict_sum, d->conflict_sum) != 0) {
        snprintf(buf, sizeof buf, "its conflict degrees sum to %lld where the "
                 "declared layout's sum to %lld", b->conflict_sum, d->conflict_sum);
    } else if (b->general != d->general) {
        snprintf(buf, sizeof buf, "the same conflict degrees, and %d general "
                 "communications where the declared layout has %d", b->general,
                 d->general);
    } else if (b->cost != d->cost) {
        snprintf(buf, sizeof buf, "the same conflict degrees, and the objective "
                 "after mapping is %llu where the declared layout's is %llu",
                 (unsigned long long)b->cost, (unsigned long long)d->cost);
    } else {
        snprintf(buf, sizeof buf, "the same conflict degrees and objective, and "
                 "the contention degree after mapping is %llu where the declared "
                 "layout's is %llu", (unsigned long long)b->worst_after,
                 (unsigned long long)d->worst_after);
    }
    return hd_xstrdup(buf);
}

/* The layouts array a can have on the n-cube, the declared one among them. */
static void candidates(const hd_array *a, int n, hd_array_advice *out)
{
    int spare = a->log2_size - n;     /* offset bits */
    int cap = spare + 6;
    out->cand = hd_xcalloc((size_t)cap, sizeof *out->cand);
    out->cand[out->ncand++] = (hd_layout_candidate){ .dist = HD_DIST_CYCLIC };
    for (int b = 1; b < spare; b++)
        out->cand[out->ncand++] = (hd_layout_candidate){ .dist = HD_DIST_BLOCK_CYCLIC,
                                                         .block_log2 = b };
    if (spare > 0)
        out->cand[out->ncand++] = (hd_layout_candidate){ .dist = HD_DIST_BLOCK };
    if (a->log2_size == 2 * n)
        out->cand[out->ncand++] = (hd_layout_candidate){
            .dist = n % 2 == 0 ? HD_DIST_SKEW : HD_DIST_SKEW_ROT };
    /* The layouts added for issue 13's comparison come last, so that on a
     * tie the advice is what it was before them.  The 2-D ones where the
     * front end would accept them: a 2-D array (its extents powers of
     * two, as a distributed array's are) at least as large as the grid in
     * each dimension. */
    int rows_log2 = hd_grid_rows_log2(n);
    if (a->ndims == 2 && a->extent[0] >= (INT64_C(1) << rows_log2) &&
        a->extent[1] >= (INT64_C(1) << (n - rows_log2))) {
        out->cand[out->ncand++] = (hd_layout_candidate){ .dist = HD_DIST_BLOCK_2D };
        out->cand[out->ncand++] = (hd_layout_candidate){ .dist = HD_DIST_CYCLIC_2D };
    }
    if (a->log2_size == 2 * n)
        out->cand[out->ncand++] = (hd_layout_candidate){ .dist = HD_DIST_XOR };
    /* The declared one: exact is cyclic (and block) for 2^n elements;
     * block_cyclic with B = 1 or B = 2^spare is cyclic or block. */
    hd_dist_kind d = a->dist;
    int b = a->block_log2;
    if (d == HD_DIST_EXACT || (d == HD_DIST_BLOCK_CYCLIC && b == 0))
        d = HD_DIST_CYCLIC;
    if (d == HD_DIST_BLOCK_CYCLIC && b >= spare)
        d = HD_DIST_BLOCK;
    if (d == HD_DIST_SKEW_ROT && n % 2 == 0)
        d = HD_DIST_SKEW;
    out->declared = 0;
    for (int k = 0; k < out->ncand; k++)
        if (out->cand[k].dist == d && (d != HD_DIST_BLOCK_CYCLIC || out->cand[k].block_log2 == b))
            out->declared = k;
}

void hd_advise_layouts(hd_program *p, const hd_target *t, hd_objective obj,
                       hd_layout_advice *out)
{
    memset(out, 0, sizeof *out);
    out->arrays = hd_xcalloc((size_t)(p->narrays ? p->narrays : 1), sizeof *out->arrays);
    for (int arr = 0; arr < p->narrays; arr++) {
        hd_array *a = &p->arrays[arr];
        if (!hd_array_distributed(p, arr))
            continue;
        hd_array_advice *adv = &out->arrays[out->narrays++];
        adv->array = hd_xstrdup(a->name);
        candidates(a, p->n, adv);
        hd_dist_kind dist = a->dist;
        int block_log2 = a->block_log2, shift = a->shift;
        for (int k = 0; k < adv->ncand; k++)
            try_layout(p, arr, t, obj, &adv->cand[k]);
        a->dist = dist;
        a->block_log2 = block_log2;
        a->shift = shift;
        adv->best = adv->declared;
        for (int k = 0; k < adv->ncand; k++)
            if (compare(&adv->cand[k], &adv->cand[adv->best]) < 0)
                adv->best = k;
        adv->reason = reason_for(adv);
    }
}

void hd_layout_candidate_name(const hd_layout_candidate *c, char *buf, size_t size)
{
    if (c->dist == HD_DIST_BLOCK_CYCLIC)
        snprintf(buf, size, "block_cyclic(%llu)", 1ULL << c->block_log2);
    else
        snprintf(buf, size, "%s", hd_dist_name(c->dist));
}

void hd_layout_advice_free(hd_layout_advice *a)
{
    for (int k = 0; k < a->narrays; k++) {
        for (int c = 0; c < a->arrays[k].ncand; c++)
            free(a->arrays[k].cand[c].why_not);
        free(a->arrays[k].cand);
        free(a->arrays[k].array);
        free(a->arrays[k].reason);
    }
    free(a->arrays);
    memset(a, 0, sizeof *a);
}
