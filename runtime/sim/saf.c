/*
 * saf.c — the synchronous store-and-forward n-cube of Chung and Ranka
 * 1990, Section 2.3 (sim.h, hd_saf_run): what `hyperdo cost` prices a
 * finite element mapping with, `hyperdo sim --model saf-bi|saf-uni` runs
 * on an LCC, and the sim back end times a program's phases with
 * (HYPERDO_SIM_MODEL=saf-bi|saf-uni).  Fig. 3(a) and 3(b) are its test
 * (tests/analysis/test_fem_cost.c).  The printed loops run while data
 * remain between "neighbour" (bi) or "adjacent" (uni) processors; these
 * run while any remain at all, or two-hop data would never be sent.
 */
#include "sim.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int by_src_dst(const void *a, const void *b)
{
    const hd_saf_parcel *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* e-cube: the lowest differing bit first (Fig. 3(a): c_03 shares channel
 * 0 -> 1 with c_01). */
static uint32_t next_hop(uint32_t at, uint32_t to)
{
    uint32_t diff = at ^ to;
    return at ^ (diff & -diff);
}

/* Sorted by (src, dst), equal ones merged: the new count. */
static size_t merge(hd_saf_parcel *p, size_t m)
{
    qsort(p, m, sizeof *p, by_src_dst);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (k > 0 && p[k - 1].src == p[i].src && p[k - 1].dst == p[i].dst)
            p[k - 1].words += p[i].words;
        else
            p[k++] = p[i];
    }
    return k;
}

/* The most words on one directed channel among the moving parcels (each
 * rewritten to its channel, src -> next hop). */
static long long busiest(hd_saf_parcel *moving, size_t m)
{
    for (size_t i = 0; i < m; i++)
        moving[i].dst = next_hop(moving[i].src, moving[i].dst);
    size_t channels = merge(moving, m);
    long long most = 0;
    for (size_t i = 0; i < channels; i++)
        if (moving[i].words > most)
            most = moving[i].words;
    return most;
}

static int push_step(long long **step_max, int *steps, size_t *cap, long long most)
{
    if ((size_t)*steps == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        long long *s = realloc(*step_max, nc * sizeof *s);
        if (!s)
            return HD_SIM_ENOMEM;
        *step_max = s;
        *cap = nc;
    }
    (*step_max)[(*steps)++] = most;
    return HD_SIM_OK;
}

int hd_saf_run(const hd_saf_parcel *parcels, size_t count, hd_saf_model model, int *steps,
               long long **step_max)
{
    *steps = 0;
    *step_max = NULL;
    for (size_t i = 0; i < count; i++)
        if (parcels[i].src == parcels[i].dst || parcels[i].words <= 0)
            return HD_SIM_EINVAL;
    size_t n = count ? count : 1;
    hd_saf_parcel *pend = malloc(n * sizeof *pend), *moving = malloc(n * sizeof *moving);
    bool *goes = malloc(n * sizeof *goes);
    if (!pend || !moving || !goes) {
        free(pend);
        free(moving);
        free(goes);
        return HD_SIM_ENOMEM;
    }
    memcpy(pend, parcels, count * sizeof *pend);
    size_t m = merge(pend, count), cap = 0;
    int toggle = 0, rc = HD_SIM_OK;
    while (m > 0 && rc == HD_SIM_OK) {
        for (size_t i = 0; i < m; i++) {
            uint32_t k = pend[i].src ^ next_hop(pend[i].src, pend[i].dst);
            goes[i] = model == HD_SAF_BI || ((pend[i].src & k) != 0) == toggle;
        }
        if (model == HD_SAF_UNI) {
            /* The channels the priority ends take, (from, next hop), sorted:
             * the other end's parcel goes where its link's reverse is not
             * among them. */
            size_t nc = 0;
            for (size_t i = 0; i < m; i++)
                if (goes[i])
                    moving[nc++] = (hd_saf_parcel){ pend[i].src,
                                                    next_hop(pend[i].src, pend[i].dst), 0 };
            nc = merge(moving, nc);
            for (size_t i = 0; i < m; i++) {
                if (goes[i])
                    continue;
                hd_saf_parcel rev = { next_hop(pend[i].src, pend[i].dst), pend[i].src, 0 };
                goes[i] = !bsearch(&rev, moving, nc, sizeof *moving, by_src_dst);
            }
        }
        size_t nm = 0, keep = 0;
        for (size_t i = 0; i < m; i++)
            if (goes[i])
                moving[nm++] = pend[i];
        rc = push_step(step_max, steps, &cap, busiest(moving, nm));
        /* Relayed parcels reach their next hop at the end of the step. */
        for (size_t i = 0; i < m; i++) {
            uint32_t l = next_hop(pend[i].src, pend[i].dst);
            if (!goes[i])
                pend[keep++] = pend[i];
            else if (l != pend[i].dst)
                pend[keep++] = (hd_saf_parcel){ l, pend[i].dst, pend[i].words };
        }
        m = merge(pend, keep);
        toggle ^= 1;
    }
    free(pend);
    free(moving);
    free(goes);
    if (rc != HD_SIM_OK) {
        free(*step_max);
        *step_max = NULL;
        *steps = 0;
    }
    return rc;
}
