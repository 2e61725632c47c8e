/*
 * plan.c — the plan of a program's communications, built once and read by
 * every command: for each communication its class and contention as
 * given (Hou et al. 2001, Definitions 2-4, Theorem 1), its own optimum
 * (Section 4), and under the mapping chosen for the whole set (Section 5,
 * Theorem 2); general communications are listed with their reason and
 * left out of the mapping, which cannot weigh them.
 */
#include "analysis.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Gives each LCC entry its first equal entry (found through an
 * open-addressing table of indices) and the distinct ones a price slot,
 * whose index `price` holds until the table stops moving. */
static void share_equal(const hd_spec *spec, hd_plan *p, int *slot_of)
{
    size_t slots = 16;
    while (slots < 2 * (size_t)p->m)
        slots *= 2;
    int *seen = hd_xmalloc(slots * sizeof *seen);
    for (size_t k = 0; k < slots; k++)
        seen[k] = -1;
    for (int r = 0; r < p->m; r++) {
        hd_plan_comm *l = &p->comm[r];
        const hd_lcc *c = spec->lccs[r].comm.lcc;
        l->in = &spec->lccs[r];
        l->first = r;
        slot_of[r] = -1;
        if (l->in->comm.kind != HD_COMM_LCC)
            continue;
        size_t k = hd_lcc_hash(c) & (slots - 1);
        while (seen[k] >= 0 && !hd_lcc_equal(spec->lccs[seen[k]].comm.lcc, c))
            k = (k + 1) & (slots - 1);
        if (seen[k] >= 0) {
            l->first = seen[k];
            slot_of[r] = slot_of[seen[k]];
            continue;
        }
        seen[k] = r;
        slot_of[r] = p->nprices++;
    }
    free(seen);
}

/* What a communication needs apart from the set's mapping; the status of
 * the target's contention and optimizer (a target they have no formula
 * for: HD_EINVAL).  On the e-cube hypercube the optimum for the LCC alone
 * is Section 4's. */
static bool omega_class(const hd_target *t)
{
    return t->kind == HD_TARGET_OMEGA || t->kind == HD_TARGET_BUTTERFLY;
}

/* Every LCC is priced on all three networks, so that a report can set
 * them side by side (analyze --network all): its e-cube contention
 * (Theorem 1) and Section 4's optimum for it alone, and its passes on the
 * omega network and the butterfly (Wu 1984).  The plan's target decides
 * only which of them the mapping minimises. */
static int price_alone(const hd_target *target, const hd_lcc *c, hd_plan_price *pr)
{
    hd_target ecube = hd_target_ecube(target->n);
    hd_target omega = hd_target_omega(target->n);
    hd_target butterfly = hd_target_butterfly(target->n);
    pr->class = hd_lcc_classify(c);
    pr->bpc = hd_lcc_is_bpc(c);
    pr->rank = hd_rank(&c->A);
    int rc = hd_contention(omega_class(target) ? &ecube : target, c, pr->before);
    if (rc != HD_OK)
        return rc;
    rc = hd_optimize_one(&ecube, c, &pr->alone_order);
    if (rc != HD_OK)
        return rc;
    rc = hd_contention_after(&ecube, c, &pr->alone_order, pr->alone);
    if (rc == HD_OK)
        rc = hd_omega_price_lcc(&omega, c, &pr->omega);
    if (rc == HD_OK)
        rc = hd_omega_price_lcc(&butterfly, c, &pr->butterfly);
    return rc;
}

/* The plan's order of address bits and its cost: the identity, or Section
 * 5's optimum over the distinct LCCs each weighed by its count. */
static int choose_order(const hd_spec *spec, const hd_target *target, const hd_lcc **distinct,
                        const uint64_t *weight, hd_plan *p)
{
    if (p->n == 0) {
        p->order.n = 0;            /* a C file without loops */
        return HD_OK;
    }
    if (omega_class(target)) {
        /* Wu 1984: a linear map of the processors, not a reordering. */
        p->order = hd_order_identity(p->n);
        hd_matrix F = hd_matrix_identity(p->n);
        if (p->choice == HD_MAPPING_OPTIMAL) {
            int rc = hd_omega_choose_mapping(target, distinct, weight, p->nprices, &F,
                                             &p->cost);
            if (rc != HD_OK)
                return rc;
        } else {
            p->cost = hd_omega_mapped_passes(target, distinct, weight, p->nprices, &F);
        }
        hd_mapping_affine(&F, 0, &p->mapping);   /* nonsingular: chosen so */
        return HD_OK;
    }
    if (p->choice == HD_MAPPING_IDENTITY) {
        p->order = hd_order_identity(p->n);
        hd_lcc *set = hd_xmalloc((size_t)p->m * sizeof *set);
        int nset = 0;
        for (int r = 0; r < p->m; r++)
            if (spec->lccs[r].comm.kind == HD_COMM_LCC)
                set[nset++] = *spec->lccs[r].comm.lcc;
        int rc = hd_objective_cost(target, p->objective, set, nset, &p->order, &p->cost);
        free(set);
        return rc;
    }
    return hd_optimize_weighted(target, distinct, weight, p->nprices, p->objective, &p->order,
                                &p->cost);
}

int hd_plan_build(const hd_spec *spec, const hd_target *target, hd_objective objective,
                  hd_mapping_choice choice, hd_plan *p)
{
    memset(p, 0, sizeof *p);
    /* The contention and optimizer functions dispatch on the target's
     * kind and refuse those they have no formula for. */
    if (target->n != spec->n)
        return HD_EINVAL;
    p->target = *target;
    p->n = spec->n;
    p->m = spec->m;
    p->objective = objective;
    p->choice = choice;
    p->comm = hd_xcalloc((size_t)p->m, sizeof *p->comm);
    int *slot_of = hd_xmalloc((size_t)p->m * sizeof *slot_of);
    share_equal(spec, p, slot_of);
    p->prices = hd_xcalloc((size_t)p->nprices, sizeof *p->prices);
    /* Each distinct LCC once, weighed by how often it occurs. */
    const hd_lcc **distinct = hd_xmalloc((size_t)p->nprices * sizeof *distinct);
    uint64_t *weight = hd_xcalloc((size_t)p->nprices, sizeof *weight);
    int rc = HD_OK;
    for (int r = 0; r < p->m && rc == HD_OK; r++) {
        if (spec->lccs[r].comm.kind != HD_COMM_LCC)
            continue;
        int k = slot_of[r];
        p->comm[r].price = &p->prices[k];
        weight[k]++;
        if (p->comm[r].first == r) {
            distinct[k] = spec->lccs[r].comm.lcc;
            rc = price_alone(target, distinct[k], &p->prices[k]);
        }
    }
    free(slot_of);
    if (rc == HD_OK)
        rc = choose_order(spec, target, distinct, weight, p);
    free(distinct);
    free(weight);
    if (rc != HD_OK) {
        hd_plan_free(p);
        return rc;
    }
    if (!omega_class(target))
        p->mapping = hd_mapping_reorder(&p->order);
    hd_target ecube = hd_target_ecube(p->n);
    for (int r = 0; r < p->m; r++) {
        hd_plan_comm *l = &p->comm[r];
        if (!l->price)
            continue;
        hd_plan_price *pr = &p->prices[l->price - p->prices];
        if (l->first == r) {
            pr->mapped = hd_lcc_mapped(l->in->comm.lcc, &p->mapping);
            /* accepted: the same dimension was priced above */
            hd_contention(&ecube, &pr->mapped, pr->after);
            if (omega_class(target)) {
                hd_omega_price mp;
                hd_omega_price_lcc(target, &pr->mapped, &mp);
                pr->passes_after = (int)(mp.passes > INT_MAX ? INT_MAX : mp.passes);
            }
        }
        if (omega_class(target)) {
            const hd_omega_price *given =
                target->kind == HD_TARGET_OMEGA ? &pr->omega : &pr->butterfly;
            p->passes_before += given->passes;
            p->passes_after += (uint64_t)pr->passes_after;
        }
        uint64_t db = hd_contention_degree(pr->before, p->n);
        uint64_t da = hd_contention_degree(pr->after, p->n);
        p->nlccs++;
        if (db > p->worst_before)
            p->worst_before = db;
        if (da > p->worst_after)
            p->worst_after = da;
    }
    return HD_OK;
}

hd_mapping hd_mapping_reorder(const hd_order *o)
{
    hd_mapping m = { .kind = HD_MAP_REORDER, .n = o->n, .order = *o };
    return m;
}

bool hd_mapping_affine(const hd_matrix *Q, uint64_t c, hd_mapping *out)
{
    hd_matrix inv;
    if (!hd_matrix_inverse(Q, &inv))
        return false;
    *out = (hd_mapping){ .kind = HD_MAP_AFFINE, .n = Q->n, .Q = *Q,
                         .c = c & hd_mask(Q->n) };
    return true;
}

hd_lcc hd_lcc_mapped(const hd_lcc *c, const hd_mapping *m)
{
    if (m->kind == HD_MAP_REORDER)
        return hd_lcc_reorder(c, &m->order);
    hd_matrix qi;
    hd_matrix_inverse(&m->Q, &qi);   /* nonsingular: hd_mapping_affine */
    hd_lcc out = *c;
    out.A = hd_matrix_mul(&m->Q, &c->A);
    out.A = hd_matrix_mul(&out.A, &qi);
    out.b = hd_matrix_apply(&out.A, m->c) ^ hd_matrix_apply(&m->Q, c->b) ^ m->c;
    return out;
}

uint64_t hd_mapping_apply(const hd_mapping *m, uint64_t v)
{
    switch (m->kind) {
    case HD_MAP_REORDER:
        return hd_order_apply(&m->order, v);
    case HD_MAP_AFFINE:
        return hd_matrix_apply(&m->Q, v) ^ m->c;
    case HD_MAP_TABLE:
        return m->table[v];
    }
    return v;
}

void hd_plan_free(hd_plan *p)
{
    free(p->comm);
    free(p->prices);
    p->comm = NULL;
    p->prices = NULL;
    p->m = p->nprices = 0;
}
