/*
 * schedule.c — the packets of every algorithm of Stout and Wagar 1990,
 * Sections 2-8, per node and stage (schedule.h).  Each generator follows
 * the paper's description of its algorithm for root 0; the schedule for
 * another root XORs every node id with it (Section 1.4).  Where the
 * paper's text and its analysis disagree, the generator follows the one
 * whose time the paper states, and docs/collectives.md says which.
 */
#include "schedule.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------- arithmetic, without libm */

/* The run-time archives carry this file, and a translated program links
 * -lhyperdo -pthread only: no libm.  The few real numbers it needs (the
 * paper's optimal g and q, DISTRIBUTE 2's r) come from these. */
static double root2(double x)
{
    if (!(x > 0))
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double next = (r + x / r) / 2;
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

/* The nearest integer to x >= 0, and the least integer >= x. */
static double round_pos(double x)
{
    return x < 9e18 ? (double)(int64_t)(x + 0.5) : x;
}

static double ceil_pos(double x)
{
    if (!(x < 9e18))
        return x;
    double t = (double)(int64_t)x;
    return t < x ? t + 1 : t;
}

static double power(double b, int k)
{
    double r = 1;
    while (k-- > 0)
        r *= b;
    return r;
}

/* ------------------------------------------------------ names */

static const char *const alg_names[HD_COLL_NALGS] = {
    "bcast1", "bcast2", "bcast3a", "bcast3b", "bcast4",
    "ocsend1", "ocsend2", "ocsend3", "ocsend4",
    "arbsend1", "arbsend2", "arbsend3", "xocsend1", "xocsend2",
    "distribute1", "distribute2", "collect", "allgather", "inversion", "alltoall",
    "permuted", "transpose-rows", "transpose-blocks", "transpose-lc", "histogram",
};

const char *hd_coll_alg_name(hd_coll_alg alg)
{
    return (unsigned)alg < HD_COLL_NALGS ? alg_names[alg] : "?";
}

int hd_coll_alg_from_name(const char *name)
{
    for (int a = 0; a < HD_COLL_NALGS; a++)
        if (strcmp(name, alg_names[a]) == 0)
            return a;
    return -1;
}

size_t hd_coll_type_size(hd_coll_type type)
{
    static const size_t sizes[HD_NTYPES] = {
        1, 2, 4, 8, 1, 2, 4, 8, sizeof(float), sizeof(double), sizeof(long double),
        2 * sizeof(float), 2 * sizeof(double), 2 * sizeof(long double),
    };
    return (unsigned)type < HD_NTYPES ? sizes[type] : 0;
}

/* ------------------------------------------------ building blocks */

typedef struct {
    hd_coll_sched *s;
    int nomem;
} gen;

static void add_xfer(gen *G, int stage, int src, int dst, int combine)
{
    hd_coll_sched *s = G->s;
    if (s->nxfers == s->xcap) {
        size_t cap = s->xcap ? 2 * s->xcap : 256;
        hd_coll_xfer *x = realloc(s->xfers, cap * sizeof *x);
        if (!x) {
            G->nomem = 1;
            return;
        }
        s->xfers = x;
        s->xcap = cap;
    }
    s->xfers[s->nxfers++] = (hd_coll_xfer){ stage, src, dst, (uint8_t)combine,
                                            (uint32_t)s->nchunks, 0 };
    if (stage + 1 > s->nstages)
        s->nstages = stage + 1;
}

/* Appends a chunk to the last transfer. */
static void add_chunk(gen *G, uint32_t msg, hd_q lo, hd_q hi)
{
    hd_coll_sched *s = G->s;
    if (G->nomem || s->nxfers == 0)
        return;
    if (s->nchunks == s->ccap) {
        size_t cap = s->ccap ? 2 * s->ccap : 1024;
        hd_coll_chunk *c = realloc(s->chunks, cap * sizeof *c);
        if (!c || cap > UINT32_MAX) {
            free(c == s->chunks ? NULL : c);
            G->nomem = 1;
            return;
        }
        s->chunks = c;
        s->ccap = cap;
    }
    s->chunks[s->nchunks++] = (hd_coll_chunk){ msg, lo, hi };
    s->xfers[s->nxfers - 1].count++;
}

static void send1(gen *G, int stage, int src, int dst, uint32_t msg, hd_q lo, hd_q hi)
{
    add_xfer(G, stage, src, dst, 0);
    add_chunk(G, msg, lo, hi);
}

/* Part i of p of [lo, hi). */
static hd_q part(gen *G, hd_q lo, hd_q hi, int64_t i, int64_t p)
{
    hd_q w = hd_q_sub(hi, lo, &G->s->overflow);
    return hd_q_add(lo, hd_q_mul(w, hd_q_frac(i, p), &G->s->overflow), &G->s->overflow);
}

static int popc(uint32_t x)
{
    return __builtin_popcount(x);
}

/* Left rotation of the k-bit x by i (Section 1.4's arrow). */
static uint32_t rotl(uint32_t x, int i, int k)
{
    if (k == 0)
        return 0;
    i %= k;
    uint32_t mask = (k == 32) ? 0xffffffffu : ((1u << k) - 1);
    return i == 0 ? x & mask : ((x << i) | (x >> (k - i))) & mask;
}

/* Logical node y of the subcube spanned by dims[0 .. k) at base. */
static int embed(int base, const int *dims, int k, uint32_t y)
{
    for (int t = 0; t < k; t++)
        if (y >> t & 1)
            base ^= 1 << dims[t];
    return base;
}

static int bits_of(uint32_t x, int d, int *dims)
{
    int k = 0;
    for (int b = 0; b < d; b++)
        if (x >> b & 1)
            dims[k++] = b;
    return k;
}

static int64_t binom_count(int n, int k)
{
    int64_t c = 1;
    for (int i = 0; i < k; i++)
        c = c * (n - i) / (i + 1);
    return c;
}

/* O.C. SEND 2 (Section 3) of [lo, hi) of msg in the subcube spanned by
 * dims[0 .. l) from base to its opposite corner, its stage j at stage0 + j:
 * packet P_i leaves node rotl^i(2^j - 1) across dimension (i + j) mod l. */
static void ocsend2(gen *G, int stage0, int base, const int *dims, int l, uint32_t msg, hd_q lo,
                    hd_q hi)
{
    for (int j = 0; j < l; j++)
        for (int i = 0; i < l; i++) {
            uint32_t y = rotl((1u << j) - 1, i, l);
            int from = embed(base, dims, l, y);
            send1(G, stage0 + j, from, from ^ (1 << dims[(i + j) % l]), msg, part(G, lo, hi, i, l),
                  part(G, lo, hi, i + 1, l));
        }
}

/* BROADCAST 2 (Section 2) of msg from base over all d dimensions: during
 * stage k the nodes rotl^i(x), x < 2^k, send P_i across (i + k) mod d. */
static void bcast2(gen *G, int stage0, int base, int d, uint32_t msg)
{
    hd_q lo = hd_q_int(0), hi = hd_q_int(1);
    for (int k = 0; k < d; k++)
        for (int i = 0; i < d; i++)
            for (uint32_t x = 0; x < (1u << k); x++) {
                int from = base ^ (int)rotl(x, i, d);
                send1(G, stage0 + k, from, from ^ (1 << ((i + k) % d)), msg, part(G, lo, hi, i, d),
                      part(G, lo, hi, i + 1, d));
            }
}

/* The first 1 after z in left circular order (Section 1.4's corner). */
static int next_one(uint32_t n, int z, int d)
{
    for (int t = 1; t <= d; t++) {
        int w = (z + t) % d;
        if (n >> w & 1)
            return w;
    }
    return -1;
}

/* One wave of BROADCAST 3A (Section 2) of [lo, hi) split in d packets,
 * run for `stages` of its d + 1 stages from stage0: in stage k each node
 * n of C_k sends P_w back across every w of W_n and P_{next_one(n, z)}
 * forward across every z of Z_n; node 0 sends P_z across z.  `relabel`
 * is BROADCAST 3B's second wave, which sends Q_i = P_{(i + 1) mod d} in
 * place of P_i. */
static void bcast3_wave(gen *G, int stage0, int stages, int d, hd_q lo, hd_q hi, int relabel)
{
    int P = 1 << d;
    for (int k = 0; k < stages && k <= d; k++)
        for (int n = 0; n < P; n++) {
            if (popc((uint32_t)n) != k)
                continue;
            for (int b = 0; b < d; b++) {
                int label;
                if (n >> b & 1)
                    label = b;
                else if (n == 0)
                    label = b;
                else
                    label = next_one((uint32_t)n, b, d);
                int pk = relabel ? (label + 1) % d : label;
                send1(G, stage0 + k, n, n ^ (1 << b), 0, part(G, lo, hi, pk, d),
                      part(G, lo, hi, pk + 1, d));
            }
        }
}

static void bcast3b(gen *G, int stage0, int d, hd_q lo, hd_q hi)
{
    bcast3_wave(G, stage0, d, d, lo, hi, 0);
    bcast3_wave(G, stage0 + 1, d - 1, d, lo, hi, 1);
}

/* BROADCAST 4: g - 1 BROADCAST 3A's and a 3B, staggered one stage apart. */
static void bcast4(gen *G, int d, int g)
{
    for (int j = 0; j < g; j++) {
        hd_q lo = hd_q_frac(j, g), hi = hd_q_frac(j + 1, g);
        if (j < g - 1)
            bcast3_wave(G, j, d + 1, d, lo, hi, 0);
        else
            bcast3b(G, j, d, lo, hi);
    }
}

/* -------------------------------------- O.C. SEND 3's even spreading */

typedef struct {
    hd_coll_chunk *c;
    size_t n, cap;
} chunk_list;

static void list_push(gen *G, chunk_list *L, hd_coll_chunk c)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 8;
        hd_coll_chunk *p = realloc(L->c, cap * sizeof *p);
        if (!p) {
            G->nomem = 1;
            return;
        }
        L->c = p;
        L->cap = cap;
    }
    L->c[L->n++] = c;
}

static int chunk_cmp(const void *a, const void *b)
{
    const hd_coll_chunk *x = a, *y = b;
    if (x->msg != y->msg)
        return x->msg < y->msg ? -1 : 1;
    return hd_q_cmp(x->lo, y->lo);
}

/* Sorts and joins touching chunks, so that lists stay short. */
static void list_tidy(chunk_list *L)
{
    if (L->n < 2)
        return;
    qsort(L->c, L->n, sizeof *L->c, chunk_cmp);
    size_t w = 0;
    for (size_t r = 1; r < L->n; r++) {
        if (L->c[r].msg == L->c[w].msg && hd_q_eq(L->c[r].lo, L->c[w].hi))
            L->c[w].hi = L->c[r].hi;
        else
            L->c[++w] = L->c[r];
    }
    L->n = w + 1;
}

/* Sends the chunks of L, cut into p parts of equal size, part t to
 * to[t] (one transfer each). */
static void send_split(gen *G, int stage, int from, const chunk_list *L, int p, const int *to)
{
    int *ov = &G->s->overflow;
    hd_q total = hd_q_int(0);
    for (size_t i = 0; i < L->n; i++)
        total = hd_q_add(total, hd_q_sub(L->c[i].hi, L->c[i].lo, ov), ov);
    hd_q share = hd_q_div(total, hd_q_int(p), ov);
    size_t i = 0;
    hd_q pos = L->n ? L->c[0].lo : hd_q_int(0);
    for (int t = 0; t < p; t++) {
        add_xfer(G, stage, from, to[t], 0);
        hd_q need = share;
        while (i < L->n && (t == p - 1 || hd_q_cmp(need, hd_q_int(0)) > 0)) {
            hd_q left = hd_q_sub(L->c[i].hi, pos, ov);
            if (t < p - 1 && hd_q_cmp(left, need) > 0) {
                hd_q cut = hd_q_add(pos, need, ov);
                add_chunk(G, L->c[i].msg, pos, cut);
                pos = cut;
                need = hd_q_int(0);
            } else {
                add_chunk(G, L->c[i].msg, pos, L->c[i].hi);
                need = hd_q_sub(need, left, ov);
                if (++i < L->n)
                    pos = L->c[i].lo;
            }
        }
    }
}

/* O.C. SEND 3 (Section 3) of [lo, hi) of msg in the subcube spanned by
 * dims[0 .. l) from base: in stage k every node of C_k holds an equal
 * share and splits it evenly over its l - k links to C_{k+1}. */
static void ocsend3_at(gen *G, int at0, int stage0, int stride, int base, const int *dims,
                       int l, uint32_t msg, hd_q lo, hd_q hi);

static void ocsend3(gen *G, int stage0, int base, const int *dims, int l, uint32_t msg, hd_q lo,
                    hd_q hi)
{
    ocsend3_at(G, stage0, stage0, 1, base, dims, l, msg, lo, hi);
}

/* The same with its stage k at `at0` for k = 0, stage0 + k stride after. */
static void ocsend3_at(gen *G, int at0, int stage0, int stride, int base, const int *dims,
                       int l, uint32_t msg, hd_q lo, hd_q hi)
{
    uint32_t N = 1u << l;
    chunk_list *held = calloc(N, sizeof *held);
    if (!held) {
        G->nomem = 1;
        return;
    }
    list_push(G, &held[0], (hd_coll_chunk){ msg, lo, hi });
    int to[32];
    for (int k = 0; k < l && !G->nomem; k++) {
        size_t first = G->s->nxfers;
        for (uint32_t y = 0; y < N; y++) {
            if (popc(y) != k)
                continue;
            int p = 0;
            for (int z = 0; z < l; z++)
                if (!(y >> z & 1))
                    to[p++] = embed(base, dims, l, y | (1u << z));
            send_split(G, k == 0 ? at0 : stage0 + k * stride, embed(base, dims, l, y), &held[y],
                       p, to);
        }
        /* What C_{k+1} now holds: what was sent to it. */
        for (size_t x = first; x < G->s->nxfers && !G->nomem; x++) {
            const hd_coll_xfer *t = &G->s->xfers[x];
            uint32_t y = 0;
            for (int z = 0; z < l; z++)
                if ((t->dst ^ base) >> dims[z] & 1)
                    y |= 1u << z;
            for (uint32_t c = 0; c < t->count; c++)
                list_push(G, &held[y], G->s->chunks[t->first + c]);
        }
        for (uint32_t y = 0; y < N; y++)
            if (popc(y) == k + 1)
                list_tidy(&held[y]);
    }
    for (uint32_t y = 0; y < N; y++)
        free(held[y].c);
    free(held);
}

static void ocsend4(gen *G, int stage0, int base, const int *dims, int l, int g, uint32_t msg,
                    hd_q lo, hd_q hi)
{
    for (int j = 0; j < g; j++)
        ocsend3(G, stage0 + j, base, dims, l, msg, part(G, lo, hi, j, g), part(G, lo, hi, j + 1, g));
}

/* X.O.C. SEND 1 (Section 4) of [lo, hi): node 0 sends it across dimension
 * e into the n-subcube at 2^e (dimensions 0 .. n-1), O.C. SEND 3 carries
 * it to that subcube's far corner, which sends it across e to 2^n - 1. */
static void xocsend(gen *G, int stage0, int e, int n, hd_q lo, hd_q hi)
{
    int dims[32];
    for (int t = 0; t < n; t++)
        dims[t] = t;
    int entry = 1 << e, corner = entry | ((1 << n) - 1);
    send1(G, stage0, 0, entry, 0, lo, hi);
    ocsend3(G, stage0 + 1, entry, dims, n, 0, lo, hi);
    send1(G, stage0 + n + 1, corner, corner ^ entry, 0, lo, hi);
}

/* -------------------------------------------------- the algorithms */

/* DISTRIBUTE 1 (Section 5): message x (x != 0, distance l) by O.C. SEND
 * 2 in the subcube of x's bits, started at stage d - l (farthest first). */
static void distribute1(gen *G, int d)
{
    int dims[32];
    for (uint32_t x = 1; x < (1u << d); x++) {
        int l = bits_of(x, d, dims);
        ocsend2(G, d - l, 0, dims, l, x, hd_q_int(0), hd_q_int(1));
    }
}

/* COMPLETE EXCHANGE (Section 6): DISTRIBUTE 1 completed; `pieces` > 1 is
 * PERMUTED SEND's first exchange (node s sends piece t of its message to
 * node t) and `perm` its second (node t sends piece (s, t) to perm[s]). */
static void complete_exchange(gen *G, int stage0, int d, int pieces, const int32_t *perm)
{
    int P = 1 << d, dims[32];
    for (int s = 0; s < P; s++)
        for (int t = 0; t < P; t++) {
            int from, to;
            uint32_t msg;
            hd_q lo, hi;
            if (pieces == 1) {
                from = s, to = t, msg = (uint32_t)(s * P + t);
                lo = hd_q_int(0), hi = hd_q_int(1);
            } else {
                from = perm ? t : s;
                to = perm ? perm[s] : t;
                msg = (uint32_t)s;
                lo = hd_q_frac(t, pieces), hi = hd_q_frac(t + 1, pieces);
            }
            if (from == to)
                continue;
            int l = bits_of((uint32_t)(from ^ to), d, dims);
            ocsend2(G, stage0 + d - l, from, dims, l, msg, lo, hi);
        }
}

/* L.C. INVERSION on every logically connected subcube (Section 7.2):
 * node A = a 2^c + b swaps with b 2^c + a.  A logical link flips the bit
 * pair (p, p + c) by two physical paths; each path carries half of a
 * packet in p_k = q / k sub-packets, and an intermediate node passes a
 * sub-packet on one stage after it arrives.  The logical stages are
 * INVERSION's (O.C. SEND 2 completed). */
static void transpose_lc(gen *G, int d, int q)
{
    int c = d / 2, P = 1 << d;
    for (int A = 0; A < P; A++) {
        uint32_t D = (uint32_t)(((A >> c) ^ A) & ((1 << c) - 1));
        int dims[32];
        int k = bits_of(D, c, dims);
        if (k == 0)
            continue;
        int p = q / k;
        for (int s = 0; s < k; s++)
            for (int i = 0; i < k; i++) {
                uint32_t y = rotl((1u << s) - 1, i, k);
                int cur = A;
                for (int t = 0; t < k; t++)
                    if (y >> t & 1)
                        cur ^= (1 << dims[t]) | (1 << (dims[t] + c));
                int t = (i + s) % k;
                int lowb = 1 << dims[t], highb = 1 << (dims[t] + c);
                for (int h = 0; h < 2; h++) {
                    int mid = cur ^ (h ? highb : lowb);
                    for (int r = 0; r < p; r++) {
                        int64_t idx = (int64_t)i * 2 * p + h * p + r, all = (int64_t)2 * k * p;
                        hd_q lo = hd_q_frac(idx, all), hi = hd_q_frac(idx + 1, all);
                        int slot = s * p + r;
                        send1(G, slot, cur, mid, (uint32_t)A, lo, hi);
                        send1(G, slot + 1, mid, cur ^ lowb ^ highb, (uint32_t)A, lo, hi);
                    }
                }
            }
    }
}

/* HISTOGRAM (Section 8): recursive halving, symmetrized.  Part i of every
 * block is halved across dimensions i, i + 1, ... (mod d): in stage s a
 * node keeps the blocks whose bit (i + s) mod d is its own and sends the
 * others' part i, added into by the receiver. */
static void histogram(gen *G, int d)
{
    int P = 1 << d;
    for (int s = 0; s < d; s++)
        for (int x = 0; x < P; x++)
            for (int i = 0; i < d; i++) {
                int b = (i + s) % d;
                uint32_t done = 0;
                for (int t = 0; t < s; t++)
                    done |= 1u << ((i + t) % d);
                add_xfer(G, s, x, x ^ (1 << b), 1);
                hd_q lo = hd_q_frac(i, d), hi = hd_q_frac(i + 1, d);
                for (int y = 0; y < P; y++)
                    if (((uint32_t)(y ^ x) & done) == 0 && ((y ^ x) >> b & 1))
                        add_chunk(G, (uint32_t)y, lo, hi);
            }
}


/* DISTRIBUTE 2 (Section 5): k waves leave node 0, each r times the next
 * (per link: r^(k-1) m, ..., r m, m), the last carrying the messages of
 * C_1 and the earlier ones those of C_2, C_3, ... in that order, a level
 * split between two waves where a wave is full.  k is the least integer
 * with d ((d-1)^k - 1)/(d-2) >= 2^d - 1, r the root of
 * d (1 + r + ... + r^(k-1)) = 2^d - 1, taken as the rational r' >= r with
 * denominator 12 (the paper allows any r <= r' < d - 1): the first wave
 * then carries what is left.  Each wave leaves node 0 as one packet per
 * link; at C_1 it breaks into a wavelet per level, the farthest first,
 * each going on as in DISTRIBUTE 1's analysis, every node's share spread
 * evenly over its links towards the destinations (batched per level).
 * Stage numbers order the packets of a link: wave w's hop j of level l at
 * w (d+1)^2 + j (d+1) + (d - l), its first hop at w (d+1)^2 for all
 * levels. */
static int distribute2_waves(int d, hd_q *r_out)
{
    double total = (double)((1u << d) - 1);
    int k = 1;
    for (;; k++) {
        double reach = d == 2 ? (double)d * k : d * (power(d - 1, k) - 1) / (d - 2);
        if (reach >= total)
            break;
    }
    /* d (1 + r + ... + r^(k-1)) = 2^d - 1, by bisection on [0, d - 1]. */
    double lo = 0, hi = d - 1;
    for (int it = 0; it < 200; it++) {
        double mid = (lo + hi) / 2, sum = 0, pw = 1;
        for (int t = 0; t < k; t++, pw *= mid)
            sum += pw;
        if (d * sum >= total)
            hi = mid;
        else
            lo = mid;
    }
    int64_t num = (int64_t)ceil_pos(hi * 12 - 1e-9);
    *r_out = hd_q_frac(num, 12);
    return k;
}

static void distribute2(gen *G, int d)
{
    int *ov = &G->s->overflow, dims[32];
    hd_q r;
    int k = distribute2_waves(d, &r);
    int S = (d + 1) * (d + 1);
    /* cap[i]: the volume (units of m, all links) wave i carries, i = 0 the
     * last (C_1), i = k - 1 the first (what is left). */
    hd_q cap[64], pw = hd_q_int(1);
    for (int i = 0; i < k && i < 64; i++) {
        cap[i] = hd_q_mul(hd_q_int(d), pw, ov);
        pw = hd_q_mul(pw, r, ov);
    }
    /* Levels 2 .. d into waves 1 .. k-1, in order: piece (level, [a, b)). */
    typedef struct { int level; hd_q a, b; int wave; } piece;
    piece pieces[128];
    int np = 0, wave = 1;
    hd_q room = k > 1 ? cap[1] : hd_q_int(0);
    for (int l = 2; l <= d; l++) {
        hd_q have = hd_q_int(1), at = hd_q_int(0);     /* fraction of each message */
        hd_q vol1 = hd_q_frac(binom_count(d, l), 1);   /* volume of the level per unit fraction */
        while (hd_q_cmp(have, hd_q_int(0)) > 0 && np < 128) {
            if (wave >= k - 1 || hd_q_cmp(hd_q_mul(have, vol1, ov), room) <= 0) {
                /* fits (or the first wave, which takes the rest) */
                pieces[np++] = (piece){ l, at, hd_q_int(1), wave };
                if (wave < k - 1)
                    room = hd_q_sub(room, hd_q_mul(have, vol1, ov), ov);
                have = hd_q_int(0);
            } else {
                hd_q part_f = hd_q_div(room, vol1, ov);
                if (hd_q_cmp(part_f, hd_q_int(0)) > 0) {
                    hd_q b = hd_q_add(at, part_f, ov);
                    pieces[np++] = (piece){ l, at, b, wave };
                    at = b;
                    have = hd_q_sub(have, part_f, ov);
                }
                wave++;
                room = cap[wave];
            }
        }
    }
    /* The waves, first (i = k - 1) to last (i = 0): every destination's
     * part as an O.C. SEND 3 in its subcube (each node's share spread
     * evenly over its links on, as DISTRIBUTE 1's analysis assumes), its
     * first hops batched into the wave's one packet per link. */
    for (int i = k - 1; i >= 0; i--) {
        int w = k - 1 - i;   /* its turn at node 0 */
        for (int l = d; l >= 1; l--)
            for (int q = 0; q < (i == 0 ? 1 : np); q++) {
                hd_q a = hd_q_int(0), e = hd_q_int(1);
                if (i == 0 ? l != 1 : pieces[q].wave != i || pieces[q].level != l)
                    continue;
                if (i != 0)
                    a = pieces[q].a, e = pieces[q].b;
                for (uint32_t x = 1; x < (1u << d); x++)
                    if (bits_of(x, d, dims) == l)
                        ocsend3_at(G, w * S, w * S + (d - l), d + 1, 0, dims, l, x, a, e);
            }
    }
    G->s->shape.g = k;   /* the waves, reported as g */
}

/* Stage numbers made consecutive (DISTRIBUTE 2's are sparse); the
 * transfers are sorted by stage. */
static void compact_stages(hd_coll_sched *s)
{
    int last = -1, next = -1;
    for (size_t i = 0; i < s->nxfers; i++) {
        if (s->xfers[i].stage != last) {
            last = s->xfers[i].stage;
            next++;
        }
        s->xfers[i].stage = next;
    }
    s->nstages = next + 1;
}

/* -------------------------------------------------- tidying up */

static int xfer_cmp(const void *a, const void *b)
{
    const hd_coll_xfer *x = a, *y = b;
    if (x->stage != y->stage)
        return x->stage < y->stage ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->combine != y->combine)
        return x->combine < y->combine ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static int xfer_stage_cmp(const void *a, const void *b)
{
    const hd_coll_xfer *x = a, *y = b;
    if (x->stage != y->stage)
        return x->stage < y->stage ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Batching (Section 6): the packets one link carries in one stage become
 * one packet.  Otherwise only sorts by stage (a link used twice in one
 * stage is then the simulator's to report). */
static void finish(gen *G, int batch)
{
    hd_coll_sched *s = G->s;
    if (G->nomem)
        return;
    qsort(s->xfers, s->nxfers, sizeof *s->xfers, batch ? xfer_cmp : xfer_stage_cmp);
    hd_coll_chunk *c = malloc((s->nchunks ? s->nchunks : 1) * sizeof *c);
    if (!c) {
        G->nomem = 1;
        return;
    }
    size_t nc = 0, w = 0;
    for (size_t r = 0; r < s->nxfers; r++) {
        hd_coll_xfer x = s->xfers[r];
        int merge = batch && w > 0 && s->xfers[w - 1].stage == x.stage &&
                    s->xfers[w - 1].src == x.src && s->xfers[w - 1].dst == x.dst &&
                    s->xfers[w - 1].combine == x.combine;
        memcpy(c + nc, s->chunks + x.first, x.count * sizeof *c);
        if (merge) {
            s->xfers[w - 1].count += x.count;
        } else {
            x.first = (uint32_t)nc;
            s->xfers[w++] = x;
        }
        nc += x.count;
    }
    s->nxfers = w;
    free(s->chunks);
    s->chunks = c;
    s->nchunks = s->ccap = nc;
}

/* Shifts every stage so that the first is 0. */
static void renumber(hd_coll_sched *s)
{
    if (s->nxfers == 0) {
        s->nstages = 0;
        return;
    }
    int lo = s->xfers[0].stage, hi = lo;
    for (size_t i = 0; i < s->nxfers; i++) {
        if (s->xfers[i].stage < lo)
            lo = s->xfers[i].stage;
        if (s->xfers[i].stage > hi)
            hi = s->xfers[i].stage;
    }
    for (size_t i = 0; i < s->nxfers; i++)
        s->xfers[i].stage -= lo;
    s->nstages = hi - lo + 1;
}

/* ARBITRARY SEND 2 (Section 4): BROADCAST 4 without what the destination
 * does not need.  Keeps, for each packet the destination holds at the
 * end, the chain of transfers that first brought it to each node on its
 * way (so the stages after the destination's last packet vanish). */
static void prune_to(gen *G, int dest, int npackets, hd_q unit)
{
    hd_coll_sched *s = G->s;
    int P = s->P;
    long *first = malloc((size_t)P * npackets * sizeof *first);
    unsigned char *keep = calloc(s->nxfers ? s->nxfers : 1, 1);
    if (!first || !keep) {
        free(first);
        free(keep);
        G->nomem = 1;
        return;
    }
    for (size_t i = 0; i < (size_t)P * npackets; i++)
        first[i] = -1;
    for (size_t x = 0; x < s->nxfers; x++) {
        const hd_coll_xfer *t = &s->xfers[x];
        const hd_coll_chunk *c = &s->chunks[t->first];
        int pk = (int)hd_q_floor_times(hd_q_div(c->lo, unit, &s->overflow), 1);
        if (t->dst != 0 && first[(size_t)t->dst * npackets + pk] < 0)
            first[(size_t)t->dst * npackets + pk] = (long)x;
    }
    for (int pk = 0; pk < npackets; pk++)
        for (int v = dest; v != 0;) {
            long x = first[(size_t)v * npackets + pk];
            if (x < 0)
                break;
            keep[x] = 1;
            v = s->xfers[x].src;
        }
    size_t w = 0;
    for (size_t x = 0; x < s->nxfers; x++)
        if (keep[x])
            s->xfers[w++] = s->xfers[x];
    s->nxfers = w;
    free(first);
    free(keep);
}

/* Applies the root: every node id, and every message id that names a
 * node, XORed with it. */
static void apply_root(hd_coll_sched *s, int root)
{
    if (root == 0)
        return;
    for (size_t i = 0; i < s->nxfers; i++) {
        s->xfers[i].src ^= root;
        s->xfers[i].dst ^= root;
    }
    if (s->kind == HD_MSG_TO_NODE || s->kind == HD_MSG_FROM_NODE || s->kind == HD_MSG_REDUCE)
        for (size_t i = 0; i < s->nchunks; i++)
            s->chunks[i].msg ^= (uint32_t)root;
    if (s->dest >= 0)
        s->dest ^= root;
}

/* ------------------------------------------------------ K_d, g */

hd_q hd_coll_K(int d)
{
    int ov = 0;
    hd_q K = hd_q_int(0);
    int64_t C = 1;
    for (int k = 0; k <= d; k++) {
        K = hd_q_add(K, hd_q_frac(1, C), &ov);
        C = C * (d - k) / (k + 1);
    }
    return K;
}

/* The paper's optimal number of groups, sqrt(a tau m / beta) for the
 * algorithm's a, rounded to an integer in [1, HD_COLL_MAX_G]. */
static int best_g(double a, double m, double tau, double beta)
{
    if (a <= 0 || m <= 0)
        return 1;
    if (beta <= 0)
        return HD_COLL_MAX_G;
    double g = round_pos(root2(a * tau * m / beta));
    return g < 1 ? 1 : g > HD_COLL_MAX_G ? HD_COLL_MAX_G : (int)g;
}

static int lcm_upto(int c)
{
    int l = 1;
    for (int k = 2; k <= c; k++)
        l = l / (int)hd_q_gcd(l, k) * k;
    return l;
}

int hd_coll_default_g(hd_coll_alg a, int d, int n, int g, double m, double tau, double beta)
{
    double K1 = hd_q_double(hd_coll_K(d > 0 ? d - 1 : 0));
    switch (a) {
    case HD_COLL_BCAST4:
        if (!g)
            g = d == 1 ? 1 : best_g((double)(d - 1) / d, m, tau, beta);
        break;
    case HD_COLL_OCSEND4:
        if (!g)
            g = d <= 1 ? 1 : best_g((K1 - 1) / d, m, tau, beta);
        break;
    case HD_COLL_ARBSEND1:
        if (!g)
            g = n == 1 ? 1 : best_g((hd_q_double(hd_coll_K(n - 1)) - 1) / n, m, tau, beta);
        break;
    case HD_COLL_ARBSEND2:
        if (!g)
            g = d == 1 ? 1 : best_g((double)(n <= d - 2 ? n + 1 : d - 1) / d, m, tau, beta);
        break;
    case HD_COLL_XOCSEND2:
    case HD_COLL_ARBSEND3:
        if (!g) {
            double Kn = hd_q_double(hd_coll_K(n - 1));
            g = best_g((n + Kn) / n / (a == HD_COLL_ARBSEND3 ? d : 1), m, tau, beta);
        }
        break;
    default:
        g = 1;
    }
    return g;
}

int hd_coll_default_q(int d, int q, double m, double tau, double beta)
{
    int c = d / 2, L = lcm_upto(c);
    if (!q) {
        /* The paper's optimum kp = sqrt(tau m / (2 beta)), as a multiple of
         * L and at least 2c (p >= 2 for k = c). */
        double best = beta > 0 ? root2(tau * m / (2 * beta)) : HD_COLL_MAX_G;
        if (best > 1 << 20)
            best = 1 << 20;
        q = L * (int)round_pos(best / L);
        if (q < 2 * c)
            q = L * ((2 * c + L - 1) / L);
    }
    return q;
}

/* ------------------------------------------------------ the entry */

static void fail(char *err, size_t errsize, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errsize)
        vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
}

hd_coll_sched *hd_coll_schedule(const hd_coll_shape *shape, double m, double tau, double beta,
                                char *err, size_t errsize)
{
    int d = shape->d, P = 1 << (d < 0 ? 0 : d);
    hd_coll_alg a = shape->alg;
    if ((unsigned)a >= HD_COLL_NALGS) {
        fail(err, errsize, "unknown collective algorithm %d", (int)a);
        return NULL;
    }
    if (d < 0 || d > 20) {
        fail(err, errsize, "the cube's dimension must be 0 .. 20, not %d", d);
        return NULL;
    }
    if (shape->root < 0 || shape->root >= P) {
        fail(err, errsize, "root %d is not a node of the %d-cube", shape->root, d);
        return NULL;
    }
    if (shape->g < 0 || shape->q < 0 || shape->g > HD_COLL_MAX_G || shape->q > HD_COLL_MAX_G) {
        fail(err, errsize, "g and q must be from 1 to %d (0: the default)", HD_COLL_MAX_G);
        return NULL;
    }
    hd_coll_sched *s = calloc(1, sizeof *s);
    if (!s) {
        fail(err, errsize, "out of memory");
        return NULL;
    }
    gen G = { s, 0 };
    s->shape = *shape;
    s->shape.perm = NULL;
    s->P = P;
    s->dest = -1;
    s->msg_items = hd_q_int(1);
    int n = shape->n, g = shape->g, dims[32];
    for (int t = 0; t < 32; t++)
        dims[t] = t;
    int sends = a >= HD_COLL_ARBSEND1 && a <= HD_COLL_XOCSEND2;
    if (sends) {
        int lo = a >= HD_COLL_XOCSEND1 ? 1 : 1, hi = a >= HD_COLL_XOCSEND1 ? d - 1 : d;
        if (n == 0)
            n = a >= HD_COLL_XOCSEND1 ? d - 1 : d;
        if (n < lo || n > hi) {
            fail(err, errsize, "%s needs 1 <= n <= %s (here n = %d, d = %d)", hd_coll_alg_name(a),
                 a >= HD_COLL_XOCSEND1 ? "d - 1" : "d", n, d);
            free(s);
            return NULL;
        }
        s->shape.n = n;
    }
    g = hd_coll_default_g(a, d, n, g, m, tau, beta);
    s->shape.g = g;
    if (d == 0 && a != HD_COLL_HISTOGRAM && a != HD_COLL_ALLGATHER && a != HD_COLL_ALLTOALL &&
        a != HD_COLL_PERMUTED && a != HD_COLL_TRANSPOSE_ROWS && !(a >= HD_COLL_BCAST1 && a <= HD_COLL_BCAST4) &&
        a != HD_COLL_DISTRIBUTE1 && a != HD_COLL_DISTRIBUTE2 && a != HD_COLL_COLLECT &&
        a != HD_COLL_INVERSION &&
        a != HD_COLL_TRANSPOSE_BLOCKS && a != HD_COLL_TRANSPOSE_LC) {
        fail(err, errsize, "%s needs a cube of dimension 1 at least", hd_coll_alg_name(a));
        free(s);
        return NULL;
    }
    switch (a) {
    case HD_COLL_BCAST1:
        s->kind = HD_MSG_SINGLE;
        for (int k = 0; k < d; k++)
            for (int x = 0; x < (1 << k); x++)
                send1(&G, k, x, x ^ (1 << k), 0, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_BCAST2:
        s->kind = HD_MSG_SINGLE;
        bcast2(&G, 0, 0, d, 0);
        break;
    case HD_COLL_BCAST3A:
        s->kind = HD_MSG_SINGLE;
        bcast3_wave(&G, 0, d + 1, d, hd_q_int(0), hd_q_int(1), 0);
        break;
    case HD_COLL_BCAST3B:
        s->kind = HD_MSG_SINGLE;
        bcast3b(&G, 0, d, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_BCAST4:
        s->kind = HD_MSG_SINGLE;
        bcast4(&G, d, g);
        break;
    case HD_COLL_OCSEND1:
        s->kind = HD_MSG_SINGLE;
        s->dest = P - 1;
        for (int k = 0; k < d; k++)
            send1(&G, k, (1 << k) - 1, ((1 << k) - 1) ^ (1 << k), 0, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_OCSEND2:
        s->kind = HD_MSG_SINGLE;
        s->dest = P - 1;
        ocsend2(&G, 0, 0, dims, d, 0, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_OCSEND3:
        s->kind = HD_MSG_SINGLE;
        s->dest = P - 1;
        ocsend3(&G, 0, 0, dims, d, 0, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_OCSEND4:
        s->kind = HD_MSG_SINGLE;
        s->dest = P - 1;
        ocsend4(&G, 0, 0, dims, d, g, 0, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_ARBSEND1:
        s->kind = HD_MSG_SINGLE;
        s->dest = (1 << n) - 1;
        ocsend4(&G, 0, 0, dims, n, g, 0, hd_q_int(0), hd_q_int(1));
        break;
    case HD_COLL_ARBSEND2:
        s->kind = HD_MSG_SINGLE;
        s->dest = (1 << n) - 1;
        bcast4(&G, d, g);
        finish(&G, 0);
        prune_to(&G, s->dest, d * g, hd_q_frac(1, (int64_t)d * g));
        break;
    case HD_COLL_ARBSEND3:
        /* d - n packets of m/d by X.O.C. SEND 2 through the subcubes at
         * 2^n, ..., 2^(d-1) (the paper prints 2^(n+1): one too few), the
         * rest, nm/d, by O.C. SEND 4 through the subcube of 0 and 2^n - 1. */
        s->kind = HD_MSG_SINGLE;
        s->dest = (1 << n) - 1;
        ocsend4(&G, 0, 0, dims, n, g, 0, hd_q_int(0), hd_q_frac(n, d));
        for (int e = n; e < d; e++)
            for (int j = 0; j < g; j++) {
                hd_q lo = hd_q_frac(e, d), hi = hd_q_frac(e + 1, d);
                xocsend(&G, j, e, n, part(&G, lo, hi, j, g), part(&G, lo, hi, j + 1, g));
            }
        break;
    case HD_COLL_XOCSEND1:
    case HD_COLL_XOCSEND2:
        s->kind = HD_MSG_SINGLE;
        s->dest = (1 << n) - 1;
        for (int j = 0; j < (a == HD_COLL_XOCSEND1 ? 1 : g); j++)
            xocsend(&G, j, n, n, hd_q_frac(j, a == HD_COLL_XOCSEND1 ? 1 : g),
                    hd_q_frac(j + 1, a == HD_COLL_XOCSEND1 ? 1 : g));
        break;
    case HD_COLL_DISTRIBUTE1:
        s->kind = HD_MSG_TO_NODE;
        s->nmsgs = (uint32_t)P;
        distribute1(&G, d);
        break;
    case HD_COLL_DISTRIBUTE2:
        s->kind = HD_MSG_TO_NODE;
        s->nmsgs = (uint32_t)P;
        if (d >= 2)
            distribute2(&G, d);
        else
            distribute1(&G, d);
        break;
    case HD_COLL_COLLECT:
        s->kind = HD_MSG_FROM_NODE;
        s->nmsgs = (uint32_t)P;
        distribute1(&G, d);
        /* COLLECT is DISTRIBUTE 1 run backwards (Section 5). */
        for (size_t i = 0; i < s->nxfers; i++) {
            int t = s->xfers[i].src;
            s->xfers[i].src = s->xfers[i].dst;
            s->xfers[i].dst = t;
            s->xfers[i].stage = d - 1 - s->xfers[i].stage;
        }
        break;
    case HD_COLL_ALLGATHER:
        s->kind = HD_MSG_ALL_FROM;
        s->nmsgs = (uint32_t)P;
        for (int x = 0; x < P; x++)
            bcast2(&G, 0, x, d, (uint32_t)x);
        break;
    case HD_COLL_INVERSION:
    case HD_COLL_PERMUTED:
    case HD_COLL_TRANSPOSE_BLOCKS:
    case HD_COLL_TRANSPOSE_LC: {
        s->kind = HD_MSG_PERM;
        s->nmsgs = (uint32_t)P;
        s->perm = malloc((size_t)P * sizeof *s->perm);
        if (!s->perm) {
            G.nomem = 1;
            break;
        }
        if ((a == HD_COLL_TRANSPOSE_BLOCKS || a == HD_COLL_TRANSPOSE_LC) && d % 2) {
            fail(err, errsize, "%s needs an even dimension d = 2c (Stout and Wagar 1990, "
                               "Section 7.2), not %d", hd_coll_alg_name(a), d);
            hd_coll_schedule_free(s);
            return NULL;
        }
        int c = d / 2;
        for (int x = 0; x < P; x++) {
            if (a == HD_COLL_INVERSION)
                s->perm[x] = x ^ (P - 1);
            else if (a == HD_COLL_PERMUTED)
                s->perm[x] = shape->perm ? shape->perm[x] : (x + 1) % P;
            else
                s->perm[x] = ((x & ((1 << c) - 1)) << c) | (x >> c);
        }
        if (a == HD_COLL_PERMUTED) {
            unsigned char *seen = calloc((size_t)P, 1);
            int bad = !seen;
            for (int x = 0; x < P && !bad; x++) {
                if (s->perm[x] < 0 || s->perm[x] >= P || seen[s->perm[x]])
                    bad = 1;
                else
                    seen[s->perm[x]] = 1;
            }
            free(seen);
            if (bad) {
                fail(err, errsize, "the destinations of a permuted send are not a permutation "
                                   "of 0 .. %d", P - 1);
                hd_coll_schedule_free(s);
                return NULL;
            }
        }
        if (a == HD_COLL_INVERSION) {
            for (int x = 0; x < P; x++)
                ocsend2(&G, 0, x, dims, d, (uint32_t)x, hd_q_int(0), hd_q_int(1));
        } else if (a == HD_COLL_TRANSPOSE_LC) {
            int L = lcm_upto(c), q = hd_coll_default_q(d, shape->q, m, tau, beta);
            if (c > 0 && (q % L || q < 2 * c)) {
                fail(err, errsize, "transpose-lc needs q a multiple of %d (every l.c. subcube "
                                   "of dimension k <= %d uses p = q/k packets per link) and q >= "
                                   "%d (p >= 2, Section 7.2), not %d", L, c, 2 * c, q);
                hd_coll_schedule_free(s);
                return NULL;
            }
            s->shape.q = q;
            transpose_lc(&G, d, q);
        } else {
            complete_exchange(&G, 0, d, P, NULL);
            complete_exchange(&G, d, d, P, s->perm);
        }
        break;
    }
    case HD_COLL_ALLTOALL:
    case HD_COLL_TRANSPOSE_ROWS:
        s->kind = HD_MSG_PAIR;
        s->nmsgs = (uint32_t)P * (uint32_t)P;
        if (a == HD_COLL_TRANSPOSE_ROWS)
            s->msg_items = hd_q_frac(1, P);
        complete_exchange(&G, 0, d, 1, NULL);
        break;
    case HD_COLL_HISTOGRAM:
        s->kind = HD_MSG_REDUCE;
        s->nmsgs = (uint32_t)P;
        s->msg_items = hd_q_frac(1, P);
        histogram(&G, d);
        if (shape->then == HD_RED_TO_ROOT) {
            size_t first = s->nxfers;
            distribute1(&G, d);
            for (size_t i = first; i < s->nxfers; i++) {
                int t = s->xfers[i].src;
                s->xfers[i].src = s->xfers[i].dst;
                s->xfers[i].dst = t;
                s->xfers[i].stage = d + d - 1 - s->xfers[i].stage;
            }
        } else if (shape->then == HD_RED_TO_ALL) {
            for (int x = 0; x < P; x++)
                bcast2(&G, d, x, d, (uint32_t)x);
        }
        break;
    default:
        break;
    }
    if (!s->nmsgs)
        s->nmsgs = 1;
    int batch = a == HD_COLL_DISTRIBUTE1 || a == HD_COLL_DISTRIBUTE2 || a == HD_COLL_COLLECT || a == HD_COLL_ALLGATHER ||
                a == HD_COLL_INVERSION || a == HD_COLL_ALLTOALL || a == HD_COLL_PERMUTED ||
                a == HD_COLL_TRANSPOSE_ROWS || a == HD_COLL_TRANSPOSE_BLOCKS ||
                a == HD_COLL_HISTOGRAM || a == HD_COLL_OCSEND3 || a == HD_COLL_OCSEND4 ||
                a == HD_COLL_ARBSEND1 || a == HD_COLL_ARBSEND3 || a == HD_COLL_XOCSEND1 ||
                a == HD_COLL_XOCSEND2;
    finish(&G, batch);
    renumber(s);
    if (a == HD_COLL_DISTRIBUTE2)
        compact_stages(s);
    /* The completed algorithms have no root: every node does the same. */
    int rooted = a <= HD_COLL_COLLECT || (a == HD_COLL_HISTOGRAM && shape->then == HD_RED_TO_ROOT);
    if (!rooted)
        s->shape.root = 0;
    apply_root(s, s->shape.root);
    if (G.nomem || s->overflow) {
        fail(err, errsize, G.nomem ? "out of memory building the %s schedule"
                                   : "the %s schedule's fractions do not fit in 64 bits",
             hd_coll_alg_name(a));
        hd_coll_schedule_free(s);
        return NULL;
    }
    return s;
}

void hd_coll_schedule_free(hd_coll_sched *s)
{
    if (!s)
        return;
    free(s->xfers);
    free(s->chunks);
    free(s->perm);
    free(s);
}

int hd_coll_msg_origin(const hd_coll_sched *s, uint32_t msg)
{
    switch (s->kind) {
    case HD_MSG_SINGLE:
    case HD_MSG_TO_NODE:
        return s->shape.root;
    case HD_MSG_FROM_NODE:
    case HD_MSG_ALL_FROM:
    case HD_MSG_PERM:
        return (int)msg;
    case HD_MSG_PAIR:
        return (int)(msg / (uint32_t)s->P);
    case HD_MSG_REDUCE:
        return -1;
    }
    return -1;
}

int hd_coll_msg_wanted(const hd_coll_sched *s, uint32_t msg, int v)
{
    switch (s->kind) {
    case HD_MSG_SINGLE:
        return s->dest < 0 || v == s->dest;
    case HD_MSG_TO_NODE:
        return v == (int)msg;
    case HD_MSG_FROM_NODE:
        return v == s->shape.root;
    case HD_MSG_ALL_FROM:
        return 1;
    case HD_MSG_PAIR:
        return v == (int)(msg % (uint32_t)s->P);
    case HD_MSG_PERM:
        return v == s->perm[msg];
    case HD_MSG_REDUCE:
        return s->shape.then == HD_RED_TO_ALL ? 1
               : s->shape.then == HD_RED_TO_ROOT ? v == s->shape.root
                                                 : v == (int)msg;
    }
    return 0;
}
