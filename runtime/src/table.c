/*
 * table.c — arrays distributed by a table (element e on virtual processor
 * owner[e], any size N), and the inspector/executor that gathers the
 * elements a processor's iterations read through an index array.
 *
 * Chung and Ranka 1990 price a finite element mapping by c_kl, the number
 * of distinct nodes of processor k that have a neighbour on l, one word
 * each: a node read by several of l's iterations travels once.  The plan
 * gives exactly that: the inspector (hd_gather_plan_new) sorts and
 * de-duplicates the references it does not own, groups them by owner and
 * tells each owner its list; the executor (hd_gather_run) then sends one
 * message per pair with a nonzero list.  A plan is built once per (d,
 * refs) and reused while refs keep their contents (hd_gather_plan_reuse),
 * so the inspector's two rounds of messages are paid once.
 */
#include "hyperdo.h"
#include "hd_internal.h"
#include "hyperdo/coll.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hd_table_dist {
    hd_index N;
    int P;
    unsigned long serial;  /* which distribution a plan was built for */
    int *owner;            /* N */
    hd_index *local;       /* N: e's local index on its owner */
    hd_index *start;       /* P + 1: where vpid's elements start in byowner */
    hd_index *byowner;     /* N: the elements by owner, then by index */
};

/* A distribution freed and another allocated at its address must not
 * pass for it: plans compare serial numbers, not pointers. */
static atomic_ulong next_serial = 1;

static void *grab(size_t count, size_t size, const char *fn)
{
    void *p = size && count > SIZE_MAX / size ? NULL : malloc(count ? count * size : 1);
    if (!p)
        hd__fatal("%s: out of memory for %zu items", fn, count);
    return p;
}

hd_table_dist *hd__table_dist_make(hd_index N, const int *owner, int P, const char *fn,
                                   const char *name)
{
    char where[256];   /* "hd_run: array x" names the array in a message */
    snprintf(where, sizeof where, "%s%s%s", fn, name ? ": array " : "", name ? name : "");
    if (N < 0 || (N > 0 && !owner))
        hd__fatal("%s: %lld elements, owner table %p", where, (long long)N,
                  (const void *)owner);
    hd_table_dist *d = grab(1, sizeof *d, fn);
    d->N = N;
    d->P = P;
    d->serial = atomic_fetch_add(&next_serial, 1);
    d->owner = grab((size_t)N, sizeof *d->owner, fn);
    d->local = grab((size_t)N, sizeof *d->local, fn);
    d->start = calloc((size_t)P + 1, sizeof *d->start);
    d->byowner = grab((size_t)N, sizeof *d->byowner, fn);
    if (!d->start)
        hd__fatal("%s: out of memory", fn);
    for (hd_index e = 0; e < N; e++) {
        int o = owner[e];
        if (o < 0 || o >= P)
            hd__fatal("%s: element %lld's owner %d is outside 0 .. %d", where, (long long)e,
                      o, P - 1);
        d->owner[e] = o;
        d->local[e] = d->start[o + 1]++;   /* counts for now */
    }
    for (int v = 0; v < P; v++)
        d->start[v + 1] += d->start[v];
    for (hd_index e = 0; e < N; e++)
        d->byowner[d->start[d->owner[e]] + d->local[e]] = e;
    return d;
}

hd_table_dist *hd_table_dist_new(hd_index N, const int *owner)
{
    return hd__table_dist_make(N, owner, hd_nprocs(), "hd_table_dist_new", NULL);
}

void hd_table_dist_free(hd_table_dist *d)
{
    if (!d)
        return;
    free(d->owner);
    free(d->local);
    free(d->start);
    free(d->byowner);
    free(d);
}

static void check_element(const hd_table_dist *d, hd_index e, const char *fn)
{
    if (e < 0 || e >= d->N)
        hd__fatal("%s: element %lld is outside the table's %lld elements", fn,
                  (long long)e, (long long)d->N);
}

static void check_vpid(const hd_table_dist *d, int v, const char *fn)
{
    if (v < 0 || v >= d->P)
        hd__fatal("%s: virtual processor %d is outside 0 .. %d", fn, v, d->P - 1);
}

hd_index hd_table_size(const hd_table_dist *d)
{
    return d->N;
}

int hd_table_owner(const hd_table_dist *d, hd_index e)
{
    check_element(d, e, "hd_table_owner");
    return d->owner[e];
}

hd_index hd_table_local_index(const hd_table_dist *d, hd_index e)
{
    check_element(d, e, "hd_table_local_index");
    return d->local[e];
}

hd_index hd_table_local_count(const hd_table_dist *d, int vpid)
{
    check_vpid(d, vpid, "hd_table_local_count");
    return d->start[vpid + 1] - d->start[vpid];
}

hd_index hd_table_global_index(const hd_table_dist *d, int vpid, hd_index i)
{
    check_vpid(d, vpid, "hd_table_global_index");
    if (i < 0 || i >= d->start[vpid + 1] - d->start[vpid])
        hd__fatal("hd_table_global_index: local index %lld is outside virtual processor "
                  "%d's %lld elements", (long long)i, vpid,
                  (long long)(d->start[vpid + 1] - d->start[vpid]));
    return d->byowner[d->start[vpid] + i];
}

/* ------------------------------------------------ the plan */

struct hd_gather_plan {
    unsigned long serial;  /* the distribution's */
    int P, me;
    long builds;
    hd_index *refs;        /* a copy, for hd_gather_plan_reuse */
    size_t nrefs;
    /* What this processor receives: the distinct elements it needs from
     * each v, sorted, end to end; from v they are need[in_at[v] ..
     * in_at[v + 1]), which is also where they land in the executor's
     * buffer. */
    size_t *in_at;         /* P + 1 */
    hd_index *need;
    /* What it sends: to v, its local indices out_idx[out_at[v] ..
     * out_at[v + 1]), in v's order. */
    size_t *out_at;        /* P + 1 */
    hd_index *out_idx;
    /* Where values[i] comes from: >= 0, the element's slot in the
     * received buffer; < 0, local index -1 - src[i] of this processor. */
    hd_index *src;
};

static int by_index(const void *a, const void *b)
{
    hd_index x = *(const hd_index *)a, y = *(const hd_index *)b;
    return (x > y) - (x < y);
}

/* The position of e in the sorted a[0 .. n), which holds it. */
static size_t position(const hd_index *a, size_t n, hd_index e)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] <= e)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

hd_gather_plan *hd_gather_plan_new(const hd_table_dist *d, const hd_index *refs,
                                   size_t nrefs)
{
    const char *fn = "hd_gather_plan_new";
    if (!d)
        hd__fatal("%s: no distribution (null pointer)", fn);
    int P = d->P, me = hd_v_get_pid();
    hd_gather_plan *p = calloc(1, sizeof *p);
    if (!p)
        hd__fatal("%s: out of memory", fn);
    p->serial = d->serial;
    p->P = P;
    p->me = me;
    p->builds = 1;
    p->nrefs = nrefs;
    p->refs = grab(nrefs, sizeof *p->refs, fn);
    p->src = grab(nrefs, sizeof *p->src, fn);
    p->in_at = calloc((size_t)P + 1, sizeof *p->in_at);
    p->out_at = calloc((size_t)P + 1, sizeof *p->out_at);
    if (!p->in_at || !p->out_at)
        hd__fatal("%s: out of memory", fn);

    /* The distinct elements of others, sorted by index: stable when
     * spread by owner, so each owner's list is sorted too. */
    hd_index *distinct = grab(nrefs, sizeof *distinct, fn);
    size_t m = 0;
    for (size_t i = 0; i < nrefs; i++) {
        check_element(d, refs[i], fn);
        p->refs[i] = refs[i];
        if (d->owner[refs[i]] != me)
            distinct[m++] = refs[i];
    }
    qsort(distinct, m, sizeof *distinct, by_index);
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (k == 0 || distinct[k - 1] != distinct[i])
            distinct[k++] = distinct[i];
    for (size_t i = 0; i < k; i++)
        p->in_at[d->owner[distinct[i]] + 1]++;
    for (int v = 0; v < P; v++)
        p->in_at[v + 1] += p->in_at[v];
    p->need = grab(k, sizeof *p->need, fn);
    {
        size_t *fill = grab((size_t)P, sizeof *fill, fn);
        memcpy(fill, p->in_at, (size_t)P * sizeof *fill);
        for (size_t i = 0; i < k; i++)
            p->need[fill[d->owner[distinct[i]]]++] = distinct[i];
        free(fill);
    }
    free(distinct);
    for (size_t i = 0; i < nrefs; i++) {
        hd_index e = refs[i];
        int o = d->owner[e];
        if (o == me)
            p->src[i] = -1 - d->local[e];
        else
            p->src[i] = (hd_index)(p->in_at[o] +
                                   position(p->need + p->in_at[o], p->in_at[o + 1] - p->in_at[o], e));
    }

    /* Tell each owner how many (every pair, 8 bytes: the owner cannot
     * know otherwise), then what; sends never wait, so all sends first. */
    for (int v = 0; v < P; v++)
        if (v != me) {
            uint64_t c = p->in_at[v + 1] - p->in_at[v];
            hd_v_send(v, &c, sizeof c);
        }
    for (int v = 0; v < P; v++)
        if (v != me) {
            uint64_t c;
            hd_v_receive(v, &c, sizeof c);
            p->out_at[v + 1] = (size_t)c;
        }
    for (int v = 0; v < P; v++)
        p->out_at[v + 1] += p->out_at[v];
    p->out_idx = grab(p->out_at[P], sizeof *p->out_idx, fn);
    for (int v = 0; v < P; v++)
        if (v != me && p->in_at[v + 1] > p->in_at[v])
            hd_v_send(v, p->need + p->in_at[v], (p->in_at[v + 1] - p->in_at[v]) * sizeof(hd_index));
    for (int v = 0; v < P; v++) {
        size_t c = p->out_at[v + 1] - p->out_at[v];
        if (v == me || c == 0)
            continue;
        hd_index *asked = p->out_idx + p->out_at[v];
        hd_v_receive(v, asked, c * sizeof *asked);
        for (size_t j = 0; j < c; j++) {
            if (asked[j] < 0 || asked[j] >= d->N || d->owner[asked[j]] != me)
                hd__fatal("%s: virtual processor %d asked for element %lld, which is not "
                          "this processor's (do all processors hold the same table?)",
                          fn, v, (long long)asked[j]);
            asked[j] = d->local[asked[j]];
        }
    }
    return p;
}

void hd_gather_run(const hd_gather_plan *p, const void *local, size_t elem_size, void *values)
{
    if (!p)
        hd__fatal("hd_gather_run: no plan (null pointer)");
    const unsigned char *y = local;
    unsigned char *out = values;
    int P = p->P, me = p->me;
    size_t most = 0;
    for (int v = 0; v < P; v++)
        if (p->out_at[v + 1] - p->out_at[v] > most)
            most = p->out_at[v + 1] - p->out_at[v];
    unsigned char *pack = grab(most, elem_size, "hd_gather_run");
    unsigned char *in = grab(p->in_at[P], elem_size, "hd_gather_run");
    for (int v = 0; v < P; v++) {
        size_t c = p->out_at[v + 1] - p->out_at[v];
        if (v == me || c == 0)
            continue;
        const hd_index *idx = p->out_idx + p->out_at[v];
        for (size_t j = 0; j < c; j++)
            memcpy(pack + j * elem_size, y + (size_t)idx[j] * elem_size, elem_size);
        hd_v_send(v, pack, c * elem_size);   /* copied: pack may be reused */
    }
    for (int v = 0; v < P; v++) {
        size_t c = p->in_at[v + 1] - p->in_at[v];
        if (v != me && c > 0)
            hd_v_receive(v, in + p->in_at[v] * elem_size, c * elem_size);
    }
    for (size_t i = 0; i < p->nrefs; i++) {
        hd_index s = p->src[i];
        const unsigned char *from = s >= 0 ? in + (size_t)s * elem_size
                                           : y + (size_t)(-1 - s) * elem_size;
        memcpy(out + i * elem_size, from, elem_size);
    }
    free(pack);
    free(in);
}

hd_gather_plan *hd_gather_plan_reuse(hd_gather_plan *old, const hd_table_dist *d,
                                     const hd_index *refs, size_t nrefs)
{
    if (!d)
        hd__fatal("hd_gather_plan_reuse: no distribution (null pointer)");
    int32_t changed = !old || old->serial != d->serial || old->nrefs != nrefs ||
                      (nrefs && memcmp(old->refs, refs, nrefs * sizeof *refs) != 0);
    int32_t any = changed;
    /* A rebuild exchanges messages with every processor: all rebuild or
     * none does. */
    if (hd_nprocs() > 1)
        hd_coll_allreduce(&changed, &any, 1, HD_T_INT32, HD_OP_MAX);
    if (!any)
        return old;
    long builds = old ? old->builds : 0;
    hd_gather_plan_free(old);
    hd_gather_plan *p = hd_gather_plan_new(d, refs, nrefs);
    p->builds = builds + 1;
    return p;
}

void hd_gather_plan_free(hd_gather_plan *p)
{
    if (!p)
        return;
    free(p->refs);
    free(p->src);
    free(p->in_at);
    free(p->need);
    free(p->out_at);
    free(p->out_idx);
    free(p);
}

long hd_gather_plan_builds(const hd_gather_plan *p)
{
    return p ? p->builds : 0;
}

size_t hd_gather_plan_words_to(const hd_gather_plan *p, int vpid)
{
    if (!p || vpid < 0 || vpid >= p->P)
        hd__fatal("hd_gather_plan_words_to: virtual processor %d out of range", vpid);
    return vpid == p->me ? 0 : p->out_at[vpid + 1] - p->out_at[vpid];
}

size_t hd_gather_plan_words_from(const hd_gather_plan *p, int vpid)
{
    if (!p || vpid < 0 || vpid >= p->P)
        hd__fatal("hd_gather_plan_words_from: virtual processor %d out of range", vpid);
    return vpid == p->me ? 0 : p->in_at[vpid + 1] - p->in_at[vpid];
}
