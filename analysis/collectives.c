/*
 * collectives.c — the cost model's choice between a communication's
 * direct messages and the collectives of Stout and Wagar 1990 that move
 * the same data (docs/collectives.md, "The choice").
 *
 * The pattern is read off the LCC between PHYSICAL processors (after the
 * plan's mapping), since the collectives run on the physical links:
 *   y = x + (2^n - 1)            INVERSION (Section 6)
 *   y = x with its halves swapped  the block transposition (Section 7.2):
 *                                L.C. INVERSION, PERMUTED SEND
 *   any other permutation        PERMUTED SEND (Section 6)
 *   every reader's elements on one processor (a scatter x = b):
 *     the same elements for every reader   BROADCAST 1, 2, 4 (Section 2)
 *     each reader its own                  DISTRIBUTE 1, 2 (Section 5)
 *   every processor's elements read by one (a gather y = b)
 *                                COLLECT (Section 5)
 * and off a general communication's owner maps:
 *   every pair alike (rank 2n)   COMPLETE EXCHANGE (Section 6), and
 *     COMPLETE BROADCAST (Section 6) when every reader reads the same
 *     elements of each processor (an all-gather)
 * Collectives are priced on the target's cost model: by the paper's
 * closed forms when every node uses all its links at once (ports = 0,
 * the link-bound model), otherwise by simulating the schedule with one
 * send at a time per node (runtime/coll/linkbound.c).  Direct messages
 * are priced by the model below; neither is a measurement.
 */
#include "analysis.h"
#include "linkbound.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *hd_comm_pattern_name(hd_comm_pattern p)
{
    static const char *const names[] = { "none",        "broadcast",  "inversion",
                                         "transpose",   "permutation", "all-to-all",
                                         "distribute",  "collect",     "all-gather" };
    return (unsigned)p < sizeof names / sizeof *names ? names[p] : "?";
}

static hd_q q_of(double x)
{
    return hd_q_frac((int64_t)llround(x * 1e6), 1000000);
}

static bool all_ports(const hd_cost_model *m)
{
    return m->ports == 0;
}

/* The collective's time for messages of `bytes`, or < 0 when it is not
 * priced (a one-port target above HD_COLL_PRICE_MAX_DIM).  All-port: the
 * closed form, no schedule built (analyze stays cheap on large programs);
 * one-port: the schedule simulated with one send at a time per node. */
static double collective_us_on(const hd_target *t, int d, hd_coll_alg alg, int root,
                               const int *perm, long long bytes)
{
    const hd_cost_model *cm = &t->cost;
    hd_q tau = q_of(cm->byte_us), beta = q_of(cm->startup_us), m = hd_q_int(bytes);
    hd_coll_shape sh = { alg, d, root, 0, 0, 0, perm, HD_RED_SCATTER };
    sh.g = hd_coll_default_g(alg, d, 0, 0, (double)bytes, cm->byte_us, cm->startup_us);
    sh.q = hd_coll_default_q(d, 0, (double)bytes, cm->byte_us, cm->startup_us);
    int ov = 0;
    if (all_ports(cm)) {
        hd_q f = hd_lb_formula(&sh, tau, beta, m, &ov);
        return ov ? -1 : hd_q_double(f);
    }
    if (d > HD_COLL_PRICE_MAX_DIM)
        return -1;
    char err[256];
    hd_coll_sched *s = hd_coll_schedule(&sh, (double)bytes, cm->byte_us, cm->startup_us, err,
                                        sizeof err);
    if (!s)
        return -1;
    double us = -1;
    hd_lb_result r;
    if (hd_lb_simulate_ports(s, tau, beta, m, 1, &r) == 0)
        us = hd_q_double(r.time);
    hd_lb_result_free(&r);
    hd_coll_schedule_free(s);
    return us;
}

/* On the whole cube. */
static double collective_us(const hd_target *t, hd_coll_alg alg, int root, const int *perm,
                            long long bytes)
{
    return collective_us_on(t, t->n, alg, root, perm, bytes);
}

/* Direct messages: every processor sends its `msgs` messages of `bytes`,
 * one after another on a one-port machine, over paths of at most `hops`
 * channels of which `share` share the busiest one.  Wormhole: start-up,
 * then the bytes through the shared channel, then the pipeline's hops;
 * store-and-forward: every hop pays the start-up and the bytes. */
static double direct_us(const hd_cost_model *m, long long bytes, int msgs, int hops,
                        uint64_t share)
{
    double per = m->startup_us + m->byte_us * (double)bytes * (double)(share ? share : 1);
    double waves = all_ports(m) ? 1 : msgs;
    if (m->switching == HD_SWITCH_WORMHOLE)
        return waves * per + m->byte_us * hops;
    return (waves + (hops > 1 ? hops - 1 : 0)) * per;
}

/* The cheapest option (strictly cheaper than direct messages), and what
 * translate writes: it, when collectives are on and it can. */
static void pick(hd_comm_choice *out, bool collectives)
{
    double best = out->direct_us;
    out->best = -1;
    for (int k = 0; k < out->nopts; k++)
        if (out->opt[k].us >= 0 && out->opt[k].us < best) {
            best = out->opt[k].us;
            out->best = k;
        }
    out->chosen = collectives && hd_coll_emitted(out->pattern) ? out->best : -1;
}

/* A singular LCC z -> A z + b whose every coset of ker A is a subcube
 * (ker A spanned by unit vectors: the dimensions whose columns of A are
 * zero) holding its own image (A z + b agrees with z off those
 * dimensions): the dimensions; (uint64_t)-1 otherwise.  Then each coset
 * is one processor and the processors it sends to (x = A y + b) or
 * gathers from (y = A x + b), and the collective runs in every coset at
 * once (Stout and Wagar 1990, Section 1.4: any node may be the root, by
 * XOR).  A = 0: all of them, the whole cube. */
static uint64_t coset_subcube(const hd_lcc *c, int n)
{
    uint64_t used = 0, all = hd_mask(n);
    for (int t = 0; t < n; t++)
        used |= c->A.row[t];
    uint64_t dims = all & ~used;
    if (hd_rank_rows(c->A.row, n) != n - __builtin_popcountll(dims) || !dims)
        return (uint64_t)-1;
    if (c->b & all & ~dims)
        return (uint64_t)-1;
    for (int i = 0; i < n; i++) {
        uint64_t e = UINT64_C(1) << i;
        if (dims & e)
            continue;
        if ((hd_matrix_apply(&c->A, e) & all & ~dims) != e)
            return (uint64_t)-1;
    }
    return dims;
}

void hd_choose_comm(const hd_target *t, const hd_lcc *mapped, uint64_t share, uint64_t b_runtime,
                    long long bytes, bool collectives, hd_comm_choice *out)
{
    hd_choose_comm_msgs(t, mapped, share, b_runtime, bytes, true, 0, collectives, out);
}

/* One processor `root` sends every other its block, or receives one from
 * every other: the root's 2^n - 1 messages go one after another on a
 * one-port machine; on an all-port one the busiest of its links carries
 * 2^(n-1) of them.  Then the last one's hops: wormhole, its flits;
 * store-and-forward, n - 1 more relays (as for an all-to-all). */
static void one_to_all(const hd_target *t, uint64_t dims, hd_comm_pattern pattern, int root,
                       long long bytes, const hd_coll_alg *algs, int nalgs, hd_comm_choice *out)
{
    const hd_cost_model *m = &t->cost;
    /* A subcube's cosets run at once on links of their own: one coset's
     * time, on the k-cube (the root's place in it does not change the
     * all-port formulas; one-port, each coset's is simulated alike). */
    int d = dims ? __builtin_popcountll(dims) : t->n;
    uint64_t P = (uint64_t)1 << d;
    double per = m->startup_us + m->byte_us * (double)bytes;
    double waves = all_ports(m) ? (double)(P / 2) : (double)(P - 1);
    out->pattern = pattern;
    out->root = dims ? -1 : root;
    out->dims = dims;
    out->bytes = bytes;
    out->direct_us = m->switching == HD_SWITCH_WORMHOLE ? waves * per + m->byte_us * d
                                                        : (waves + d - 1) * per;
    for (int k = 0; k < nalgs; k++)
        out->opt[out->nopts++] = (hd_coll_option){
            algs[k], collective_us_on(t, d, algs[k], dims ? 0 : root, NULL, bytes) };
}

void hd_choose_comm_msgs(const hd_target *t, const hd_lcc *mapped, uint64_t share,
                         uint64_t b_runtime, long long bytes, bool same_data,
                         long long pair_bytes, bool collectives, hd_comm_choice *out)
{
    memset(out, 0, sizeof *out);
    out->chosen = out->best = -1;
    out->bytes = bytes;
    out->root = -1;
    int n = t->n;
    uint64_t P = (uint64_t)1 << n;
    if (t->kind != HD_TARGET_ECUBE_HYPERCUBE) {
        out->why = "collectives are priced on the hypercube only";
        return;
    }
    if (bytes <= 0 || n == 0) {
        out->why = bytes <= 0 ? "the message size is not known" : "one processor";
        return;
    }
    if (b_runtime) {
        out->why = "its destinations are known only when the loop runs (an LCC family)";
        return;
    }
    hd_lcc_class cls = hd_lcc_classify(mapped);
    int hops = 0;
    uint64_t dims;
    if (cls == HD_LCP) {
        int *perm = malloc(P * sizeof *perm);
        if (!perm) {
            out->why = "out of memory";
            return;
        }
        bool inversion = true, transpose = n % 2 == 0;
        int c = n / 2;
        for (uint64_t x = 0; x < P; x++) {
            uint64_t y = (hd_matrix_apply(&mapped->A, x) ^ mapped->b) & (P - 1);
            /* gather y = A x + b: the element x holds is read on y */
            perm[x] = (int)y;
            int h = __builtin_popcountll(x ^ y);
            if (h > hops)
                hops = h;
            inversion &= y == (x ^ (P - 1));
            transpose &= y == (((x & ((1ull << c) - 1)) << c) | (x >> c));
        }
        if (mapped->dir == HD_SCATTER) {
            /* x = A y + b: the reader y's element is on x = perm[y] */
            int *inv = malloc(P * sizeof *inv);
            if (!inv) {
                free(perm);
                out->why = "out of memory";
                return;
            }
            for (uint64_t y = 0; y < P; y++)
                inv[perm[y]] = (int)y;
            free(perm);
            perm = inv;
        }
        out->direct_us = direct_us(&t->cost, bytes, 1, hops, share);
        out->pattern = inversion ? HD_PATTERN_INVERSION
                       : transpose ? HD_PATTERN_TRANSPOSE
                                   : HD_PATTERN_PERMUTATION;
        if (inversion)
            out->opt[out->nopts++] = (hd_coll_option){ HD_COLL_INVERSION, 0 };
        if (transpose) {
            out->opt[out->nopts++] = (hd_coll_option){ HD_COLL_TRANSPOSE_LC, 0 };
            out->opt[out->nopts++] = (hd_coll_option){ HD_COLL_TRANSPOSE_BLOCKS, 0 };
        }
        out->opt[out->nopts++] = (hd_coll_option){ HD_COLL_PERMUTED, 0 };
        /* The node code's messages may differ in size between processors
         * (guards): hd_coll_exchange first tells every node every size, by
         * a COMPLETE BROADCAST of 8 bytes, which the price includes. */
        double sizes = collective_us(t, HD_COLL_ALLGATHER, 0, NULL, 8);
        for (int k = 0; k < out->nopts; k++) {
            out->opt[k].us = collective_us(t, out->opt[k].alg, 0, perm, bytes);
            if (out->opt[k].us >= 0)
                out->opt[k].us = sizes < 0 ? -1 : out->opt[k].us + sizes;
        }
        free(perm);
    } else if ((dims = coset_subcube(mapped, n)) != (uint64_t)-1) {
        /* x = A y + b: y's elements are on x, which lies in y's coset of
         * ker A; y = A x + b: x's are read on y, in x's coset.  Each coset
         * has one root (A = 0: the whole cube, one root b). */
        int root = (int)(mapped->b & (P - 1));
        long long each = pair_bytes > 0 ? pair_bytes : bytes;
        static const hd_coll_alg bc[] = { HD_COLL_BCAST1, HD_COLL_BCAST2, HD_COLL_BCAST4 };
        static const hd_coll_alg ds[] = { HD_COLL_DISTRIBUTE1, HD_COLL_DISTRIBUTE2 };
        static const hd_coll_alg co[] = { HD_COLL_COLLECT };
        if (dims == P - 1)
            dims = 0;
        if (mapped->dir == HD_GATHER)
            one_to_all(t, dims, HD_PATTERN_COLLECT, root, each, co, 1, out);
        else if (same_data)
            one_to_all(t, dims, HD_PATTERN_BROADCAST, root, each, bc, 3, out);
        else
            one_to_all(t, dims, HD_PATTERN_DISTRIBUTE, root, each, ds, 2, out);
    } else {
        out->why = "no collective moves this pattern (neither a permutation nor one processor "
                   "to all or all to one in the cosets of a subcube)";
        return;
    }
    pick(out, collectives);
}

bool hd_coll_emitted(hd_comm_pattern p)
{
    /* translate writes every pattern's collective where the doall's node
     * code exchanges its data in one batch (docs/collectives.md). */
    return p != HD_PATTERN_NONE;
}

/* A general communication that is a complete exchange: every processor
 * sends bytes / 2^n to every processor.  Direct: 2^n - 1 messages, one
 * after another on a one-port machine; on an all-port one the busiest
 * link of e-cube routing carries 2^(n-1) of them. */
static void choose_alltoall(const hd_target *t, long long bytes, bool same_data,
                            long long pair_bytes, bool collectives, hd_comm_choice *out)
{
    int n = t->n;
    long long P = 1ll << n, each = pair_bytes > 0 ? pair_bytes : bytes / P;
    memset(out, 0, sizeof *out);
    out->chosen = out->best = -1;
    out->root = -1;
    out->bytes = bytes;
    if (t->kind != HD_TARGET_ECUBE_HYPERCUBE || n == 0 || each <= 0) {
        out->why = each <= 0 ? "the message size is not known" : "not on a hypercube";
        return;
    }
    out->pattern = HD_PATTERN_ALLTOALL;
    const hd_cost_model *m = &t->cost;
    double per = m->startup_us + m->byte_us * (double)each;
    if (all_ports(m))
        out->direct_us = m->switching == HD_SWITCH_WORMHOLE
                             ? (double)(P / 2) * per + m->byte_us * n
                             : (double)(P / 2 + n - 1) * per;
    else
        out->direct_us = (double)(P - 1) * per + (m->switching == HD_SWITCH_WORMHOLE
                                                      ? m->byte_us * n : (n - 1) * per);
    /* hd_exchange_run_alltoall first tells every node every pair's size: a
     * COMPLETE BROADCAST of 8 bytes per processor and pair, priced in. */
    double us = collective_us(t, HD_COLL_ALLTOALL, 0, NULL, each);
    double sizes = collective_us(t, HD_COLL_ALLGATHER, 0, NULL, 8 * P);
    out->opt[out->nopts++] =
        (hd_coll_option){ HD_COLL_ALLTOALL, us < 0 || sizes < 0 ? -1 : us + sizes };
    if (same_data) {
        /* Each processor's block is the same for every reader: COMPLETE
         * BROADCAST moves one copy of it instead of 2^n - 1.  Its sizes
         * are known to every node: no exchange of them first. */
        out->pattern = HD_PATTERN_ALLGATHER;
        out->bytes = each;
        out->opt[out->nopts++] = (hd_coll_option){
            HD_COLL_ALLGATHER, collective_us(t, HD_COLL_ALLGATHER, 0, NULL, each) };
    }
    pick(out, collectives);
}

void hd_plan_choose_collectives(hd_plan *p, const hd_spec *spec, bool collectives)
{
    /* A program repeats its LCCs and element sizes: each (LCC, size) is
     * worked out once, at its first entry, and copied to the others. */
    for (int r = 0; r < p->m; r++) {
        hd_plan_comm *l = &p->comm[r];
        memset(&l->choice, 0, sizeof l->choice);
        l->choice.chosen = l->choice.best = -1;
        const hd_named_lcc *e = &spec->lccs[r];
        if (e->stage_inner) {
            l->choice.why = "the node code reads the array from a whole copy (an all-gather), "
                            "not by this LCC's messages";
            continue;
        }
        if (!l->price) {
            if (e->all_to_all)
                choose_alltoall(&p->target, e->bytes, e->same_data, e->pair_bytes, collectives,
                                &l->choice);
            else
                l->choice.why = "not an LCC";
            continue;
        }
        int same = -1;
        for (int q = l->first; q < r && same < 0; q++)
            if (p->comm[q].price == l->price && spec->lccs[q].bytes == e->bytes &&
                spec->lccs[q].comm.b_runtime == e->comm.b_runtime &&
                spec->lccs[q].same_data == e->same_data &&
                spec->lccs[q].pair_bytes == e->pair_bytes)
                same = q;
        if (same >= 0) {
            l->choice = p->comm[same].choice;
            continue;
        }
        hd_choose_comm_msgs(&p->target, &l->price->mapped,
                            hd_contention_degree(l->price->after, p->n), e->comm.b_runtime,
                            e->bytes, e->same_data, e->pair_bytes, collectives, &l->choice);
    }
}
