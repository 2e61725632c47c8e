/*
 * coll.c — the run-time collectives (hyperdo/coll.h): each node executes
 * its part of the schedule that runtime/coll/schedule.c generates for the
 * algorithm (the one the link-bound simulator times), over the program's
 * transport.  In every stage a node first sends each of its transfers of
 * the stage (the chunks packed into one message; sends never wait), then
 * receives each of its incoming transfers and stores or combines the
 * chunks; messages of one ordered pair stay in order, so the stages need
 * no barrier.
 *
 * Where a message lives on a node ("home"): the user's buffers at its
 * origin and its destinations, a scratch buffer on the nodes that only
 * pass it on; for a reduction, each node's copy of its own vector, into
 * which the received partial sums are combined (HISTOGRAM, Stout and
 * Wagar 1990, Section 8) and over which COLLECT or COMPLETE BROADCAST
 * then copy the reduced blocks.
 *
 * A schedule depends only on the shape (algorithm, cube, root, g, q, n,
 * the permutation), so each is built once per process and kept: on the
 * threads back end every processor shares it.
 */
#include "hd_internal.h"
#include "hyperdo/coll.h"
#include "schedule.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the schedules */

typedef struct cached {
    hd_coll_shape shape;      /* shape.perm points at perm below */
    int32_t *perm;
    hd_coll_sched *s;
    /* Per physical node, its transfers out and in (indices into s->xfers,
     * in stage order), built by the node itself on first use. */
    uint32_t **out, **in;
    uint32_t *nout, *nin;
    struct cached *next;
} cached;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached *cache;

static int same_shape(const cached *c, const hd_coll_shape *sh, int P)
{
    if (c->shape.alg != sh->alg || c->shape.d != sh->d || c->shape.root != sh->root ||
        c->shape.g != sh->g || c->shape.q != sh->q || c->shape.n != sh->n ||
        c->shape.then != sh->then || (!c->perm) != (!sh->perm))
        return 0;
    return !sh->perm || memcmp(c->perm, sh->perm, (size_t)P * sizeof *sh->perm) == 0;
}

/* The schedule of sh (its g resolved by the caller), built or found. */
static cached *schedule_for(const hd_coll_shape *sh)
{
    int P = 1 << sh->d;
    pthread_mutex_lock(&cache_lock);
    cached *c;
    for (c = cache; c; c = c->next)
        if (same_shape(c, sh, P))
            break;
    if (!c) {
        char err[256];
        c = calloc(1, sizeof *c);
        if (!c)
            hd__fatal("collective %s: out of memory", hd_coll_alg_name(sh->alg));
        c->shape = *sh;
        if (sh->perm) {
            c->perm = malloc((size_t)P * sizeof *c->perm);
            if (!c->perm)
                hd__fatal("collective %s: out of memory", hd_coll_alg_name(sh->alg));
            memcpy(c->perm, sh->perm, (size_t)P * sizeof *c->perm);
            c->shape.perm = c->perm;
        }
        /* g = 0 was resolved by the caller; m, tau and beta only choose g. */
        c->s = hd_coll_schedule(&c->shape, 1, 1, 1, err, sizeof err);
        if (!c->s)
            hd__fatal("collective %s: %s", hd_coll_alg_name(sh->alg), err);
        c->out = calloc((size_t)P, sizeof *c->out);
        c->in = calloc((size_t)P, sizeof *c->in);
        c->nout = calloc((size_t)P, sizeof *c->nout);
        c->nin = calloc((size_t)P, sizeof *c->nin);
        if (!c->out || !c->in || !c->nout || !c->nin)
            hd__fatal("collective %s: out of memory", hd_coll_alg_name(sh->alg));
        c->next = cache;
        cache = c;
    }
    pthread_mutex_unlock(&cache_lock);
    return c;
}

/* Node p's transfers out and in, in stage order (only p writes its slots). */
static void index_node(cached *c, int p)
{
    const hd_coll_sched *s = c->s;
    if (c->out[p] || c->in[p])
        return;
    uint32_t no = 0, ni = 0;
    for (size_t x = 0; x < s->nxfers; x++) {
        no += s->xfers[x].src == p;
        ni += s->xfers[x].dst == p;
    }
    c->out[p] = malloc((no ? no : 1) * sizeof **c->out);
    c->in[p] = malloc((ni ? ni : 1) * sizeof **c->in);
    if (!c->out[p] || !c->in[p])
        hd__fatal("collective: out of memory");
    no = ni = 0;
    for (size_t x = 0; x < s->nxfers; x++) {
        if (s->xfers[x].src == p)
            c->out[p][no++] = (uint32_t)x;
        if (s->xfers[x].dst == p)
            c->in[p][ni++] = (uint32_t)x;
    }
    c->nout[p] = no;
    c->nin[p] = ni;
}

/* ------------------------------------------------ combining */

/* Integers: sums and products in the unsigned type U of T's width, so
 * that a signed overflow wraps as the sequential loop's would on this
 * machine (and is no undefined behaviour here): the same bits. */
#define COMBINE_INT(T, U)                                                              \
    do {                                                                               \
        T *a = acc;                                                                    \
        const T *b = in;                                                               \
        for (size_t i = 0; i < n; i++)                                                 \
            switch (op) {                                                              \
            case HD_OP_SUM: a[i] = (T)((U)a[i] + (U)b[i]); break;                      \
            case HD_OP_PROD: a[i] = (T)((U)a[i] * (U)b[i]); break;                     \
            case HD_OP_MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;                   \
            case HD_OP_MAX: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                   \
            case HD_OP_BAND: a[i] = (T)(a[i] & b[i]); break;                           \
            case HD_OP_BOR: a[i] = (T)(a[i] | b[i]); break;                            \
            default: a[i] = (T)(a[i] ^ b[i]); break;                                   \
            }                                                                          \
    } while (0)

#define COMBINE_FLOAT(T)                                                               \
    do {                                                                               \
        T *a = acc;                                                                    \
        const T *b = in;                                                               \
        for (size_t i = 0; i < n; i++)                                                 \
            switch (op) {                                                              \
            case HD_OP_SUM: a[i] = a[i] + b[i]; break;                                 \
            case HD_OP_PROD: a[i] = a[i] * b[i]; break;                                \
            case HD_OP_MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;                   \
            default: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                          \
            }                                                                          \
    } while (0)

#define COMBINE_COMPLEX(T)                                                             \
    do {                                                                               \
        T *a = acc;                                                                    \
        const T *b = in;                                                               \
        for (size_t i = 0; i < n; i++)                                                 \
            a[i] = op == HD_OP_SUM ? a[i] + b[i] : a[i] * b[i];                        \
    } while (0)

/* acc[i] = acc[i] op in[i] for n elements: acc holds the receiver's
 * partial result, in the sender's (the order HISTOGRAM fixes). */
static void combine(void *acc, const void *in, size_t n, hd_coll_type type, hd_coll_op op)
{
    switch (type) {
    case HD_T_INT8: COMBINE_INT(int8_t, uint8_t); break;
    case HD_T_INT16: COMBINE_INT(int16_t, uint16_t); break;
    case HD_T_INT32: COMBINE_INT(int32_t, uint32_t); break;
    case HD_T_INT64: COMBINE_INT(int64_t, uint64_t); break;
    case HD_T_UINT8: COMBINE_INT(uint8_t, uint8_t); break;
    case HD_T_UINT16: COMBINE_INT(uint16_t, uint16_t); break;
    case HD_T_UINT32: COMBINE_INT(uint32_t, uint32_t); break;
    case HD_T_UINT64: COMBINE_INT(uint64_t, uint64_t); break;
    case HD_T_FLOAT: COMBINE_FLOAT(float); break;
    case HD_T_DOUBLE: COMBINE_FLOAT(double); break;
    case HD_T_LDOUBLE: COMBINE_FLOAT(long double); break;
    case HD_T_CFLOAT: COMBINE_COMPLEX(float _Complex); break;
    case HD_T_CDOUBLE: COMBINE_COMPLEX(double _Complex); break;
    default: COMBINE_COMPLEX(long double _Complex); break;
    }
}

static void check_type_op(hd_coll_type type, hd_coll_op op)
{
    if ((unsigned)type >= HD_NTYPES)
        hd__fatal("collective reduction: unknown element type %d", (int)type);
    if ((unsigned)op >= HD_NOPS)
        hd__fatal("collective reduction: unknown operator %d", (int)op);
    if (type >= HD_T_FLOAT && op >= HD_OP_BAND)
        hd__fatal("collective reduction: & | ^ need an integer type");
    if (type >= HD_T_CFLOAT && (op == HD_OP_MIN || op == HD_OP_MAX))
        hd__fatal("collective reduction: min and max need a real type, not a complex one");
}

/* ------------------------------------------------ executing */

/* One call's view of where each message lives on this node. */
typedef struct {
    const hd_coll_sched *s;
    int p;                    /* this node, physical (in its subcube) */
    uint64_t dims, base;      /* a subcube's dimensions and this node's
                               * coset (its other bits); 0, 0: the cube */
    const int *to_virtual;    /* of every physical node */
    const hd_coll_args *a;
    size_t esize;             /* bytes per element */
    size_t count;             /* elements per message (REDUCE: of the whole vector) */
    unsigned char *acc;       /* REDUCE: this node's vector */
    const size_t *counts;     /* messages of their own sizes: counts[msg]
                               * (PERM: by physical origin; PAIR: s P + t);
                               * else NULL */
    const unsigned char *const *sendv;  /* PAIR: one buffer per destination */
    unsigned char *const *recvv;        /* and per source (virtual order) */
    /* Scratch messages of the nodes that pass them on: msg -> buffer. */
    uint32_t *scratch_msg;
    unsigned char **scratch_buf;
    size_t nscratch, scratch_cap;
} view;

/* The elements [first, first + len) that message msg spans in its home
 * buffer (REDUCE: block to_virtual[msg] of the vector). */
static void msg_span(const view *V, uint32_t msg, size_t *first, size_t *len)
{
    if (V->s->kind == HD_MSG_REDUCE) {
        size_t P = (size_t)V->s->P, b = (size_t)V->to_virtual[msg];
        size_t lo = (size_t)((unsigned __int128)b * V->count / P);
        size_t hi = (size_t)((unsigned __int128)(b + 1) * V->count / P);
        *first = lo;
        *len = hi - lo;
    } else {
        *first = 0;
        *len = V->counts ? V->counts[msg] : V->count;
    }
}

static unsigned char *scratch(view *V, uint32_t msg)
{
    for (size_t i = 0; i < V->nscratch; i++)
        if (V->scratch_msg[i] == msg)
            return V->scratch_buf[i];
    if (V->nscratch == V->scratch_cap) {
        size_t cap = V->scratch_cap ? 2 * V->scratch_cap : 16;
        uint32_t *m = realloc(V->scratch_msg, cap * sizeof *m);
        if (m)
            V->scratch_msg = m;
        unsigned char **b = realloc(V->scratch_buf, cap * sizeof *b);
        if (b)
            V->scratch_buf = b;
        if (!m || !b)
            hd__fatal("collective: out of memory");
        V->scratch_cap = cap;
    }
    size_t first, len;
    msg_span(V, msg, &first, &len);
    unsigned char *buf = malloc(len * V->esize > 0 ? len * V->esize : 1);
    if (!buf)
        hd__fatal("collective: out of memory for %zu bytes", len * V->esize);
    V->scratch_msg[V->nscratch] = msg;
    V->scratch_buf[V->nscratch++] = buf;
    return buf;
}

/* Message msg's bytes on this node (as the origin, a destination, or a
 * node passing it on). */
static unsigned char *home(view *V, uint32_t msg)
{
    const hd_coll_sched *s = V->s;
    const hd_coll_args *a = V->a;
    int p = V->p, P = s->P;
    size_t blk = V->count * V->esize;
    switch (s->kind) {
    case HD_MSG_SINGLE:
        if (s->dest < 0 || p == s->shape.root || p == s->dest)
            return a->recv;
        return scratch(V, msg);
    case HD_MSG_TO_NODE:
        if (p == s->shape.root)
            return (unsigned char *)a->send + (size_t)V->to_virtual[msg] * blk;
        return (int)msg == p ? a->recv : scratch(V, msg);
    case HD_MSG_FROM_NODE:
        if ((int)msg == p)
            return (unsigned char *)a->send;
        return p == s->shape.root ? (unsigned char *)a->recv + (size_t)V->to_virtual[msg] * blk
                                  : scratch(V, msg);
    case HD_MSG_ALL_FROM:
        if ((int)msg == p)
            return (unsigned char *)a->send;
        return (unsigned char *)a->recv + (size_t)V->to_virtual[msg] * blk;
    case HD_MSG_PAIR: {
        int from = (int)(msg / (uint32_t)P), to = (int)(msg % (uint32_t)P);
        if (from == p)
            return V->sendv ? (unsigned char *)V->sendv[V->to_virtual[to]]
                            : (unsigned char *)a->send + (size_t)V->to_virtual[to] * blk;
        if (to == p)
            return V->recvv ? V->recvv[V->to_virtual[from]]
                            : (unsigned char *)a->recv + (size_t)V->to_virtual[from] * blk;
        return scratch(V, msg);
    }
    case HD_MSG_PERM:
        if ((int)msg == p)
            return (unsigned char *)a->send;
        return s->perm[msg] == p ? a->recv : scratch(V, msg);
    case HD_MSG_REDUCE:
        return V->acc;
    }
    return NULL;
}

/* The bytes chunk c covers: [*off, *off + *bytes) of its home. */
static void chunk_bytes(const view *V, const hd_coll_chunk *c, size_t *off, size_t *bytes)
{
    size_t first, len;
    msg_span(V, c->msg, &first, &len);
    uint64_t lo = hd_q_floor_times(c->lo, len), hi = hd_q_floor_times(c->hi, len);
    *off = (first + lo) * V->esize;
    *bytes = (hi - lo) * V->esize;
}

/* Copies that stay on one node: a message whose origin is also a
 * destination. */
static void local_copies(view *V)
{
    const hd_coll_sched *s = V->s;
    const hd_coll_args *a = V->a;
    int p = V->p;
    size_t blk = V->count * V->esize;
    unsigned char *dst = NULL;
    const unsigned char *src = NULL;
    switch (s->kind) {
    case HD_MSG_TO_NODE:
        if (p == s->shape.root)
            src = (const unsigned char *)a->send + (size_t)V->to_virtual[p] * blk, dst = a->recv;
        break;
    case HD_MSG_FROM_NODE:
        if (p == s->shape.root)
            src = a->send, dst = (unsigned char *)a->recv + (size_t)V->to_virtual[p] * blk;
        break;
    case HD_MSG_ALL_FROM:
        src = a->send, dst = (unsigned char *)a->recv + (size_t)V->to_virtual[p] * blk;
        break;
    case HD_MSG_PAIR:
        if (V->sendv)
            break;   /* hd_coll_alltoallv: a node's message to itself stays out */
        src = (const unsigned char *)a->send + (size_t)V->to_virtual[p] * blk;
        dst = (unsigned char *)a->recv + (size_t)V->to_virtual[p] * blk;
        break;
    case HD_MSG_PERM:
        if (s->perm[p] == p) {
            src = a->send, dst = a->recv;
            if (V->counts)
                blk = V->counts[p] * V->esize;
        }
        break;
    default:
        break;
    }
    if (src && dst && blk && src != dst)
        memmove(dst, src, blk);
}

/* The bytes transfer t carries (the same on both of its ends). */
static size_t xfer_bytes(const view *V, const hd_coll_xfer *t)
{
    size_t total = 0;
    for (uint32_t k = 0; k < t->count; k++) {
        size_t off, bytes;
        chunk_bytes(V, &V->s->chunks[t->first + k], &off, &bytes);
        total += bytes;
    }
    return total;
}

/* buf grown to hold `need` bytes. */
static unsigned char *room(unsigned char *buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return buf;
    unsigned char *nb = realloc(buf, need);
    if (!nb)
        hd__fatal("collective: out of memory for %zu bytes", need);
    *cap = need;
    return nb;
}

/* The bits of x at the dimensions of mask, packed (x86's pext), and back. */
static uint64_t pack_bits(uint64_t x, uint64_t mask)
{
    uint64_t r = 0;
    int k = 0;
    for (; mask; mask &= mask - 1, k++)
        if (x & mask & -mask)
            r |= UINT64_C(1) << k;
    return r;
}

static uint64_t spread_bits(uint64_t j, uint64_t mask)
{
    uint64_t r = 0;
    for (int k = 0; mask; mask &= mask - 1, k++)
        if (j >> k & 1)
            r |= mask & -mask;
    return r;
}

/* The physical processor of schedule node x (a subcube's: in this node's
 * coset). */
static int physical(const view *V, int x)
{
    return V->dims ? (int)(V->base | spread_bits((uint64_t)x, V->dims)) : x;
}

int hd_coll_subcube_index(int v, uint64_t dims)
{
    if (v < 0 || v >= hd_nprocs())
        hd__fatal("hd_coll_subcube_index: %d is not a virtual processor", v);
    return (int)pack_bits((uint64_t)hd__physical_of(v), dims);
}

static void execute(cached *c, view *V)
{
    const hd_coll_sched *s = c->s;
    int p = V->p;
    if (V->dims) {
        /* One node of each coset indexes the same slot: the first does. */
        pthread_mutex_lock(&cache_lock);
        index_node(c, p);
        pthread_mutex_unlock(&cache_lock);
    } else {
        index_node(c, p);
    }
    local_copies(V);
    size_t cap = 0;
    unsigned char *buf = NULL;
    uint32_t io = 0, ii = 0;
    for (int st = 0; st < s->nstages; st++) {
        for (; io < c->nout[p] && s->xfers[c->out[p][io]].stage == st; io++) {
            const hd_coll_xfer *t = &s->xfers[c->out[p][io]];
            size_t total = xfer_bytes(V, t);
            if (total == 0)
                continue;     /* the receiver knows it too, and waits for nothing */
            buf = room(buf, &cap, total);
            size_t at = 0;
            for (uint32_t k = 0; k < t->count; k++) {
                const hd_coll_chunk *ch = &s->chunks[t->first + k];
                size_t off, bytes;
                chunk_bytes(V, ch, &off, &bytes);
                if (bytes)
                    memcpy(buf + at, home(V, ch->msg) + off, bytes);
                at += bytes;
            }
            hd__tr_send(physical(V, t->dst), buf, total);
        }
        for (; ii < c->nin[p] && s->xfers[c->in[p][ii]].stage == st; ii++) {
            const hd_coll_xfer *t = &s->xfers[c->in[p][ii]];
            size_t total = xfer_bytes(V, t);
            if (total == 0)
                continue;
            buf = room(buf, &cap, total);
            size_t got = hd__tr_recv(physical(V, t->src), buf, total);
            if (got != total)
                hd__fatal("collective %s: stage %d: %zu bytes from processor %d, %zu expected "
                          "(the processors called different collectives?)",
                          hd_coll_alg_name(s->shape.alg), st, got, physical(V, t->src), total);
            size_t at = 0;
            for (uint32_t k = 0; k < t->count; k++) {
                const hd_coll_chunk *ch = &s->chunks[t->first + k];
                size_t off, bytes;
                chunk_bytes(V, ch, &off, &bytes);
                if (bytes && t->combine) {
                    combine(home(V, ch->msg) + off, buf + at, bytes / V->esize, V->a->type,
                            V->a->op);
                } else if (bytes && hd_coll_msg_origin(s, ch->msg) != p) {
                    /* (A broadcast's root gets some of its own packets back,
                     * BROADCAST 3A: it keeps its own.) */
                    memcpy(home(V, ch->msg) + off, buf + at, bytes);
                }
                at += bytes;
            }
        }
    }
    free(buf);
}

/* ------------------------------------------------ the calls */

/* a * b, or the program stops: a size that wraps would move the wrong
 * bytes silently. */
static size_t mul_size(size_t a, size_t b, const char *name)
{
    if (b && a > SIZE_MAX / b)
        hd__fatal("collective %s: %zu x %zu bytes do not fit in size_t", name, a, b);
    return a * b;
}

/* The bytes this node's send and recv buffers span for the call. */
static size_t send_bytes(const hd_coll_sched *s, const hd_coll_args *a, size_t vector_count,
                         const size_t *counts, int P)
{
    size_t blk = mul_size(a->count, a->size, hd_coll_alg_name(a->alg));
    switch (s->kind) {
    case HD_MSG_TO_NODE:
    case HD_MSG_PAIR:
        return mul_size(blk, (size_t)P, hd_coll_alg_name(a->alg));
    case HD_MSG_REDUCE:
        return mul_size(vector_count, hd_coll_type_size(a->type), hd_coll_alg_name(a->alg));
    case HD_MSG_PERM:
        /* messages of their own sizes: this node's own */
        return counts ? mul_size(counts[hd_v_get_pid()], a->size, hd_coll_alg_name(a->alg))
                      : blk;
    default:
        return blk;
    }
}

/* (An upper bound for messages of their own sizes: it only decides
 * whether the buffers overlap.) */
static size_t recv_bytes(const hd_coll_sched *s, const hd_coll_args *a, const size_t *counts,
                         int P)
{
    size_t blk = mul_size(a->count, a->size, hd_coll_alg_name(a->alg));
    switch (s->kind) {
    case HD_MSG_FROM_NODE:
    case HD_MSG_ALL_FROM:
    case HD_MSG_PAIR:
        return mul_size(blk, (size_t)P, hd_coll_alg_name(a->alg));
    case HD_MSG_PERM:
        if (counts) {
            size_t most = 0;
            for (int v = 0; v < P; v++)
                most = counts[v] > most ? counts[v] : most;
            return mul_size(most, a->size, hd_coll_alg_name(a->alg));
        }
        return blk;
    default:
        return blk;
    }
}

static int self_physical(const char *fn)
{
    int p = hd__tr_self();
    if (p < 0)
        hd__fatal("%s called from a thread that is not one of hd_run's processors", fn);
    return p;
}

static int pipelined(hd_coll_alg a)
{
    return a == HD_COLL_BCAST4 || a == HD_COLL_OCSEND4 ||
           (a >= HD_COLL_ARBSEND1 && a <= HD_COLL_ARBSEND3) || a == HD_COLL_XOCSEND2;
}

/* Runs args on this node; `then` for a reduction; `counts` (virtual
 * order) for a permutation whose messages have sizes of their own. */
static void run_counts(const hd_coll_args *a, hd_red_then then, size_t vector_count,
                       const size_t *counts);

/* hd_coll_alltoallv's buffers, for run_counts (one call at a time per
 * processor: thread-local). */
static _Thread_local const unsigned char *const *tl_sendv;
static _Thread_local unsigned char *const *tl_recvv;

static void run(const hd_coll_args *a, hd_red_then then, size_t vector_count)
{
    run_counts(a, then, vector_count, NULL);
}

static void run_counts(const hd_coll_args *a, hd_red_then then, size_t vector_count,
                       const size_t *counts)
{
    const char *name = hd_coll_alg_name(a->alg);
    if ((unsigned)a->alg >= HD_COLL_NALGS)
        hd__fatal("hd_coll_run: unknown algorithm %d", (int)a->alg);
    int p = self_physical(name);
    if (!hd__in_node_code())
        hd__fatal("collective %s called by the host outside a doall: every processor must call "
                  "it, from node code (a doall's node function)", name);
    int P = hd_nprocs(), d = hd_dim();
    int *to_virtual = malloc((size_t)P * sizeof *to_virtual);
    int *to_physical = malloc((size_t)P * sizeof *to_physical);
    int32_t *perm = NULL;
    if (!to_virtual || !to_physical)
        hd__fatal("collective %s: out of memory", name);
    for (int x = 0; x < P; x++) {
        to_virtual[x] = hd__virtual_of(x);
        to_physical[to_virtual[x]] = x;
    }
    if (a->root < 0 || a->root >= P)
        hd__fatal("collective %s: root %d is not a virtual processor (0 .. %d)", name, a->root,
                  P - 1);
    /* A subcube's collective (coll.h, dims): its schedule is the k-cube's,
     * in the coordinates of the dims bits; the other bits name the coset,
     * which the root must share. */
    uint64_t dims = a->dims, base = 0;
    int sd = d, sroot = to_physical[a->root], sp = p;
    int *sub_virtual = NULL;
    if (dims) {
        int one_to_all = a->alg <= HD_COLL_BCAST4 || a->alg == HD_COLL_DISTRIBUTE1 ||
                         a->alg == HD_COLL_DISTRIBUTE2 || a->alg == HD_COLL_COLLECT ||
                         a->alg == HD_COLL_ALLGATHER;
        if (d < 64 && dims >> d)
            hd__fatal("collective %s: dims %#llx names dimensions beyond the %d-cube", name,
                      (unsigned long long)dims, d);
        if (!one_to_all || vector_count || counts)
            hd__fatal("collective %s: runs on the whole cube only (dims must be 0)", name);
        base = (uint64_t)p & ~dims;
        if (((uint64_t)sroot & ~dims) != base)
            hd__fatal("collective %s: root %d (physical %d) is not in the subcube coset of "
                      "processor %d (physical %d; dims %#llx)", name, a->root, sroot,
                      to_virtual[p], p, (unsigned long long)dims);
        sd = __builtin_popcountll(dims);
        sroot = (int)pack_bits((uint64_t)sroot, dims);
        sp = (int)pack_bits((uint64_t)p, dims);
        sub_virtual = malloc(((size_t)1 << sd) * sizeof *sub_virtual);
        if (!sub_virtual)
            hd__fatal("collective %s: out of memory", name);
        for (int j = 0; j < 1 << sd; j++)
            sub_virtual[j] = j;
    }
    /* Fields the algorithm does not use are ignored (coll.h). */
    int uses_q = a->alg == HD_COLL_TRANSPOSE_LC;
    int uses_n = a->alg >= HD_COLL_ARBSEND1 && a->alg <= HD_COLL_XOCSEND2;
    hd_coll_shape sh = { a->alg, sd, sroot, pipelined(a->alg) ? a->g : 0,
                         uses_q ? a->q : 0, uses_n ? a->n : 0, NULL, then };
    if (vector_count)
        mul_size(vector_count, hd_coll_type_size(a->type), name);
    if (sh.g == 0 && pipelined(a->alg)) {
        /* The paper's optimum for tau / beta = 1/1000 (a start-up worth
         * a thousand items), as no machine parameters are known here. */
        hd_coll_sched *probe;
        char err[256];
        probe = hd_coll_schedule(&sh, (double)a->count, 1, 1000, err, sizeof err);
        if (!probe)
            hd__fatal("collective %s: %s", name, err);
        sh.g = probe->shape.g;
        hd_coll_schedule_free(probe);
    }
    if (a->alg == HD_COLL_PERMUTED) {
        if (!a->dest)
            hd__fatal("collective permuted: no destination table");
        perm = malloc((size_t)P * sizeof *perm);
        if (!perm)
            hd__fatal("collective %s: out of memory", name);
        for (int x = 0; x < P; x++) {
            int v = a->dest[to_virtual[x]];
            if (v < 0 || v >= P)
                hd__fatal("collective permuted: dest[%d] = %d is not a virtual processor",
                          to_virtual[x], v);
            perm[x] = to_physical[v];
        }
        sh.perm = perm;
    }
    if (a->alg == HD_COLL_HISTOGRAM)
        check_type_op(a->type, a->op);
    cached *c = schedule_for(&sh);
    /* The send and receive buffers may overlap (in place): a multi-stage
     * algorithm would overwrite what it has yet to send, so the sent data
     * are copied first. */
    hd_coll_args local = *a;
    void *copy = NULL;
    size_t sbytes = send_bytes(c->s, a, vector_count, counts, c->s->P), rbytes = sbytes;
    if (a->send && a->recv && sbytes && a->alg != HD_COLL_HISTOGRAM) {
        const unsigned char *sb = a->send, *rb = a->recv;
        rbytes = recv_bytes(c->s, a, counts, c->s->P);
        if (sb < rb + rbytes && rb < sb + sbytes) {
            copy = malloc(sbytes);
            if (!copy)
                hd__fatal("collective %s: out of memory for %zu bytes", name, sbytes);
            memcpy(copy, a->send, sbytes);
            local.send = copy;
        }
    }
    a = &local;
    view V = { c->s, sp, dims, base, dims ? sub_virtual : to_virtual, a, a->size, a->count,
               NULL, NULL, NULL, NULL, NULL, NULL, 0, 0 };
    V.sendv = tl_sendv;
    V.recvv = tl_recvv;
    if (a->alg == HD_COLL_HISTOGRAM) {
        V.esize = hd_coll_type_size(a->type);
        V.count = vector_count;
        V.acc = malloc(vector_count * V.esize > 0 ? vector_count * V.esize : 1);
        if (!V.acc)
            hd__fatal("collective %s: out of memory", name);
        if (vector_count)
            memcpy(V.acc, a->send, vector_count * V.esize);
    } else if (a->size == 0) {
        hd__fatal("collective %s: elements of 0 bytes", name);
    }
    size_t *phys_counts = NULL;
    if (counts) {
        size_t n = c->s->kind == HD_MSG_PAIR ? (size_t)P * (size_t)P : (size_t)P;
        phys_counts = malloc(n * sizeof *phys_counts);
        if (!phys_counts)
            hd__fatal("collective %s: out of memory", name);
        if (c->s->kind == HD_MSG_PAIR)
            for (int x = 0; x < P; x++)
                for (int y = 0; y < P; y++)
                    phys_counts[(size_t)x * P + y] = counts[(size_t)to_virtual[x] * P + to_virtual[y]];
        else
            for (int x = 0; x < P; x++)
                phys_counts[x] = counts[to_virtual[x]];
        V.counts = phys_counts;
    }
    double bytes = (double)V.count * (double)V.esize;
    if (a->alg == HD_COLL_TRANSPOSE_ROWS)
        bytes *= P;   /* the schedule's m is a node's rows, P blocks */
    if (phys_counts)
        for (size_t x = 0; x < (c->s->kind == HD_MSG_PAIR ? (size_t)P * P : (size_t)P); x++)
            if ((double)phys_counts[x] * (double)V.esize > bytes)
                bytes = (double)phys_counts[x] * (double)V.esize;   /* the longest */
    hd__tr_coll(c->s, bytes);
    execute(c, &V);
    hd__tr_coll(NULL, 0);
    free(phys_counts);
    free(copy);
    if (V.acc) {
        size_t first, len;
        msg_span(&V, (uint32_t)V.p, &first, &len);
        if (then == HD_RED_SCATTER)
            memcpy(a->recv, V.acc + first * V.esize, len * V.esize);
        else if (then == HD_RED_TO_ALL || V.p == c->s->shape.root)
            memcpy(a->recv, V.acc, vector_count * V.esize);
        free(V.acc);
    }
    for (size_t i = 0; i < V.nscratch; i++)
        free(V.scratch_buf[i]);
    free(V.scratch_msg);
    free(V.scratch_buf);
    free(perm);
    free(sub_virtual);
    free(to_virtual);
    free(to_physical);
}

void hd_coll_run(const hd_coll_args *args)
{
    if (args->alg == HD_COLL_HISTOGRAM) {
        run(args, HD_RED_SCATTER, mul_size(args->count, (size_t)hd_nprocs(), "histogram"));
        return;
    }
    run(args, HD_RED_SCATTER, 0);
}

static hd_coll_args bytes_args(hd_coll_alg alg, const void *send, void *recv, size_t bytes)
{
    hd_coll_args a;
    memset(&a, 0, sizeof a);
    a.alg = alg;
    a.send = send;
    a.recv = recv;
    a.count = bytes;
    a.size = 1;
    return a;
}

void hd_coll_bcast(void *buf, size_t bytes, int root)
{
    hd_coll_args a = bytes_args(HD_COLL_BCAST2, NULL, buf, bytes);
    a.root = root;
    if (bytes)
        hd_coll_run(&a);
}

void hd_coll_scatter(const void *send, void *recv, size_t bytes, int root)
{
    hd_coll_args a = bytes_args(HD_COLL_DISTRIBUTE1, send, recv, bytes);
    a.root = root;
    if (bytes)
        hd_coll_run(&a);
}

void hd_coll_gather(const void *send, void *recv, size_t bytes, int root)
{
    hd_coll_args a = bytes_args(HD_COLL_COLLECT, send, recv, bytes);
    a.root = root;
    if (bytes)
        hd_coll_run(&a);
}

void hd_coll_allgather(const void *send, void *recv, size_t bytes)
{
    hd_coll_args a = bytes_args(HD_COLL_ALLGATHER, send, recv, bytes);
    if (bytes)
        hd_coll_run(&a);
}

void hd_coll_alltoall(const void *send, void *recv, size_t bytes)
{
    hd_coll_args a = bytes_args(HD_COLL_ALLTOALL, send, recv, bytes);
    if (bytes)
        hd_coll_run(&a);
}

void hd_coll_permute(const void *send, void *recv, size_t bytes, const int *dest)
{
    hd_coll_args a = bytes_args(HD_COLL_PERMUTED, send, recv, bytes);
    a.dest = dest;
    if (bytes)
        hd_coll_run(&a);
}

void hd_coll_permute_lc(const void *send, void *recv, size_t bytes, const uint64_t *rows,
                        uint64_t b)
{
    int P = hd_nprocs(), d = hd_dim();
    int *dest = malloc((size_t)P * sizeof *dest);
    unsigned char *seen = calloc((size_t)P, 1);
    if (!dest || !seen)
        hd__fatal("hd_coll_permute_lc: out of memory");
    for (int x = 0; x < P; x++) {
        uint64_t y = b;
        for (int t = 0; t < d; t++)
            y ^= (uint64_t)__builtin_parityll(rows[t] & (uint64_t)x) << t;
        y &= (uint64_t)P - 1;
        if (seen[y])
            hd__fatal("hd_coll_permute_lc: the matrix is singular (virtual %d and another go to "
                      "%d)", x, (int)y);
        seen[y] = 1;
        dest[x] = (int)y;
    }
    hd_coll_args a = bytes_args(HD_COLL_PERMUTED, send, recv, bytes);
    a.dest = dest;
    if (bytes)
        hd_coll_run(&a);
    free(dest);
    free(seen);
}

void hd_coll_transpose(const void *send, void *recv, size_t n, size_t elem)
{
    int d = hd_dim(), c = d / 2;
    if (d % 2)
        hd__fatal("hd_coll_transpose: %d processors are no square of blocks (d = %d is odd)",
                  1 << d, d);
    size_t side = (size_t)1 << c;
    if (n % side)
        hd__fatal("hd_coll_transpose: N = %zu is not a multiple of 2^(d/2) = %zu", n, side);
    size_t b = n / side, bytes = b * b * elem;
    if (bytes == 0)
        return;
    /* The block of (x, y) goes to the node of (y, x) whole, by L.C.
     * INVERSION; then each node transposes its block in place. */
    unsigned char *tmp = malloc(bytes);
    if (!tmp)
        hd__fatal("hd_coll_transpose: out of memory");
    hd_coll_args a = bytes_args(HD_COLL_TRANSPOSE_LC, send, tmp, bytes);
    /* The algorithm swaps physical a 2^c + b with b 2^c + a; virtual ids
     * name the blocks, so run it only when the mapping keeps them. */
    int P = 1 << d, identity = 1;
    for (int x = 0; x < P; x++)
        identity &= hd__virtual_of(x) == x;
    if (identity) {
        hd_coll_run(&a);
    } else {
        int *dest = malloc((size_t)P * sizeof *dest);
        if (!dest)
            hd__fatal("hd_coll_transpose: out of memory");
        for (int v = 0; v < P; v++)
            dest[v] = ((v & ((1 << c) - 1)) << c) | (v >> c);
        a.alg = HD_COLL_PERMUTED;
        a.dest = dest;
        hd_coll_run(&a);
        free(dest);
    }
    unsigned char *out = recv;
    for (size_t i = 0; i < b; i++)
        for (size_t j = 0; j < b; j++)
            memcpy(out + (j * b + i) * elem, tmp + (i * b + j) * elem, elem);
    free(tmp);
}

static hd_coll_args red_args(const void *send, void *recv, size_t count, hd_coll_type type,
                             hd_coll_op op)
{
    hd_coll_args a;
    memset(&a, 0, sizeof a);
    a.alg = HD_COLL_HISTOGRAM;
    a.send = send;
    a.recv = recv;
    a.count = count;
    a.type = type;
    a.op = op;
    return a;
}

void hd_coll_reduce_scatter(const void *send, void *recv, size_t count_per_node,
                            hd_coll_type type, hd_coll_op op)
{
    hd_coll_args a = red_args(send, recv, count_per_node, type, op);
    run(&a, HD_RED_SCATTER, mul_size(count_per_node, (size_t)hd_nprocs(), "reduce_scatter"));
}

void hd_coll_reduce(const void *send, void *recv, size_t count, hd_coll_type type,
                    hd_coll_op op, int root)
{
    hd_coll_args a = red_args(send, recv, count, type, op);
    a.root = root;
    run(&a, HD_RED_TO_ROOT, count);
}

void hd_coll_allreduce(const void *send, void *recv, size_t count, hd_coll_type type,
                       hd_coll_op op)
{
    hd_coll_args a = red_args(send, recv, count, type, op);
    run(&a, HD_RED_TO_ALL, count);
}

/* A permutation whose messages have sizes of their own (what a doall's
 * one message each way is): the sizes first, by COMPLETE BROADCAST, so
 * that every node splits every message alike; then the algorithm, or
 * PERMUTED SEND where the processors' physical pattern is not the one the
 * algorithm moves (a mapping the plan did not foresee: slower, never
 * wrong). */
/* recv NULL: the received message goes into a new buffer, returned,
 * its size in *got. */
static void *exchange(hd_coll_alg alg, const void *send, size_t nsend, void *recv, size_t nrecv,
                      size_t *got, const int *dest)
{
    int P = hd_nprocs(), c = hd_dim() / 2, me = hd_v_get_pid();
    uint64_t mine = nsend, *all = malloc((size_t)P * sizeof *all);
    size_t *counts = malloc((size_t)P * sizeof *counts);
    if (!all || !counts)
        hd__fatal("hd_coll_exchange: out of memory");
    hd_coll_allgather(&mine, all, sizeof mine);
    int from = -1;
    for (int v = 0; v < P; v++) {
        counts[v] = (size_t)all[v];
        if (dest[v] < 0 || dest[v] >= P)
            hd__fatal("hd_coll_exchange: dest[%d] = %d is not a virtual processor", v, dest[v]);
        if (dest[v] == me)
            from = v;
    }
    if (from < 0)
        hd__fatal("hd_coll_exchange: dest is not a permutation (no processor sends to %d)", me);
    void *fresh = NULL;
    if (!recv) {
        nrecv = counts[from];
        fresh = malloc(nrecv ? nrecv : 1);
        if (!fresh)
            hd__fatal("hd_coll_exchange: out of memory for %zu bytes", nrecv);
        recv = fresh;
        *got = nrecv;
    }
    if (counts[from] != nrecv)
        hd__fatal("hd_coll_exchange: %s: %zu bytes expected, the sender has %zu (internal error)",
                  hd_coll_alg_name(alg), nrecv, counts[from]);
    if (alg != HD_COLL_PERMUTED && alg != HD_COLL_INVERSION && alg != HD_COLL_TRANSPOSE_LC &&
        alg != HD_COLL_TRANSPOSE_BLOCKS)
        hd__fatal("hd_coll_exchange: %s moves no permutation (PERMUTED, INVERSION, "
                  "TRANSPOSE_LC or TRANSPOSE_BLOCKS)", hd_coll_alg_name(alg));
    bool fits = alg == HD_COLL_PERMUTED;
    if (!fits) {
        fits = true;
        for (int x = 0; x < P && fits; x++) {
            int y = hd__physical_of(dest[hd__virtual_of(x)]);
            int want = alg == HD_COLL_INVERSION ? x ^ (P - 1)
                                                : ((x & ((1 << c) - 1)) << c) | (x >> c);
            fits = y == want && (alg == HD_COLL_INVERSION || hd_dim() % 2 == 0);
        }
    }
    /* The doall's batch and inbox may share memory (hd_exchange keeps one
     * buffer): a multi-stage algorithm would overwrite what it has yet to
     * send, so the message is copied out first when they overlap. */
    void *copy = NULL;
    const unsigned char *sb = send, *rb = recv;
    if (nsend && nrecv && sb < rb + nrecv && rb < sb + nsend) {
        copy = malloc(nsend);
        if (!copy)
            hd__fatal("hd_coll_exchange: out of memory for %zu bytes", nsend);
        memcpy(copy, send, nsend);
        send = copy;
    }
    hd_coll_args a;
    memset(&a, 0, sizeof a);
    a.alg = fits ? alg : HD_COLL_PERMUTED;
    a.send = send;
    a.recv = recv;
    a.count = 1;
    a.size = 1;
    a.dest = dest;
    run_counts(&a, HD_RED_SCATTER, 0, counts);
    free(copy);
    free(all);
    free(counts);
    return fresh;
}

void hd_coll_exchange(hd_coll_alg alg, const void *send, size_t nsend, void *recv, size_t nrecv,
                      const int *dest)
{
    size_t got = 0;
    if (!recv && nrecv)
        hd__fatal("hd_coll_exchange: %zu bytes into a null pointer", nrecv);
    static char none;
    exchange(alg, send, nsend, recv ? recv : &none, nrecv, &got, dest);
}

void *hd_coll_exchange_new(hd_coll_alg alg, const void *send, size_t nsend, size_t *nrecv,
                           const int *dest)
{
    return exchange(alg, send, nsend, NULL, 0, nrecv, dest);
}

void hd_coll_check_size(size_t got, size_t expected)
{
    if (got != expected)
        hd__fatal("the collective brought %zu bytes where the doall expects %zu (internal error)",
                  got, expected);
}

/* Every processor's message to every other, each of its own size (known
 * at both of its ends): the sizes by COMPLETE BROADCAST, so that the nodes
 * passing a message on know it too, then COMPLETE EXCHANGE (Stout and
 * Wagar 1990, Section 6).  send[v], nsend[v]: this processor's message to
 * virtual v; recv[v], nrecv[v]: where the one from v goes.  A processor's
 * message to itself is not moved (nsend[me] and nrecv[me] are ignored). */
void hd_coll_alltoallv(const void *const *send, const size_t *nsend, void *const *recv,
                       const size_t *nrecv)
{
    int P = hd_nprocs(), me = hd_v_get_pid();
    uint64_t *mine = malloc((size_t)P * sizeof *mine);
    uint64_t *all = malloc((size_t)P * (size_t)P * sizeof *all);
    size_t *counts = malloc((size_t)P * (size_t)P * sizeof *counts);
    if (!mine || !all || !counts)
        hd__fatal("hd_coll_alltoallv: out of memory");
    for (int v = 0; v < P; v++)
        mine[v] = v == me ? 0 : nsend[v];
    hd_coll_allgather(mine, all, (size_t)P * sizeof *mine);
    for (size_t k = 0; k < (size_t)P * P; k++)
        counts[k] = (size_t)all[k];
    for (int v = 0; v < P; v++)
        if (v != me && counts[(size_t)v * P + me] != nrecv[v])
            hd__fatal("hd_coll_alltoallv: %zu bytes expected from virtual processor %d, which "
                      "sends %zu (internal error)", nrecv[v], v, counts[(size_t)v * P + me]);
    hd_coll_args a;
    memset(&a, 0, sizeof a);
    a.alg = HD_COLL_ALLTOALL;
    a.count = 1;
    a.size = 1;
    tl_sendv = (const unsigned char *const *)send;
    tl_recvv = (unsigned char *const *)recv;
    run_counts(&a, HD_RED_SCATTER, 0, counts);
    tl_sendv = NULL;
    tl_recvv = NULL;
    free(mine);
    free(all);
    free(counts);
}
