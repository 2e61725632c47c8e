/*
 * linkbound.c — the exact link-bound simulator (linkbound.h), Section 9's
 * lower bounds, and the closed forms of Sections 2-8 as the cost model
 * prices them.
 *
 * What each node holds is kept per (node, message) as sorted disjoint
 * segments [lo, hi) with the time they became available and a 64-bit
 * fingerprint of their contents: for a copy, the message's; for a
 * reduction, the wrapping sum of the contributing nodes' random weights,
 * so a block that misses or repeats a contribution is caught at the end
 * (with probability 1 - 2^-64 per block).
 */
#include "linkbound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    hd_q lo, hi, time;
    uint64_t fp;
} seg;

typedef struct {
    seg *v;
    size_t n, cap;
} segvec;

/* (node, message) -> segvec, open addressing. */
typedef struct {
    uint64_t *keys;     /* key + 1; 0 is empty */
    segvec *vals;
    size_t cap, used;
} seg_map;

typedef struct {
    const hd_coll_sched *s;
    seg_map map;
    int nomem;
    int *ov;
} sim;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t weight(int node)
{
    return mix(0x5357u * 65537u + (uint64_t)node);
}

static int seg_push(sim *S, segvec *sv, size_t at, seg x)
{
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? 2 * sv->cap : 4;
        seg *p = realloc(sv->v, cap * sizeof *p);
        if (!p) {
            S->nomem = 1;
            return -1;
        }
        sv->v = p;
        sv->cap = cap;
    }
    memmove(sv->v + at + 1, sv->v + at, (sv->n - at) * sizeof *sv->v);
    sv->v[at] = x;
    sv->n++;
    return 0;
}

static int map_grow(sim *S)
{
    seg_map *m = &S->map, old = *m;
    size_t cap = old.cap ? 2 * old.cap : 1024;
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = calloc(cap, sizeof *m->vals);
    if (!m->keys || !m->vals) {
        free(m->keys);
        free(m->vals);
        *m = old;
        S->nomem = 1;
        return -1;
    }
    m->cap = cap;
    m->used = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i]) {
            size_t h = mix(old.keys[i]) & (cap - 1);
            while (m->keys[h])
                h = (h + 1) & (cap - 1);
            m->keys[h] = old.keys[i];
            m->vals[h] = old.vals[i];
            m->used++;
        }
    free(old.keys);
    free(old.vals);
    return 0;
}

/* The segments of msg at node v; created (with what v starts with) when
 * `create`, else NULL if v has nothing of msg. */
static segvec *held(sim *S, int v, uint32_t msg, int create)
{
    seg_map *m = &S->map;
    uint64_t key = ((uint64_t)(uint32_t)v << 32 | msg) + 1;
    if (m->cap) {
        size_t h = mix(key) & (m->cap - 1);
        while (m->keys[h]) {
            if (m->keys[h] == key)
                return &m->vals[h];
            h = (h + 1) & (m->cap - 1);
        }
    }
    const hd_coll_sched *s = S->s;
    int origin = hd_coll_msg_origin(s, msg);
    int starts = origin == v || (s->kind == HD_MSG_REDUCE);
    if (!create && !starts)
        return NULL;
    if ((m->used + 1) * 2 > m->cap && map_grow(S))
        return NULL;
    size_t h = mix(key) & (m->cap - 1);
    while (m->keys[h])
        h = (h + 1) & (m->cap - 1);
    m->keys[h] = key;
    m->used++;
    segvec *sv = &m->vals[h];
    if (starts) {
        uint64_t fp = s->kind == HD_MSG_REDUCE ? weight(v) : mix(msg);
        seg_push(S, sv, 0, (seg){ hd_q_int(0), hd_q_int(1), hd_q_int(0), fp });
    }
    return sv;
}

/* Splits the segment containing x (strictly inside) in two. */
static void split_at(sim *S, segvec *sv, hd_q x)
{
    for (size_t i = 0; i < sv->n; i++)
        if (hd_q_cmp(sv->v[i].lo, x) < 0 && hd_q_cmp(x, sv->v[i].hi) < 0) {
            seg right = sv->v[i];
            right.lo = x;
            sv->v[i].hi = x;
            seg_push(S, sv, i + 1, right);
            return;
        }
}

/* A piece of data in flight. */
typedef struct {
    int dst;
    uint32_t msg;
    hd_q lo, hi, time;
    uint64_t fp;
    uint8_t combine;
} piece;

typedef struct {
    piece *v;
    size_t n, cap;
} piece_vec;

static int piece_push(sim *S, piece_vec *pv, piece p)
{
    if (pv->n == pv->cap) {
        size_t cap = pv->cap ? 2 * pv->cap : 256;
        piece *q = realloc(pv->v, cap * sizeof *q);
        if (!q) {
            S->nomem = 1;
            return -1;
        }
        pv->v = q;
        pv->cap = cap;
    }
    pv->v[pv->n++] = p;
    return 0;
}

/* Stores a received piece: a reduction's is added into what the receiver
 * holds; a copy fills what it lacks (what it already holds is counted as
 * duplicated and kept, since it was there earlier), except that the copy
 * of a reduced block replaces the receiver's partial sum. */
static void deliver(sim *S, const piece *p, size_t *duplicated)
{
    segvec *sv = held(S, p->dst, p->msg, 1);
    if (!sv)
        return;
    split_at(S, sv, p->lo);
    split_at(S, sv, p->hi);
    int replace = !p->combine && S->s->kind == HD_MSG_REDUCE;
    int dup = 0;
    hd_q at = p->lo;
    size_t i = 0;
    while (i < sv->n && hd_q_cmp(sv->v[i].hi, p->lo) <= 0)
        i++;
    while (hd_q_cmp(at, p->hi) < 0) {
        if (i < sv->n && hd_q_cmp(sv->v[i].lo, at) <= 0) {
            seg *g = &sv->v[i];
            if (p->combine) {
                g->fp += p->fp;
                g->time = hd_q_max(g->time, p->time);
            } else if (replace) {
                g->fp = p->fp;
                g->time = p->time;
            } else if (hd_coll_msg_wanted(S->s, p->msg, p->dst) &&
                       hd_coll_msg_origin(S->s, p->msg) != p->dst) {
                dup = 1;
            }
            at = g->hi;
            i++;
        } else {
            hd_q end = i < sv->n && hd_q_cmp(sv->v[i].lo, p->hi) < 0 ? sv->v[i].lo : p->hi;
            if (seg_push(S, sv, i, (seg){ at, end, p->time, p->fp }))
                return;
            at = end;
            i++;
        }
    }
    if (dup)
        ++*duplicated;
}

static int link_dim(int a, int b)
{
    unsigned x = (unsigned)(a ^ b);
    if (x == 0 || (x & (x - 1)))
        return -1;
    return __builtin_ctz(x);
}

int hd_lb_simulate(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m, hd_lb_result *r)
{
    return hd_lb_simulate_ports(s, tau, beta, m, 0, r);
}

int hd_lb_simulate_ports(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m, int one_port,
                         hd_lb_result *r)
{
    memset(r, 0, sizeof *r);
    int ov = 0;
    sim S = { s, { 0 }, 0, &ov };
    int d = s->shape.d, P = s->P;
    hd_q unit = hd_q_mul(m, s->msg_items, &ov);
    hd_q *link_free = calloc((size_t)P * (d ? d : 1), sizeof *link_free);
    int *link_stage = malloc((size_t)P * (d ? d : 1) * sizeof *link_stage);
    /* One-port: a node's sends also wait for its previous send. */
    hd_q *node_free = calloc((size_t)P, sizeof *node_free);
    r->stages = calloc(s->nstages ? (size_t)s->nstages : 1, sizeof *r->stages);
    piece_vec pending = { 0 };
    if (!link_free || !link_stage || !r->stages || !node_free) {
        S.nomem = 1;
        goto out;
    }
    for (size_t i = 0; i < (size_t)P * (d ? d : 1); i++) {
        link_free[i] = hd_q_int(0);
        link_stage[i] = -1;
    }
    for (int v = 0; v < P; v++)
        node_free[v] = hd_q_int(0);
    r->nstages = s->nstages;
    r->time = hd_q_int(0);
    for (int st = 0; st < s->nstages; st++)
        r->stages[st].max_load = r->stages[st].end = hd_q_int(0);
    size_t x = 0;
    while (x < s->nxfers && !S.nomem) {
        int stage = s->xfers[x].stage;
        hd_lb_stage *rs = &r->stages[stage];
        pending.n = 0;
        for (; x < s->nxfers && s->xfers[x].stage == stage; x++) {
            const hd_coll_xfer *t = &s->xfers[x];
            int dim = link_dim(t->src, t->dst);
            if (dim < 0 || t->src >= P || t->dst >= P) {
                snprintf(r->error, sizeof r->error,
                         "stage %d: nodes %d and %d are not neighbours", stage, t->src, t->dst);
                goto out;
            }
            size_t li = (size_t)t->src * d + dim;
            if (link_stage[li] == stage) {
                rs->conflicts++;
                r->conflicts++;
            } else {
                rs->links++;
            }
            link_stage[li] = stage;
            hd_q items = hd_q_int(0), ready = hd_q_int(0);
            size_t first_piece = pending.n;
            for (uint32_t c = 0; c < t->count; c++) {
                const hd_coll_chunk *ch = &s->chunks[t->first + c];
                items = hd_q_add(items, hd_q_mul(hd_q_sub(ch->hi, ch->lo, &ov), unit, &ov), &ov);
                if (hd_q_cmp(ch->lo, ch->hi) >= 0)
                    continue;
                segvec *sv = held(&S, t->src, ch->msg, 0);
                hd_q at = ch->lo;
                for (size_t i = 0; sv && i < sv->n; i++) {
                    const seg *g = &sv->v[i];
                    if (hd_q_cmp(g->hi, at) <= 0 || hd_q_cmp(g->lo, ch->hi) >= 0)
                        continue;
                    if (hd_q_cmp(g->lo, at) > 0)
                        break;
                    hd_q hi = hd_q_cmp(g->hi, ch->hi) < 0 ? g->hi : ch->hi;
                    ready = hd_q_max(ready, g->time);
                    piece_push(&S, &pending, (piece){ t->dst, ch->msg, at, hi, hd_q_int(0), g->fp,
                                                      t->combine });
                    at = hi;
                }
                if (hd_q_cmp(at, ch->hi) < 0) {
                    snprintf(r->error, sizeof r->error,
                             "stage %d: node %d sends part [%lld/%lld, %lld/%lld) of message %u, "
                             "which it does not hold",
                             stage, t->src, (long long)ch->lo.n, (long long)ch->lo.d,
                             (long long)ch->hi.n, (long long)ch->hi.d, ch->msg);
                    goto out;
                }
            }
            hd_q start = hd_q_max(ready, link_free[li]);
            if (one_port)
                start = hd_q_max(start, node_free[t->src]);
            hd_q end = hd_q_add(start, hd_q_add(hd_q_mul(tau, items, &ov), beta, &ov), &ov);
            link_free[li] = end;
            node_free[t->src] = end;
            for (size_t i = first_piece; i < pending.n; i++)
                pending.v[i].time = end;
            rs->xfers++;
            r->transfers++;
            rs->max_load = hd_q_max(rs->max_load, items);
            rs->end = hd_q_max(rs->end, end);
            r->time = hd_q_max(r->time, end);
        }
        for (size_t i = 0; i < pending.n && !S.nomem; i++)
            deliver(&S, &pending.v[i], &r->duplicated);
    }
    /* What every node holds at the end against what it must. */
    uint64_t total = 0;
    for (int v = 0; v < P; v++)
        total += weight(v);
    for (uint32_t msg = 0; msg < s->nmsgs && !S.nomem; msg++)
        for (int v = 0; v < P; v++) {
            if (!hd_coll_msg_wanted(s, msg, v))
                continue;
            segvec *sv = held(&S, v, msg, 0);
            hd_q at = hd_q_int(0);
            int sums_ok = 1;
            for (size_t i = 0; sv && i < sv->n; i++) {
                if (hd_q_cmp(sv->v[i].lo, at) > 0)
                    break;
                if (s->kind == HD_MSG_REDUCE && sv->v[i].fp != total)
                    sums_ok = 0;
                at = hd_q_max(at, sv->v[i].hi);
            }
            if (hd_q_cmp(at, hd_q_int(1)) < 0)
                r->undelivered++;
            else if (!sums_ok)
                r->wrong_sums++;
        }
out:
    for (size_t i = 0; i < S.map.cap; i++)
        free(S.map.vals[i].v);
    free(S.map.keys);
    free(S.map.vals);
    free(pending.v);
    free(link_free);
    free(link_stage);
    free(node_free);
    if (S.nomem && !r->error[0])
        snprintf(r->error, sizeof r->error, "out of memory");
    if (ov && !r->error[0])
        snprintf(r->error, sizeof r->error, "a time or a size left the 64-bit rationals");
    return r->error[0] ? -1 : 0;
}

void hd_lb_result_free(hd_lb_result *r)
{
    free(r->stages);
    r->stages = NULL;
}

/* ------------------------------------------------- Section 9 */

static int hamming(int a, int b)
{
    return __builtin_popcount((unsigned)(a ^ b));
}

hd_q hd_lb_lower_bound(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m, int *ov)
{
    int d = s->shape.d, P = s->P;
    if (d == 0)
        return hd_q_int(0);
    hd_q load;   /* a / |S|, in items */
    switch (s->shape.alg) {
    case HD_COLL_DISTRIBUTE1:
    case HD_COLL_DISTRIBUTE2:
    case HD_COLL_COLLECT:
    case HD_COLL_ALLGATHER:
        /* The d links out of (into) node 0 carry (2^d - 1) m. */
        load = hd_q_mul(m, hd_q_frac(P - 1, d), ov);
        break;
    case HD_COLL_XOCSEND1:
    case HD_COLL_XOCSEND2:
        /* Everything enters the subcube S by the one link from the sender
         * (our bound: X.O.C. SEND routes all of it through S). */
        load = m;
        break;
    case HD_COLL_INVERSION:
        load = m;
        break;
    case HD_COLL_ALLTOALL:
        load = hd_q_mul(m, hd_q_int(P / 2), ov);
        break;
    case HD_COLL_TRANSPOSE_ROWS:
        load = hd_q_mul(m, hd_q_frac(1, 2), ov);
        break;
    case HD_COLL_HISTOGRAM:
        load = hd_q_mul(m, hd_q_frac(P - 1, (int64_t)P * d), ov);
        break;
    case HD_COLL_PERMUTED:
    case HD_COLL_TRANSPOSE_BLOCKS:
    case HD_COLL_TRANSPOSE_LC: {
        /* The larger of two cuts: the 2^(d-1) links of one dimension in one
         * direction against the messages that must cross them, and all
         * d 2^d links against the total distance travelled. */
        int64_t best = 0, dist = 0;
        for (int b = 0; b < d; b++)
            for (int dir = 0; dir < 2; dir++) {
                int64_t cross = 0;
                for (int x = 0; x < P; x++)
                    if ((x >> b & 1) == dir && (s->perm[x] >> b & 1) != dir)
                        cross++;
                if (cross > best)
                    best = cross;
            }
        for (int x = 0; x < P; x++)
            dist += hamming(x, s->perm[x]);
        if (best == 0)
            return hd_q_int(0);
        hd_q a = hd_q_frac(best, P / 2), b = hd_q_frac(dist, (int64_t)d * P);
        load = hd_q_mul(m, hd_q_max(a, b), ov);
        break;
    }
    default:
        /* BROADCAST, O.C. and ARBITRARY SEND: the d links out of node 0
         * carry m. */
        load = hd_q_mul(m, hd_q_frac(1, d), ov);
        break;
    }
    return hd_q_add(hd_q_mul(tau, load, ov), beta, ov);
}

/* ------------------------------------------------- closed forms */

/* (stages) * (tau * items + beta). */
static hd_q stages_of(int64_t k, hd_q tau, hd_q items, hd_q beta, int *ov)
{
    return hd_q_mul(hd_q_int(k), hd_q_add(hd_q_mul(tau, items, ov), beta, ov), ov);
}

/* O.C. SEND 4 of `items` in an l-cube with g groups (Section 3):
 * (g + K_{l-1} - 1) tau items / (l g) + (g + l - 1) beta; for l = 1 the
 * g groups cross one link: g (tau items / g + beta). */
static hd_q oc4(int l, int g, hd_q tau, hd_q beta, hd_q items, int *ov)
{
    if (l == 1)
        return stages_of(g, tau, hd_q_div(items, hd_q_int(g), ov), beta, ov);
    hd_q K = hd_coll_K(l - 1);
    hd_q coef = hd_q_div(hd_q_add(hd_q_int(g - 1), K, ov), hd_q_int((int64_t)l * g), ov);
    return hd_q_add(hd_q_mul(hd_q_mul(coef, tau, ov), items, ov),
                    hd_q_mul(hd_q_int(g + l - 1), beta, ov), ov);
}

/* X.O.C. SEND 2 of `items` through an n-cube with g groups (Section 4):
 * (g n + n + K_{n-1}) tau items / (g n) + (g + n + 1) beta. */
static hd_q xoc2(int n, int g, hd_q tau, hd_q beta, hd_q items, int *ov)
{
    hd_q K = hd_coll_K(n - 1);
    hd_q coef = hd_q_div(hd_q_add(hd_q_int((int64_t)g * n + n), K, ov),
                         hd_q_int((int64_t)g * n), ov);
    return hd_q_add(hd_q_mul(hd_q_mul(coef, tau, ov), items, ov),
                    hd_q_mul(hd_q_int(g + n + 1), beta, ov), ov);
}

hd_q hd_lb_formula(const hd_coll_shape *sh, hd_q tau, hd_q beta, hd_q m, int *ov)
{
    int d = sh->d, g = sh->g, n = sh->n;
    int64_t P = (int64_t)1 << d;
    hd_q zero = hd_q_int(0);
    if (d == 0)
        return zero;
    hd_q md = hd_q_div(m, hd_q_int(d), ov);
    switch (sh->alg) {
    case HD_COLL_BCAST1:
    case HD_COLL_OCSEND1:
        return stages_of(d, tau, m, beta, ov);                      /* d tau m + d beta */
    case HD_COLL_BCAST2:
    case HD_COLL_BCAST3B:
    case HD_COLL_OCSEND2:
    case HD_COLL_INVERSION:
        return stages_of(d, tau, md, beta, ov);                     /* tau m + d beta */
    case HD_COLL_BCAST3A:
        return stages_of(d + 1, tau, md, beta, ov);
    case HD_COLL_BCAST4:
        return stages_of(d + g - 1, tau, hd_q_div(md, hd_q_int(g), ov), beta, ov);
    case HD_COLL_OCSEND3:
        return oc4(d, 1, tau, beta, m, ov);
    case HD_COLL_OCSEND4:
        return oc4(d, g, tau, beta, m, ov);
    case HD_COLL_ARBSEND1:
        return oc4(n, g, tau, beta, m, ov);
    case HD_COLL_ARBSEND2:
        /* n + g + 1 stages (the paper prints n + g - 1) for n <= d - 2. */
        return stages_of(n <= d - 2 ? n + g + 1 : d + g - 1, tau,
                         hd_q_div(md, hd_q_int(g), ov), beta, ov);
    case HD_COLL_ARBSEND3: {
        hd_q a = oc4(n, g, tau, beta, hd_q_mul(md, hd_q_int(n), ov), ov);
        if (n < d)
            a = hd_q_max(a, xoc2(n, g, tau, beta, md, ov));
        return a;
    }
    case HD_COLL_XOCSEND1:
        return xoc2(n, 1, tau, beta, m, ov);
    case HD_COLL_XOCSEND2:
        return xoc2(n, g, tau, beta, m, ov);
    case HD_COLL_DISTRIBUTE1:
    case HD_COLL_COLLECT:
    case HD_COLL_ALLGATHER:
        /* (2^d - 1) tau m / d + d beta */
        return hd_q_add(hd_q_mul(hd_q_mul(tau, md, ov), hd_q_int(P - 1), ov),
                        hd_q_mul(hd_q_int(d), beta, ov), ov);
    case HD_COLL_DISTRIBUTE2:
        /* (2^d - 1) tau m / d + k beta, k waves (in g), for m large enough */
        return hd_q_add(hd_q_mul(hd_q_mul(tau, md, ov), hd_q_int(P - 1), ov),
                        hd_q_mul(hd_q_int(g), beta, ov), ov);
    case HD_COLL_ALLTOALL:
        return hd_q_add(hd_q_mul(hd_q_mul(tau, m, ov), hd_q_int(P / 2), ov),
                        hd_q_mul(hd_q_int(d), beta, ov), ov);
    case HD_COLL_TRANSPOSE_ROWS:
        /* A complete exchange of m / 2^d: tau m / 2 + d beta. */
        return hd_q_add(hd_q_mul(hd_q_mul(tau, m, ov), hd_q_frac(1, 2), ov),
                        hd_q_mul(hd_q_int(d), beta, ov), ov);
    case HD_COLL_PERMUTED:
    case HD_COLL_TRANSPOSE_BLOCKS:
        return hd_q_add(hd_q_mul(tau, m, ov), hd_q_mul(hd_q_int(2 * d), beta, ov), ov);
    case HD_COLL_TRANSPOSE_LC: {
        /* (q + 1)(tau m / 2q + beta), every l.c. subcube using q = k p. */
        int q = sh->q;
        return stages_of(q + 1, tau, hd_q_div(m, hd_q_int(2 * (int64_t)q), ov), beta, ov);
    }
    case HD_COLL_HISTOGRAM: {
        /* (1 - 2^-d) tau m / d + d beta, m the bins */
        hd_q t = hd_q_add(hd_q_mul(hd_q_mul(tau, md, ov), hd_q_frac(P - 1, P), ov),
                          hd_q_mul(hd_q_int(d), beta, ov), ov);
        if (sh->then != HD_RED_SCATTER)   /* then COLLECT or COMPLETE BROADCAST of blocks m / 2^d */
            t = hd_q_add(t, hd_q_add(hd_q_mul(hd_q_mul(tau, hd_q_div(md, hd_q_int(P), ov), ov),
                                              hd_q_int(P - 1), ov),
                                     hd_q_mul(hd_q_int(d), beta, ov), ov), ov);
        return t;
    }
    default:
        return zero;
    }
}
