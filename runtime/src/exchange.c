/*
 * exchange.c — hd_exchange: one doall's messages batched so that each
 * ordered pair of processors exchanges at most one message.
 *
 * Each processor puts values for each destination (appended to one
 * buffer per destination) and says how many bytes it expects from each
 * source; hd_exchange_run sends every non-empty buffer with one v_send
 * (in the order vpid ^ 1, vpid ^ 2, ...: all sends before any receive,
 * which v_send's no-wait guarantee makes safe), then receives one message
 * per source with a non-zero expectation.  Values put to the processor
 * itself are handed over without a message.  A pair with nothing to say
 * sends nothing, so both sides must agree on the byte counts (a mismatch
 * shows up as v_receive's size error).
 */
#include "hyperdo.h"
#include "hd_internal.h"
#include "hyperdo/coll.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data;
    size_t len, cap;
    int pooled;       /* from hd__buf_get (buffers.c), not hd_put's realloc */
} bytes;

static void drop(bytes *b)
{
    if (b->pooled)
        hd__buf_put(b->data, b->cap);
    else
        free(b->data);
    b->data = NULL;
    b->pooled = 0;
}

/* A buffer for what comes from one source: from the cache (buffers.c). */
static unsigned char *inbox_of(size_t size, const char *fn)
{
    unsigned char *p = hd__buf_get(size);
    if (!p)
        hd__fatal("%s: out of memory for %zu bytes", fn, size);
    return p;
}

struct hd_exchange {
    int P;
    int ran;          /* hd_exchange_run was called */
    bytes *out;       /* per destination vpid */
    size_t *expect;   /* per source vpid: bytes expected */
    unsigned char **in; /* per source: what arrived (from the cache, but
                         * in[me], which is out[me]'s data) */
    size_t *taken;    /* per source: bytes taken so far */
    /* hd_exchange_groups only: */
    int ngroups;
    size_t *out_at, *in_at; /* [g * P + vpid]: offset of group g, or NONE */
    void **out_ptr;         /* [g * P + vpid], for hd_group_out */
    const void **in_ptr;    /* [g * P + vpid], for hd_group_in */
};

#define NONE ((size_t)-1)

hd_exchange *hd_exchange_new(void)
{
    int P = hd_nprocs();
    hd_exchange *x = calloc(1, sizeof *x);
    if (x) {
        x->P = P;
        x->out = calloc((size_t)P, sizeof *x->out);
        x->expect = calloc((size_t)P, sizeof *x->expect);
        x->in = calloc((size_t)P, sizeof *x->in);
        x->taken = calloc((size_t)P, sizeof *x->taken);
    }
    if (!x || !x->out || !x->expect || !x->in || !x->taken)
        hd__fatal("hd_exchange_new: out of memory");
    return x;
}

static void check(const hd_exchange *x, const char *fn, int vpid, int after_run)
{
    if (!x)
        hd__fatal("%s: no exchange (null pointer)", fn);
    if (vpid < 0 || vpid >= x->P)
        hd__fatal("%s: virtual processor %d: out of range 0 .. %d", fn, vpid, x->P - 1);
    if (x->ran != after_run)
        hd__fatal(after_run ? "%s before hd_exchange_run" : "%s after hd_exchange_run", fn);
}

void hd_put(hd_exchange *x, int vpid, const void *value, size_t size)
{
    bytes *b;
    check(x, "hd_put", vpid, 0);
    if (size == 0)
        return;
    if (!value)
        hd__fatal("hd_put to virtual processor %d: %zu bytes from a null pointer", vpid, size);
    b = &x->out[vpid];
    if (b->cap - b->len < size) {
        size_t cap = b->cap ? b->cap : 64;
        unsigned char *d;
        while (cap - b->len < size)
            cap *= 2;
        if (!(d = realloc(b->data, cap)))
            hd__fatal("hd_put: out of memory for %zu bytes", cap);
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, value, size);
    b->len += size;
}

void hd_expect(hd_exchange *x, int vpid, size_t size)
{
    check(x, "hd_expect", vpid, 0);
    x->expect[vpid] += size;
}

void hd_exchange_run(hd_exchange *x)
{
    int me;
    if (!x)
        hd__fatal("hd_exchange_run: no exchange (null pointer)");
    if (x->ran)
        hd__fatal("hd_exchange_run called twice on one exchange");
    me = v_get_pid();
    x->ran = 1;
    if (x->out[me].len != x->expect[me])
        hd__fatal("hd_exchange_run: %zu bytes put to this processor itself, but %zu expected",
                  x->out[me].len, x->expect[me]);
    x->in[me] = x->out[me].data;
    x->out[me].data = NULL;
    for (int k = 1; k < x->P; k++) {
        bytes *b = &x->out[me ^ k];
        if (b->len > 0)
            v_send(me ^ k, b->data, b->len);
        drop(b);
    }
    for (int k = 1; k < x->P; k++) {
        int u = me ^ k;
        if (x->expect[u] == 0)
            continue;
        x->in[u] = inbox_of(x->expect[u], "hd_exchange_run");
        v_receive(u, x->in[u], x->expect[u]);
    }
}

const void *hd_batch(hd_exchange *x, int vpid, size_t *size)
{
    check(x, "hd_batch", vpid, 0);
    *size = x->out[vpid].len;
    return x->out[vpid].len ? x->out[vpid].data : NULL;
}

void *hd_inbox(hd_exchange *x, int vpid, size_t *size)
{
    if (x && !x->ran) {
        /* The receives begin: what this processor put to itself is its
         * own first message, and the outgoing batches were sent. */
        int me = v_get_pid();
        if (x->out[me].len != x->expect[me])
            hd__fatal("hd_inbox: %zu bytes put to this processor itself, but %zu expected",
                      x->out[me].len, x->expect[me]);
        x->in[me] = x->out[me].data;
        x->out[me].data = NULL;
        for (int v = 0; v < x->P; v++)
            drop(&x->out[v]);
        x->ran = 1;
    }
    check(x, "hd_inbox", vpid, 1);
    *size = x->expect[vpid];
    if (!x->expect[vpid] || x->in[vpid])
        return x->in[vpid];
    x->in[vpid] = inbox_of(x->expect[vpid], "hd_inbox");
    return x->in[vpid];
}

void hd_exchange_run_alltoall(hd_exchange *x)
{
    if (!x)
        hd__fatal("hd_exchange_run_alltoall: no exchange (null pointer)");
    if (x->ran)
        hd__fatal("hd_exchange_run_alltoall: the exchange has already run");
    int P = x->P, me = v_get_pid();
    const void **send = calloc((size_t)P, sizeof *send);
    size_t *nsend = calloc((size_t)P, sizeof *nsend);
    void **recv = calloc((size_t)P, sizeof *recv);
    if (!send || !nsend || !recv)
        hd__fatal("hd_exchange_run_alltoall: out of memory");
    for (int v = 0; v < P; v++) {
        if (v == me)
            continue;
        nsend[v] = x->out[v].len;
        send[v] = x->out[v].len ? x->out[v].data : NULL;
        if (x->expect[v])
            recv[v] = x->in[v] = inbox_of(x->expect[v], "hd_exchange_run_alltoall");
    }
    hd_coll_alltoallv(send, nsend, recv, x->expect);
    /* What hd_inbox does when the receives begin: this processor's own
     * message is its first, the batches are done with. */
    if (x->out[me].len != x->expect[me])
        hd__fatal("hd_exchange_run_alltoall: %zu bytes put to this processor itself, but %zu "
                  "expected", x->out[me].len, x->expect[me]);
    x->in[me] = x->out[me].data;
    x->out[me].data = NULL;
    for (int v = 0; v < P; v++)
        drop(&x->out[v]);
    x->ran = 1;
    free(send);
    free(nsend);
    free(recv);
}

/* One call of hd_exchange_run_collective: the exchange, this processor,
 * and the subcube the collective runs in (dims 0: the cube). */
typedef struct {
    hd_exchange *x;
    int me, P;
    uint64_t dims;
    int *member;        /* P: 1 for the processors of my coset */
    int k;              /* 2^k members */
    const char *name;
} call;

/* Block j of a collective over the subcube: where member v's goes. */
static int block_of(const call *c, int v)
{
    return c->dims ? hd_coll_subcube_index(v, c->dims) : v;
}

/* The one size of every other member's block (out: what I send it; in:
 * what I expect from it), which must all be alike; 0 when none. */
static size_t one_size(const call *c, int outgoing)
{
    size_t n = 0;
    int first = -1;
    for (int v = 0; v < c->P; v++) {
        if (v == c->me || !c->member[v])
            continue;
        size_t len = outgoing ? c->x->out[v].len : c->x->expect[v];
        if (first < 0) {
            n = len;
            first = v;
        } else if (len != n) {
            hd__fatal("hd_exchange_run_collective (%s): %zu bytes %s processor %d but %zu %s "
                      "processor %d: the messages are not one collective's",
                      c->name, n, outgoing ? "to" : "from", first, len, outgoing ? "to" : "from",
                      v);
        }
    }
    return n;
}

/* Nothing to or from anyone but keep_out / keep_in (-1: nobody; -2: every
 * member of my coset), and nothing outside my coset. */
static void nothing_else(const call *c, int keep_out, int keep_in)
{
    const hd_exchange *x = c->x;
    for (int v = 0; v < c->P; v++) {
        if (v == c->me)
            continue;
        int out_ok = c->member[v] && (keep_out == -2 || v == keep_out);
        int in_ok = c->member[v] && (keep_in == -2 || v == keep_in);
        if (!out_ok && x->out[v].len)
            hd__fatal("hd_exchange_run_collective (%s): %zu bytes to processor %d, which this "
                      "collective does not send", c->name, x->out[v].len, v);
        if (!in_ok && x->expect[v])
            hd__fatal("hd_exchange_run_collective (%s): %zu bytes expected from processor %d, "
                      "which this collective does not bring", c->name, x->expect[v], v);
    }
}

/* The messages to every other member must be the same bytes (a broadcast
 * of one of them would give the others wrong elements); returns one. */
static unsigned char *the_same(const call *c, size_t n)
{
    int first = -1;
    for (int v = 0; v < c->P; v++) {
        if (v == c->me || !c->member[v])
            continue;
        if (first < 0)
            first = v;
        else if (n && memcmp(c->x->out[v].data, c->x->out[first].data, n))
            hd__fatal("hd_exchange_run_collective (%s): the messages to processors %d and %d "
                      "differ: not one message for all", c->name, first, v);
    }
    return first >= 0 && n ? c->x->out[first].data : NULL;
}

static unsigned char *blocks_of(const call *c, size_t n)
{
    /* calloc: 2^k n may not wrap; one more block for the caller's own. */
    unsigned char *b = calloc(((size_t)1 << c->k) + 1, n);
    if (!b)
        hd__fatal("hd_exchange_run_collective (%s): out of memory", c->name);
    return b;
}

/* Every other member's block of `blocks` into its inbox. */
static void unpack(const call *c, const unsigned char *blocks, size_t n)
{
    for (int v = 0; v < c->P; v++)
        if (v != c->me && c->member[v]) {
            c->x->in[v] = inbox_of(n, "hd_exchange_run_collective");
            memcpy(c->x->in[v], blocks + (size_t)block_of(c, v) * n, n);
        }
}

void hd_exchange_run_collective(hd_exchange *x, int alg, int root, uint64_t dims)
{
    const char *name = hd_coll_alg_name((hd_coll_alg)alg);
    if (!x)
        hd__fatal("hd_exchange_run_collective: no exchange (null pointer)");
    if (x->ran)
        hd__fatal("hd_exchange_run_collective: the exchange has already run");
    int P = x->P, me = v_get_pid();
    if (root < 0 || root >= P)
        hd__fatal("hd_exchange_run_collective (%s): root %d is not a virtual processor", name,
                  root);
    if (x->out[me].len != x->expect[me])
        hd__fatal("hd_exchange_run_collective: %zu bytes put to this processor itself, but %zu "
                  "expected", x->out[me].len, x->expect[me]);
    call c = { x, me, P, dims, calloc((size_t)P, sizeof(int)), __builtin_popcountll(dims), name };
    if (!c.member)
        hd__fatal("hd_exchange_run_collective: out of memory");
    /* My coset: the processors that agree with me off dims (all of them
     * for the whole cube). */
    uint64_t span = dims ? dims : (uint64_t)(P - 1);
    c.k = __builtin_popcountll(span);
    uint64_t coset = (uint64_t)hd__physical_of(me) & ~span;
    for (int v = 0; v < P; v++)
        c.member[v] = ((uint64_t)hd__physical_of(v) & ~span) == coset;
    hd_coll_args a = { .alg = (hd_coll_alg)alg, .root = root, .size = 1, .dims = dims };
    unsigned char *blocks = NULL;
    size_t n;
    switch ((hd_coll_alg)alg) {
    case HD_COLL_BCAST1: case HD_COLL_BCAST2: case HD_COLL_BCAST3A: case HD_COLL_BCAST3B:
    case HD_COLL_BCAST4: case HD_COLL_DISTRIBUTE1: case HD_COLL_DISTRIBUTE2:
        if (me != root) {
            nothing_else(&c, -1, root);
            n = x->expect[root];
            if (n)
                a.recv = x->in[root] = inbox_of(n, "hd_exchange_run_collective");
            break;
        }
        nothing_else(&c, -2, -1);
        n = one_size(&c, 1);
        if (alg <= HD_COLL_BCAST4) {
            a.recv = the_same(&c, n);
        } else if (n) {
            blocks = blocks_of(&c, n);
            for (int v = 0; v < P; v++)
                if (v != me && c.member[v])
                    memcpy(blocks + (size_t)block_of(&c, v) * n, x->out[v].data, n);
            a.send = blocks;
            a.recv = blocks + ((size_t)1 << c.k) * n;   /* the root's own: unused */
        }
        break;
    case HD_COLL_COLLECT:
        if (me == root) {
            nothing_else(&c, -1, -2);
            n = one_size(&c, 0);
            if (n) {
                blocks = blocks_of(&c, n);
                a.send = blocks + ((size_t)1 << c.k) * n;   /* mine: nothing I read */
                a.recv = blocks;
            }
        } else {
            nothing_else(&c, root, -1);
            n = x->out[root].len;
            a.send = x->out[root].data;
        }
        break;
    case HD_COLL_ALLGATHER: {
        nothing_else(&c, -2, -2);
        n = one_size(&c, 1);
        size_t in = one_size(&c, 0);
        if (n != in)
            hd__fatal("hd_exchange_run_collective (%s): %zu bytes to send but %zu to receive "
                      "from each processor", name, n, in);
        if (n) {
            blocks = blocks_of(&c, n);
            a.send = the_same(&c, n);
            a.recv = blocks;
        }
        break;
    }
    default:
        free(c.member);
        hd__fatal("hd_exchange_run_collective: %s is not a collective of one processor to all "
                  "or all to one", name);
    }
    /* Every member calls the collective with the same n (each knows it
     * from its own messages; a mismatch stops it in the executor). */
    a.count = n;
    if (n)
        hd_coll_run(&a);
    if (blocks && (alg == HD_COLL_COLLECT || alg == HD_COLL_ALLGATHER))
        unpack(&c, blocks, n);
    free(blocks);
    free(c.member);
    /* What hd_inbox does when the receives begin. */
    x->in[me] = x->out[me].data;
    x->out[me].data = NULL;
    for (int v = 0; v < P; v++)
        drop(&x->out[v]);
    x->ran = 1;
}

const unsigned char *const *hd_inboxes(hd_exchange *x)
{
    if (!x)
        hd__fatal("hd_inboxes: no exchange (null pointer)");
    for (int v = 0; v < x->P; v++)
        if (x->expect[v] && (!x->ran || !x->in[v]))
            hd__fatal("hd_inboxes: the message from virtual processor %d was not received", v);
    return (const unsigned char *const *)x->in;
}

void *hd_take(hd_exchange *x, int vpid, void *value, size_t size)
{
    check(x, "hd_take", vpid, 1);
    if (size > x->expect[vpid] - x->taken[vpid])
        hd__fatal("hd_take: %zu bytes from virtual processor %d, but only %zu of the %zu "
                  "expected are left",
                  size, vpid, x->expect[vpid] - x->taken[vpid], x->expect[vpid]);
    if (size > 0) {
        if (!value)
            hd__fatal("hd_take from virtual processor %d: %zu bytes into a null pointer", vpid,
                      size);
        memcpy(value, x->in[vpid] + x->taken[vpid], size);
    }
    x->taken[vpid] += size;
    return value;
}

void hd_exchange_free(hd_exchange *x)
{
    if (!x)
        return;
    int me = v_get_pid();
    for (int v = 0; v < x->P; v++) {
        drop(&x->out[v]);
        if (v == me)
            free(x->in[v]);   /* hd_put's buffer to this processor itself */
        else
            hd__buf_put(x->in[v], x->expect[v]);
    }
    /* The per-processor arrays, hd_exchange_groups's tables (NULL for a
     * plain exchange) and the exchange itself. */
    void *owned[] = { x->out, x->expect, x->in, x->taken, x->out_at, x->in_at,
                      x->out_ptr, x->in_ptr, x };
    for (size_t k = 0; k < sizeof owned / sizeof *owned; k++)
        free(owned[k]);
}

/* ------------------------------------------------ LCC groups */

static int pair_carries(const hd_lcc_group *g, int n, int sender, int receiver)
{
    uint64_t mask = n >= 32 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    uint64_t y = (((uint64_t)receiver ^ g->home_c) & mask) |
                 ((((uint64_t)sender ^ g->src_c) & mask) << n);
    for (int c = 0; c < g->nchecks; c++)
        if (__builtin_parityll(g->checks[c] & y))
            return 0;
    return 1;
}

static size_t group_bytes(const hd_lcc_group *g)
{
    if (g->log2_slots < 0 || g->log2_slots > 62 ||
        ((uint64_t)1 << g->log2_slots) > SIZE_MAX / 2 / (g->elem_size ? g->elem_size : 1))
        hd__fatal("hd_exchange_groups: 2^%d slots of %zu bytes", g->log2_slots, g->elem_size);
    return ((size_t)1 << g->log2_slots) * g->elem_size;
}

/* Lays out the message of one ordered pair: the groups it carries, each at
 * a multiple of its alignment; returns its size. */
static size_t layout(const hd_lcc_group *groups, int ngroups, int n, int sender,
                     int receiver, size_t *at, int P, int slot_of)
{
    size_t size = 0;
    for (int g = 0; g < ngroups; g++) {
        if (!pair_carries(&groups[g], n, sender, receiver)) {
            at[(size_t)g * (size_t)P + (size_t)slot_of] = NONE;
            continue;
        }
        size_t align = groups[g].align;
        if (align == 0 || (align & (align - 1)) || align > 4096)
            hd__fatal("hd_exchange_groups: group %d: alignment %zu", g, align);
        size = (size + align - 1) & ~(align - 1);
        at[(size_t)g * (size_t)P + (size_t)slot_of] = size;
        size += group_bytes(&groups[g]);
    }
    return size;
}

hd_exchange *hd_exchange_groups(int ngroups, const hd_lcc_group *groups)
{
    hd_exchange *x = hd_exchange_new();
    int P = x->P, n = hd_dim(), me = v_get_pid();
    size_t cells = (size_t)(ngroups > 0 ? ngroups : 1) * (size_t)P;
    if (ngroups < 0 || (ngroups > 0 && !groups))
        hd__fatal("hd_exchange_groups: %d groups from %p", ngroups, (const void *)groups);
    x->ngroups = ngroups;
    x->out_at = malloc(cells * sizeof *x->out_at);
    x->in_at = malloc(cells * sizeof *x->in_at);
    x->out_ptr = calloc(cells, sizeof *x->out_ptr);
    x->in_ptr = calloc(cells, sizeof *x->in_ptr);
    if (!x->out_at || !x->in_at || !x->out_ptr || !x->in_ptr)
        hd__fatal("hd_exchange_groups: out of memory");
    for (int v = 0; v < P; v++) {
        if (v == me) {
            for (int g = 0; g < ngroups; g++)
                x->out_at[(size_t)g * (size_t)P + (size_t)v] =
                    x->in_at[(size_t)g * (size_t)P + (size_t)v] = NONE;
            continue;
        }
        size_t out = layout(groups, ngroups, n, me, v, x->out_at, P, v);
        x->expect[v] = layout(groups, ngroups, n, v, me, x->in_at, P, v);
        if (out == 0)
            continue;
        /* The slots are all written by the packing code; only the gaps
         * before aligned starts are cleared here, so that no byte of the
         * message is indeterminate. */
        bytes *b = &x->out[v];
        if (!(b->data = hd__buf_get(out)))
            hd__fatal("hd_exchange_groups: out of memory for %zu bytes", out);
        b->len = b->cap = out;
        b->pooled = 1;
        size_t end = 0;
        for (int g = 0; g < ngroups; g++) {
            size_t at = x->out_at[(size_t)g * (size_t)P + (size_t)v];
            if (at == NONE)
                continue;
            memset(b->data + end, 0, at - end);
            x->out_ptr[(size_t)g * (size_t)P + (size_t)v] = b->data + at;
            end = at + group_bytes(&groups[g]);
        }
    }
    return x;
}

void *const *hd_group_out(hd_exchange *x, int g)
{
    if (!x || g < 0 || g >= x->ngroups)
        hd__fatal("hd_group_out: group %d of an exchange of %d groups", g, x ? x->ngroups : 0);
    return &x->out_ptr[(size_t)g * (size_t)x->P];
}

const void *const *hd_group_in(hd_exchange *x, int g)
{
    if (!x || g < 0 || g >= x->ngroups)
        hd__fatal("hd_group_in: group %d of an exchange of %d groups", g, x ? x->ngroups : 0);
    for (int v = 0; v < x->P; v++) {
        size_t at = x->in_at[(size_t)g * (size_t)x->P + (size_t)v];
        if (at != NONE && (!x->ran || !x->in[v]))
            hd__fatal("hd_group_in: the message from virtual processor %d was not received", v);
        x->in_ptr[(size_t)g * (size_t)x->P + (size_t)v] = at == NONE ? NULL : x->in[v] + at;
    }
    return &x->in_ptr[(size_t)g * (size_t)x->P];
}
