/*
 * engine.c — the network of sim.h, cycle by cycle.
 *
 * A message in the network is a worm.  Its path is the channels
 * c_1 .. c_H: c_1 the source's injection channel, c_2 .. c_{H-1} the
 * D = H - 2 channels of the cube, c_H the destination's ejection channel.
 * With one-flit buffers and every flit of a worm moving in the same cycle,
 * a worm never has a gap: after s moves, flit f (0 = header) has crossed
 * min(max(s - f, 0), H) channels.  So a worm's state is s (`step`), and
 * one move advances every flit of it, which is what a flit-by-flit
 * simulation of this model does (docs/simulator.md argues it).
 *
 * One cycle t:
 *   1. sources: messages become ready; a source whose injection channel is
 *      free puts the message at the head of its queue into the network
 *      (the channel is granted to it);
 *   2. requests: every header in a router's buffer whose next channel is
 *      not yet granted asks for one, if free (e-cube: the only one;
 *      P-cube: the lowest-dimension free one allowed);
 *   3. grants: each requested channel goes to the request of the header
 *      that arrived first (ties: lower input dimension, injection last);
 *   4. moves: every worm whose header holds its next channel (or has
 *      reached the destination) moves one step; a channel whose buffer
 *      the tail leaves is released, and can be granted from cycle t + 1.
 * Requests see only the state left by the previous cycle, so the order in
 * which worms are visited changes nothing.
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STALL_LIMIT (UINT64_C(1) << 20)
#define PROGRESS_EVERY 4096

typedef struct {
    uint32_t src, dst;
    uint32_t cur;            /* router whose buffer holds the header */
    uint32_t flits;
    uint32_t msg;            /* phase mode: index of the message */
    int32_t hops;            /* H */
    int32_t step;            /* s */
    int32_t len;             /* channels granted: path[0 .. len) */
    int32_t port;            /* header's input: its dimension, n = injection */
    uint64_t ready;          /* cycle it was ready at its source */
    uint64_t arrive;         /* cycle the header entered its buffer */
    int32_t path[HD_SIM_MAX_DIM + 2];
} worm;

struct hd_sim {
    int n;
    hd_sim_routing routing;
    uint32_t nodes;
    uint32_t nchan;          /* nodes * n cube channels, then injection,
                                then ejection */
    int32_t *owner;          /* worm holding the channel, or -1 */
    uint64_t *headers;       /* headers that crossed the channel */
    uint64_t *claim_key;     /* best request this cycle ... */
    int32_t *claim_worm;
    uint64_t *claim_stamp;   /* ... valid when equal to t + 1 */
    int32_t *claimed;        /* channels requested this cycle */
    worm *worms;
    int32_t *free_worms;
    int32_t nfree;
    int32_t *active;
    int32_t nactive;

    /* Per run. */
    bool phase;                  /* phase mode, else open loop */
    hd_sim_message *msg;         /* phase mode */
    uint64_t win_lo, win_hi;     /* open loop: measured window [lo, hi) */
    uint64_t *hist;              /* open loop: latency histogram */
    uint64_t hist_size;
    uint64_t win_delivered_flits;
    uint64_t moved;              /* worms that moved in the last cycle */
    hd_sim_counts counts;
};

/* ------------------------------------------------------------- basics */

const char *hd_sim_routing_name(hd_sim_routing r)
{
    return r == HD_SIM_ECUBE ? "ecube" : r == HD_SIM_PCUBE ? "pcube" : "?";
}

bool hd_sim_routing_parse(const char *s, hd_sim_routing *r)
{
    if (strcmp(s, "ecube") == 0 || strcmp(s, "e-cube") == 0)
        *r = HD_SIM_ECUBE;
    else if (strcmp(s, "pcube") == 0 || strcmp(s, "p-cube") == 0)
        *r = HD_SIM_PCUBE;
    else
        return false;
    return true;
}

uint64_t hd_sim_zero_load_latency(int hops, uint32_t flits)
{
    return (uint64_t)flits + (uint64_t)hops + 1;
}

/* The arrays hd_sim_new allocates, each nchan long: one list for
 * checking the allocations and for freeing them. */
enum { NARRAYS = 9 };
typedef struct {
    void *p[NARRAYS];
} sim_arrays;

static sim_arrays arrays_of(const hd_sim *s)
{
    return (sim_arrays){ { s->owner, s->headers, s->claim_key, s->claim_worm, s->claim_stamp,
                           s->claimed, s->worms, s->free_worms, s->active } };
}

void hd_sim_free(hd_sim *s)
{
    if (!s)
        return;
    sim_arrays a = arrays_of(s);
    for (int k = 0; k < NARRAYS; k++)
        free(a.p[k]);
    free(s);
}

hd_sim *hd_sim_new(int n, hd_sim_routing routing)
{
    if (n < 1 || n > HD_SIM_MAX_DIM ||
        (routing != HD_SIM_ECUBE && routing != HD_SIM_PCUBE))
        return NULL;
    hd_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n;
    s->routing = routing;
    s->nodes = UINT32_C(1) << n;
    s->nchan = s->nodes * (uint32_t)(n + 2);
    size_t c = s->nchan;
    s->owner = malloc(c * sizeof *s->owner);
    s->headers = malloc(c * sizeof *s->headers);
    s->claim_key = malloc(c * sizeof *s->claim_key);
    s->claim_worm = malloc(c * sizeof *s->claim_worm);
    s->claim_stamp = malloc(c * sizeof *s->claim_stamp);
    s->claimed = malloc(c * sizeof *s->claimed);
    /* Every worm in the network holds at least one channel. */
    s->worms = malloc(c * sizeof *s->worms);
    s->free_worms = malloc(c * sizeof *s->free_worms);
    s->active = malloc(c * sizeof *s->active);
    sim_arrays a = arrays_of(s);
    for (int k = 0; k < NARRAYS; k++)
        if (!a.p[k]) {
            hd_sim_free(s);
            return NULL;
        }
    return s;
}

int hd_sim_dim(const hd_sim *s)
{
    return s->n;
}

static void reset(hd_sim *s)
{
    for (uint32_t c = 0; c < s->nchan; c++) {
        s->owner[c] = -1;
        s->claim_stamp[c] = 0;
    }
    memset(s->headers, 0, s->nchan * sizeof *s->headers);
    s->nfree = (int32_t)s->nchan;
    for (int32_t w = 0; w < s->nfree; w++)
        s->free_worms[w] = s->nfree - 1 - w;
    s->nactive = 0;
    s->win_delivered_flits = 0;
    memset(&s->counts, 0, sizeof s->counts);
}

static uint32_t inj_channel(const hd_sim *s, uint32_t z)
{
    return s->nodes * (uint32_t)s->n + z;
}

static uint32_t ej_channel(const hd_sim *s, uint32_t z)
{
    return s->nodes * (uint32_t)(s->n + 1) + z;
}

/* Busiest channel of each dimension, from the header counts. */
static void finish_counts(hd_sim *s, uint64_t cycles)
{
    int n = s->n;
    s->counts.cycles = cycles;
    s->counts.max_load = 0;
    for (int d = 0; d < HD_SIM_MAX_DIM; d++)
        s->counts.load[d] = 0;
    for (uint32_t z = 0; z < s->nodes; z++)
        for (int d = 0; d < n; d++) {
            uint64_t h = s->headers[z * (uint32_t)n + (uint32_t)d];
            if (h > s->counts.load[d])
                s->counts.load[d] = h;
        }
    for (int d = 0; d < n; d++)
        if (s->counts.load[d] > s->counts.max_load)
            s->counts.max_load = s->counts.load[d];
}

/* Puts a message into the network: the source's injection channel is
 * free and granted to it.  The worm moves in this cycle's step 4. */
static void start_worm(hd_sim *s, uint32_t src, uint32_t dst, uint32_t flits,
                       uint32_t msg, uint64_t ready)
{
    int32_t w = s->free_worms[--s->nfree];
    worm *m = &s->worms[w];
    uint32_t inj = inj_channel(s, src);
    m->src = src;
    m->dst = dst;
    m->cur = src;
    m->flits = flits;
    m->msg = msg;
    m->hops = __builtin_popcount(src ^ dst) + 2;
    m->step = 0;
    m->len = 1;
    m->port = s->n;
    m->ready = ready;
    m->arrive = 0;
    m->path[0] = (int32_t)inj;
    s->owner[inj] = w;
    s->headers[inj]++;
    s->active[s->nactive++] = w;
}

/* --------------------------------------------------------- one cycle */

/* Steps 2 and 3. */
static void arbitrate(hd_sim *s, uint64_t t)
{
    const uint32_t n = (uint32_t)s->n;
    const uint64_t stamp = t + 1;
    int32_t nclaimed = 0;
    for (int32_t k = 0; k < s->nactive; k++) {
        int32_t w = s->active[k];
        worm *m = &s->worms[w];
        if (m->step == 0 || m->step >= m->hops || m->len > m->step)
            continue;   /* not a header in a buffer waiting for a channel */
        uint32_t o;
        uint32_t diff = m->cur ^ m->dst;
        if (!diff) {
            o = ej_channel(s, m->dst);
            if (s->owner[o] >= 0)
                continue;
        } else if (s->routing == HD_SIM_ECUBE) {
            o = m->cur * n + (uint32_t)__builtin_ctz(diff);
            if (s->owner[o] >= 0)
                continue;
        } else {
            /* Negative-first: clear the 1s first, then set the 0s. */
            uint32_t allowed = m->cur & ~m->dst;
            if (!allowed)
                allowed = ~m->cur & m->dst;
            o = UINT32_MAX;
            while (allowed) {
                uint32_t c = m->cur * n + (uint32_t)__builtin_ctz(allowed);
                if (s->owner[c] < 0) {
                    o = c;
                    break;
                }
                allowed &= allowed - 1;
            }
            if (o == UINT32_MAX)
                continue;
        }
        uint64_t key = m->arrive * (n + 1) + (uint64_t)m->port;
        if (s->claim_stamp[o] != stamp) {
            s->claim_stamp[o] = stamp;
            s->claim_key[o] = key;
            s->claim_worm[o] = w;
            s->claimed[nclaimed++] = (int32_t)o;
        } else if (key < s->claim_key[o]) {
            s->claim_key[o] = key;
            s->claim_worm[o] = w;
        }
    }
    for (int32_t k = 0; k < nclaimed; k++) {
        int32_t o = s->claimed[k];
        int32_t w = s->claim_worm[o];
        worm *m = &s->worms[w];
        s->owner[o] = w;
        s->headers[o]++;
        m->path[m->len++] = o;
    }
}

static void delivered(hd_sim *s, worm *m, uint64_t t)
{
    s->counts.messages_delivered++;
    s->counts.flit_hops += (uint64_t)m->flits * (uint64_t)(m->hops - 2);
    if (s->phase) {
        s->msg[m->msg].delivered = t + 1;
    } else if (t >= s->win_lo && t < s->win_hi) {
        uint64_t lat = t + 1 - m->ready;
        s->hist[lat < s->hist_size ? lat : s->hist_size - 1]++;
    }
}

/* Step 4. */
static void move(hd_sim *s, uint64_t t)
{
    const uint32_t n = (uint32_t)s->n;
    const uint32_t cube = s->nodes * n;
    const bool window = t >= s->win_lo && t < s->win_hi;
    uint64_t moved = 0;
    for (int32_t k = 0; k < s->nactive;) {
        int32_t w = s->active[k];
        worm *m = &s->worms[w];
        if (m->step < m->hops && m->len <= m->step) {
            k++;
            continue;   /* the header waits */
        }
        moved++;
        int32_t st = ++m->step;
        if (st <= (int32_t)m->flits)
            s->counts.flits_injected++;
        if (st <= m->hops) {
            /* The header crossed path[st - 1]. */
            m->arrive = t;
            uint32_t c = (uint32_t)m->path[st - 1];
            if (c < cube) {
                uint32_t d = c % n;
                m->cur = (c / n) ^ (UINT32_C(1) << d);
                m->port = (int32_t)d;
            }
        }
        if (st >= m->hops && st - m->hops < (int32_t)m->flits) {
            s->counts.flits_delivered++;
            if (window)
                s->win_delivered_flits++;
            if (s->phase)
                s->msg[m->msg].received++;
        }
        int32_t tc = st - (int32_t)(m->flits - 1);   /* tail's channels */
        if (tc >= 2)
            s->owner[m->path[tc - 2]] = -1;
        if (tc == m->hops) {
            s->owner[m->path[tc - 1]] = -1;
            delivered(s, m, t);
            s->free_worms[s->nfree++] = w;
            s->active[k] = s->active[--s->nactive];
            continue;
        }
        k++;
    }
    s->moved = moved;
}

static void cycle(hd_sim *s, uint64_t t)
{
    arbitrate(s, t);
    move(s, t);
}

/* --------------------------------------------------------- phase mode */

/* Messages sorted by source, then injection cycle, then index. */
typedef struct {
    uint64_t inject;
    uint32_t src, idx;
} phase_key;

static int by_source(const void *a, const void *b)
{
    const phase_key *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->inject != y->inject)
        return x->inject < y->inject ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

int hd_sim_phase(hd_sim *s, hd_sim_message *msg, size_t count,
                 hd_sim_counts *counts)
{
    if (count > UINT32_MAX || (count && !msg))
        return HD_SIM_EINVAL;
    for (size_t k = 0; k < count; k++)
        if (msg[k].src >= s->nodes || msg[k].dst >= s->nodes ||
            msg[k].flits < 1 || msg[k].flits > (UINT32_C(1) << 30))
            return HD_SIM_EINVAL;
    phase_key *keys = malloc((count ? count : 1) * sizeof *keys);
    uint32_t *order = malloc((count ? count : 1) * sizeof *order);
    uint32_t *head = calloc((size_t)s->nodes + 1, sizeof *head);
    uint32_t *end = calloc((size_t)s->nodes + 1, sizeof *end);
    if (!keys || !order || !head || !end) {
        free(keys);
        free(order);
        free(head);
        free(end);
        return HD_SIM_ENOMEM;
    }
    for (size_t k = 0; k < count; k++) {
        keys[k] = (phase_key){ msg[k].inject, msg[k].src, (uint32_t)k };
        msg[k].delivered = 0;
        msg[k].received = 0;
        end[msg[k].src]++;
    }
    qsort(keys, count, sizeof *keys, by_source);
    for (size_t k = 0; k < count; k++)
        order[k] = keys[k].idx;
    free(keys);
    for (uint32_t z = 0, at = 0; z < s->nodes; z++) {
        head[z] = at;
        at += end[z];
        end[z] = at;
    }

    reset(s);
    s->phase = true;
    s->msg = msg;
    s->win_lo = s->win_hi = 0;
    size_t left = count;       /* not yet put into the network */
    uint64_t t = 0, last_move = 0;
    int rc = HD_SIM_OK;
    while (left || s->nactive) {
        if (!s->nactive) {
            /* Nothing in flight: skip to the next message ready. */
            uint64_t next = UINT64_MAX;
            for (uint32_t z = 0; z < s->nodes; z++)
                if (head[z] < end[z] && msg[order[head[z]]].inject < next)
                    next = msg[order[head[z]]].inject;
            if (next > t)
                t = last_move = next;
        }
        for (uint32_t z = 0; z < s->nodes; z++) {
            if (head[z] == end[z] || s->owner[inj_channel(s, z)] >= 0)
                continue;
            uint32_t k = order[head[z]];
            if (msg[k].inject > t)
                continue;
            head[z]++;
            left--;
            start_worm(s, z, msg[k].dst, msg[k].flits, k, msg[k].inject);
        }
        cycle(s, t);
        if (s->moved)
            last_move = t;
        else if (t - last_move > STALL_LIMIT) {
            rc = HD_SIM_ESTALL;
            break;
        }
        t++;
    }
    finish_counts(s, t);
    if (counts)
        *counts = s->counts;
    s->msg = NULL;
    s->phase = false;
    free(order);
    free(head);
    free(end);
    return rc;
}

/* ---------------------------------------------------------- open loop */

/* xoshiro256** seeded through splitmix64: the same seed gives the same
 * run on every platform. */
typedef struct {
    uint64_t s[4];
} rng;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++)
        r->s[k] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Exponentially distributed with the given mean. */
static double rng_exp(rng *r, double mean)
{
    double u = (double)((rng_next(r) >> 11) + 1) * 0x1p-53;   /* (0, 1] */
    return -log(u) * mean;
}

int hd_sim_open(hd_sim *s, const hd_sim_traffic *tr,
                const hd_sim_open_config *cfg, hd_sim_open_result *res)
{
    uint32_t qcap = cfg->queue ? cfg->queue : 256;
    if (!tr || !cfg || !res || tr->count > UINT32_MAX ||
        (tr->count && (!tr->src || !tr->dst)) || !(cfg->rate >= 0) ||
        cfg->rate > 1e9 || cfg->flits < 1 || cfg->flits > (UINT32_C(1) << 30) ||
        cfg->cycles < 1 || (qcap & (qcap - 1)) ||
        cfg->warmup + cfg->cycles < cfg->cycles)
        return HD_SIM_EINVAL;
    for (size_t k = 0; k < tr->count; k++)
        if (tr->src[k] >= s->nodes || tr->dst[k] >= s->nodes)
            return HD_SIM_EINVAL;
    const uint32_t N = s->nodes;
    uint64_t total = cfg->warmup + cfg->cycles;
    uint32_t *first = calloc((size_t)N + 1, sizeof *first);
    uint32_t *dsts = malloc((tr->count ? tr->count : 1) * sizeof *dsts);
    double *next = malloc((size_t)N * sizeof *next);
    uint64_t *queue = malloc((size_t)N * qcap * sizeof *queue);
    uint32_t *qhead = calloc(N, sizeof *qhead), *qlen = calloc(N, sizeof *qlen);
    uint64_t hist_size = total + 2;
    uint64_t *hist = calloc(hist_size, sizeof *hist);
    if (!first || !dsts || !next || !queue || !qhead || !qlen || !hist) {
        free(first); free(dsts); free(next); free(queue);
        free(qhead); free(qlen); free(hist);
        return HD_SIM_ENOMEM;
    }
    /* The streams of each source, in input order. */
    for (size_t k = 0; k < tr->count; k++)
        first[tr->src[k] + 1]++;
    for (uint32_t z = 0; z < N; z++)
        first[z + 1] += first[z];
    {
        uint32_t *fill = qlen;   /* zero, reused as a cursor */
        for (size_t k = 0; k < tr->count; k++) {
            uint32_t z = tr->src[k];
            dsts[first[z] + fill[z]++] = tr->dst[k];
        }
        memset(qlen, 0, N * sizeof *qlen);
    }

    reset(s);
    s->phase = false;
    s->win_lo = cfg->warmup;
    s->win_hi = total;
    s->hist = hist;
    s->hist_size = hist_size;
    memset(res, 0, sizeof *res);

    /* Source z generates the messages of its k_z streams: a Poisson
     * process of rate k_z * rate / flits messages per cycle, each message
     * to one of its streams' destinations chosen uniformly.  A message
     * generated at real time g is ready from cycle ceil(g). */
    rng r;
    rng_seed(&r, cfg->seed);
    const double per_stream = cfg->rate / cfg->flits;
    for (uint32_t z = 0; z < N; z++) {
        uint32_t k = first[z + 1] - first[z];
        next[z] = k && per_stream > 0 ? rng_exp(&r, 1.0 / (per_stream * k))
                                      : INFINITY;
    }
    uint64_t gen_window = 0, queued = 0, queued_start = 0, queued_at_end = 0;
    const uint32_t qmask = qcap - 1;
    uint64_t t = 0;
    for (;; t++) {
        bool generating = t < total;
        if (t == total)
            queued_at_end = queued;
        if (!generating && (!cfg->drain || (!queued && !s->nactive)))
            break;
        if (cfg->progress && t % PROGRESS_EVERY == 0 && generating)
            cfg->progress(cfg->progress_ctx, t, total);
        bool window = t >= s->win_lo && t < s->win_hi;
        if (t == s->win_lo)
            queued_start = queued;
        for (uint32_t z = 0; z < N; z++) {
            if (generating && next[z] <= (double)t) {
                uint32_t k = first[z + 1] - first[z];
                double mean = 1.0 / (per_stream * k);
                do {
                    res->messages_generated++;
                    if (window)
                        gen_window++;
                    if (qlen[z] == qcap) {
                        res->messages_dropped++;
                    } else {
                        queue[(size_t)z * qcap + ((qhead[z] + qlen[z]) & qmask)] = t;
                        qlen[z]++;
                        queued++;
                        res->flits_generated += cfg->flits;
                    }
                    next[z] += rng_exp(&r, mean);
                } while (next[z] <= (double)t);
            }
            if (qlen[z] && s->owner[inj_channel(s, z)] < 0) {
                uint32_t k = first[z + 1] - first[z];
                uint32_t dst = dsts[first[z] +
                                    (k == 1 ? 0 : (uint32_t)(rng_next(&r) % k))];
                uint64_t ready = queue[(size_t)z * qcap + qhead[z]];
                qhead[z] = (qhead[z] + 1) & qmask;
                qlen[z]--;
                queued--;
                start_worm(s, z, dst, cfg->flits, 0, ready);
            }
        }
        cycle(s, t);
    }
    finish_counts(s, t);
    if (!cfg->drain)
        queued_at_end = queued;

    double denom = (double)N * (double)cfg->cycles;
    res->offered = cfg->rate * (double)tr->count / (double)N;
    res->generated = (double)gen_window * cfg->flits / denom;
    res->accepted = (double)s->win_delivered_flits / denom;
    uint64_t sum = 0, m = 0;
    for (uint64_t l = 0; l < hist_size; l++) {
        m += hist[l];
        sum += hist[l] * l;
        if (hist[l])
            res->latency_max = l;
    }
    res->measured = m;
    res->latency_mean = m ? (double)sum / (double)m : 0.0;
    uint64_t need = (m * 99 + 99) / 100, seen = 0;   /* ceil(0.99 m) */
    for (uint64_t l = 0; m && l < hist_size; l++) {
        seen += hist[l];
        if (seen >= need) {
            res->latency_p99 = l;
            break;
        }
    }
    /* Section 6.1: a load is sustainable when the messages queued at the
     * sources stay few and bounded.  Saturated: the queues grew over the
     * window by more than 2% of the messages generated in it, or one
     * overflowed, or the network fell 5% behind the sources. */
    res->backlog_growth = (int64_t)queued_at_end - (int64_t)queued_start;
    res->saturated = res->messages_dropped > 0 ||
                     (double)res->backlog_growth > 0.02 * (double)gen_window ||
                     res->accepted < 0.95 * res->generated;
    /* Not yet injected: the queued messages, and the flits of messages
     * in the network that are still at their source. */
    res->flits_queued = queued * cfg->flits;
    for (int32_t k = 0; k < s->nactive; k++) {
        const worm *w = &s->worms[s->active[k]];
        if ((uint32_t)w->step < w->flits)
            res->flits_queued += w->flits - (uint32_t)w->step;
    }
    res->flits_in_network = s->counts.flits_injected - s->counts.flits_delivered;
    res->counts = s->counts;

    s->hist = NULL;
    free(first); free(dsts); free(next); free(queue);
    free(qhead); free(qlen); free(hist);
    return HD_SIM_OK;
}
