/*
 * transport_sim.c — libhyperdo-sim.a's transport: the threads back end
 * (every processor a thread, transport_threads.c, compiled again here
 * under other names so that its code is shared, not copied) plus a
 * timing of each communication phase of the program on the flit-level
 * wormhole hypercube simulator (runtime/sim/sim.h, Hou et al. 2001, Section 6).
 *
 * What is timed.  A phase is one execution of a doall, or one remap
 * whose elements move (hd_relayout: an array's data mapping changes, Wu
 * 1984, Chapter 3; reported as "remap:NAME" in the doall column).  Every message a
 * node function sends (v_send, hence hd_exchange) is recorded by its
 * sender with the phase the sender is in: physical source, physical
 * destination, bytes, and its rank among the sender's messages of the
 * phase.  The run-time protocol's own messages (the host's commands, a
 * doall's environment, hd_scatter / hd_gather slices) are not: they are
 * recognised by their place in common.c's protocol (see classify()).
 * When the program ends (hd__tr_finish) each phase is run alone, from an
 * empty network, through hd_sim_phase, and its time is printed.
 *
 * The time model (docs/simulator.md, "The program mode"), with the
 * parameters of the nCUBE 2 that Hou et al. 2001 uses for Tables 1-2:
 *   beta  software latency of one message at its sender, in us (164);
 *         a sender's messages of a phase start one after another, so its
 *         k-th message (k = 1, 2, ...) is ready at time k * beta;
 *   tau   time for one byte to cross a channel, in us (0.57);
 *   flit  bytes per flit (1): a message of B bytes is max(1, ceil(B /
 *         flit)) flits, and one simulator cycle (a flit across a
 *         channel) lasts flit * tau us.
 * A message ready at time t enters the network at cycle ceil(t / cycle)
 * and ends at t + (delivered - injected) cycles; the phase's time is the
 * latest end.  Alone in the network a message of B bytes (flit 1) between
 * nodes D bits apart therefore takes beta + B * tau + (D + 1) * tau:
 * the software latency, the bytes through a channel, and the wormhole
 * pipeline's D + 1 extra cycles (sim.h: L + D + 1 cycles in all).
 * Contention (two paths on one channel) adds the waiting the simulator
 * finds.
 *
 * Environment (read by hd_run):
 *   HYPERDO_SIM_BETA     us per message (default 164)
 *   HYPERDO_SIM_TAU      us per byte (default 0.57)
 *   HYPERDO_SIM_FLIT     bytes per flit (default 1)
 *   HYPERDO_SIM_ROUTING  ecube (default) or pcube
 *   HYPERDO_SIM_MODEL    wormhole (default), or linkbound: each collective
 *                        of hyperdo/coll.h timed as a phase of its own on
 *                        Stout and Wagar 1990's link-bound cube;
 *                        saf-bi or saf-uni: each phase timed on Chung and
 *                        Ranka 1990's synchronous store-and-forward cube
 *                        (runtime/sim/saf.c): T_setup = BETA per step,
 *                        T_c = TAU x WORD per word, a message of b bytes
 *                        ceil(b / WORD) words
 *   HYPERDO_SIM_WORD     bytes per word of the saf models (default 8)
 *   HYPERDO_SIM_REPORT   file for the report (default: stderr); never
 *                        stdout, which is the program's own.
 *
 * Each phase's messages are also put through the pass-level simulator of
 * Wu 1984's omega network and butterfly (count_passes): the report's last
 * two columns.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* transport_threads.c, included below: sysconf, MAP_ANONYMOUS */
#endif
#include "hd_internal.h"
#include "hyperdo/cost.h"
#include "sim.h"
#include "linkbound.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------ the threads transport */

/* transport_threads.c under other names: its hd__tr_* become hd__thr_*,
 * declared by transport.h under those names, which the hd__tr_* below
 * wrap. */
#define hd__tr_name hd__thr_name
#define hd__tr_shared hd__thr_shared
#define hd__tr_start hd__thr_start
#define hd__tr_self hd__thr_self
#define hd__tr_send hd__thr_send
#define hd__tr_recv hd__thr_recv
#define hd__tr_barrier hd__thr_barrier
#define hd__tr_finish hd__thr_finish
#define hd__tr_abort hd__thr_abort
#define hd__tr_coll hd__thr_coll
#include "transport.h"
#include "transport_threads.c"
#undef hd__tr_name
#undef hd__tr_shared
#undef hd__tr_start
#undef hd__tr_self
#undef hd__tr_send
#undef hd__tr_recv
#undef hd__tr_barrier
#undef hd__tr_finish
#undef hd__tr_abort
#undef hd__tr_coll

const char hd__tr_name[] = "sim";
const int hd__tr_shared = 1;

/* ------------------------------------------- the protocol's messages */

/* common.c's command message; the layout must stay the same as there. */
enum { CMD_DOALL = 1, CMD_SCATTER, CMD_GATHER, CMD_EXIT, CMD_SYNC, CMD_RELAYOUT };
enum { RELAYOUT_MOVE = 1 };   /* CMD_RELAYOUT's status bit: elements move */
#define CMD_MAGIC 0x6d634448u
typedef struct {
    uint32_t magic;
    int32_t op;
    int32_t id;
    int32_t status;
    uint64_t env_size;
} sim_cmd;
_Static_assert(sizeof(sim_cmd) == 24, "sim_cmd must match common.c's hd_cmd");

/* A command if it looks like one: the magic and a known op. */
static int as_cmd(const void *data, size_t size, sim_cmd *c)
{
    if (size != sizeof *c)
        return 0;
    memcpy(c, data, sizeof *c);
    return c->magic == CMD_MAGIC && c->op >= CMD_DOALL && c->op <= CMD_RELAYOUT;
}

/* ------------------------------------------------- the recording */

typedef struct {
    uint32_t phase; /* the sender's doall count when it sent it */
    uint32_t dst;   /* physical */
    uint64_t bytes;
} sim_rec;

typedef struct {
    _Alignas(64) sim_rec *recs; /* written by its own processor only */
    size_t count, cap;
} sim_log;

static struct {
    int n;
    double beta, tau;
    unsigned long flit;
    hd_sim_routing routing;
    FILE *out;
    int out_owned;
    const char *out_name;
    sim_log *logs;      /* logs[physical] */
    unsigned char *skip; /* host: the next message to p is protocol data */
    int *phase_doall;   /* phase_doall[k - 1]: the doall of phase k (host), or
                         * -2 - a for a remap of array a */
    uint32_t nphases, phases_cap;
    int linkbound;      /* HYPERDO_SIM_MODEL=linkbound */
    int saf;            /* 1 + hd_saf_model for saf-bi / saf-uni; 0: none */
    unsigned long word; /* HYPERDO_SIM_WORD */
    struct sim_coll *colls;   /* host: the collectives timed, in order */
    size_t ncolls, colls_cap;
} S;

/* A collective timed on the link-bound cube (HYPERDO_SIM_MODEL=linkbound). */
typedef struct sim_coll {
    uint32_t phase;     /* the doall it ran in */
    int alg;
    double bytes;       /* one message's */
    double time_us;
} sim_coll;

static _Thread_local int tl_in_coll;   /* inside a collective: not recorded */

static _Thread_local uint32_t tl_phase;      /* this processor's doall count */
static _Thread_local int tl_gather_pending;  /* its next send to 0 is a slice */

static double env_double(const char *name, double def, double lo)
{
    const char *s = getenv(name);
    char *end;
    double v;
    if (!s || !*s)
        return def;
    errno = 0;
    v = strtod(s, &end);
    if (*end || errno || !(v >= lo) || !isfinite(v))
        hd__fatal("%s='%s': not a number >= %g", name, s, lo);
    return v;
}

static void configure(int nprocs)
{
    const char *s;
    char *end;

    S.n = 0;
    while ((1 << S.n) < nprocs)
        S.n++;
    /* By default the model the translator's plan assumes (hyperdo/cost.h). */
    S.beta = env_double("HYPERDO_SIM_BETA", HD_COST_NCUBE2_STARTUP_US, 0.0);
    S.tau = env_double("HYPERDO_SIM_TAU", HD_COST_NCUBE2_BYTE_US, 0.0);
    S.flit = 1;
    if ((s = getenv("HYPERDO_SIM_FLIT")) && *s) {
        errno = 0;
        S.flit = strtoul(s, &end, 10);
        if (*end || errno || S.flit < 1 || S.flit > (1ul << 20) || *s == '-')
            hd__fatal("HYPERDO_SIM_FLIT='%s': not a number of bytes from 1 to 2^20", s);
    }
    S.linkbound = 0;
    S.saf = 0;
    if ((s = getenv("HYPERDO_SIM_MODEL")) && *s) {
        if (strcmp(s, "linkbound") == 0)
            S.linkbound = 1;
        else if (strcmp(s, "saf-bi") == 0)
            S.saf = 1 + HD_SAF_BI;
        else if (strcmp(s, "saf-uni") == 0)
            S.saf = 1 + HD_SAF_UNI;
        else if (strcmp(s, "wormhole") != 0)
            hd__fatal("HYPERDO_SIM_MODEL='%s': not wormhole, linkbound, saf-bi or saf-uni", s);
    }
    S.word = 8;
    if ((s = getenv("HYPERDO_SIM_WORD")) && *s) {
        errno = 0;
        S.word = strtoul(s, &end, 10);
        if (*end || errno || S.word < 1 || S.word > (1ul << 20) || *s == '-')
            hd__fatal("HYPERDO_SIM_WORD='%s': not a number of bytes from 1 to 2^20", s);
    }
    S.routing = HD_SIM_ECUBE;
    if ((s = getenv("HYPERDO_SIM_ROUTING")) && *s && !hd_sim_routing_parse(s, &S.routing))
        hd__fatal("HYPERDO_SIM_ROUTING='%s': not ecube or pcube", s);
    if (S.n > HD_SIM_MAX_DIM)
        hd__fatal("the simulation back end simulates cubes of up to 2^%d processors, not 2^%d",
                  HD_SIM_MAX_DIM, S.n);
    S.out = stderr;
    S.out_owned = 0;
    S.out_name = "stderr";
    if ((s = getenv("HYPERDO_SIM_REPORT")) && *s) {
        if (!(S.out = fopen(s, "w")))
            hd__fatal("HYPERDO_SIM_REPORT: cannot write '%s': %s", s, strerror(errno));
        S.out_owned = 1;
        S.out_name = s;
    }
}

void hd__tr_start(int nprocs, int *argc, char ***argv, void (*node_main)(void))
{
    configure(nprocs);
    S.logs = aligned_alloc(64, sizeof(sim_log) * (size_t)nprocs);
    S.skip = calloc((size_t)nprocs, 1);
    if (!S.logs || !S.skip)
        hd__fatal("hd_run: out of memory for %d processors", nprocs);
    memset(S.logs, 0, sizeof(sim_log) * (size_t)nprocs);
    S.phase_doall = NULL;
    S.nphases = S.phases_cap = 0;
    tl_phase = 0;
    tl_gather_pending = 0;
    hd__thr_start(nprocs, argc, argv, node_main);
}

int hd__tr_self(void)
{
    return hd__thr_self();
}

static void record(int self, int p, size_t size)
{
    if (tl_in_coll)
        return;   /* timed as the collective's own phase */
    sim_log *l = &S.logs[self];
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        sim_rec *r = realloc(l->recs, cap * sizeof *r);
        if (!r)
            hd__fatal("the simulation back end: out of memory recording messages");
        l->recs = r;
        l->cap = cap;
    }
    l->recs[l->count++] = (sim_rec){tl_phase, (uint32_t)p, (uint64_t)size};
}

/* Records a message of the program, lets the protocol's pass. */
static void classify(int self, int p, const void *data, size_t size)
{
    sim_cmd c;
    if (self == 0 && S.skip[p]) {
        S.skip[p] = 0; /* a doall's environment or a scatter slice */
        return;
    }
    if (self == 0 && p != 0 && as_cmd(data, size, &c)) {
        int moves = c.op == CMD_RELAYOUT && (c.status & RELAYOUT_MOVE);
        if (c.op == CMD_DOALL || moves) {
            if (p == 1) { /* the first of the doall's commands: a new phase */
                if (S.nphases == S.phases_cap) {
                    uint32_t cap = S.phases_cap ? 2 * S.phases_cap : 64;
                    int *d = realloc(S.phase_doall, cap * sizeof *d);
                    if (!d)
                        hd__fatal("the simulation back end: out of memory");
                    S.phase_doall = d;
                    S.phases_cap = cap;
                }
                S.phase_doall[S.nphases++] = c.op == CMD_DOALL ? c.id : -2 - c.id;
                tl_phase = S.nphases;
            }
            S.skip[p] = c.env_size > 0;
        } else if (c.op == CMD_SCATTER || (c.op == CMD_RELAYOUT && c.env_size > 0)) {
            S.skip[p] = 1;
        }
        return;
    }
    if (self != 0 && p == 0 && tl_gather_pending) {
        tl_gather_pending = 0; /* the answer to a gather */
        return;
    }
    record(self, p, size);
}

void hd__tr_send(int p, const void *data, size_t size)
{
    classify(hd__thr_self(), p, data, size);
    hd__thr_send(p, data, size);
}

size_t hd__tr_recv(int p, void *data, size_t size)
{
    size_t got = hd__thr_recv(p, data, size);
    sim_cmd c;
    /* A node learns the phase from the host's commands. */
    if (p == 0 && hd__thr_self() != 0 && got == size && as_cmd(data, got, &c)) {
        if (c.op == CMD_DOALL || (c.op == CMD_RELAYOUT && (c.status & RELAYOUT_MOVE)))
            tl_phase++;
        else if (c.op == CMD_GATHER || c.op == CMD_SYNC)
            tl_gather_pending = 1;   /* its answer is the protocol's */
    }
    return got;
}

void hd__tr_barrier(void)
{
    hd__thr_barrier();
}

/* HYPERDO_SIM_MODEL=linkbound: a collective's messages are not the
 * doall's; processor 0 times its schedule on the link-bound cube of
 * Stout and Wagar 1990 (runtime/coll/linkbound.c) with beta and tau of
 * the run, a message of `bytes` bytes as the paper's m, and keeps the
 * time as a phase of its own (docs/simulator.md). */
void hd__tr_coll(const void *sched, double bytes)
{
    if (!S.linkbound)
        return;
    tl_in_coll = sched != NULL;
    if (!sched || hd__thr_self() != 0)
        return;
    const hd_coll_sched *s = sched;
    hd_lb_result r;
    /* beta and tau in millionths of a microsecond: exact for what the
     * environment spells with six decimals at most, an error beyond 64
     * bits (never a wrapped number). */
    if (!(S.tau * 1e6 < 9e18) || !(S.beta * 1e6 < 9e18) || !(bytes < 9e18))
        hd__fatal("the simulation back end: HYPERDO_SIM_TAU = %g or HYPERDO_SIM_BETA = %g is too "
                  "large for the link-bound model's exact times (64-bit rationals)", S.tau, S.beta);
    int64_t mb = (int64_t)(bytes + 0.5);
    hd_q tau = hd_q_frac((int64_t)(S.tau * 1e6 + 0.5), 1000000),
         beta = hd_q_frac((int64_t)(S.beta * 1e6 + 0.5), 1000000);
    if (hd_lb_simulate(s, tau, beta, hd_q_int(mb), &r))
        hd__fatal("the simulation back end: the %s schedule: %s", hd_coll_alg_name(s->shape.alg),
                  r.error);
    if (S.ncolls == S.colls_cap) {
        size_t cap = S.colls_cap ? 2 * S.colls_cap : 16;
        sim_coll *c = realloc(S.colls, cap * sizeof *c);
        if (!c)
            hd__fatal("the simulation back end: out of memory");
        S.colls = c;
        S.colls_cap = cap;
    }
    S.colls[S.ncolls++] = (sim_coll){ tl_phase, (int)s->shape.alg, bytes, hd_q_double(r.time) };
    hd_lb_result_free(&r);
}

/* ------------------------------------------------------ the timing */

typedef struct {
    uint64_t messages, bytes, max_bytes;
    int max_hops;
    uint64_t max_load, cycles;
    double time_us;
    long passes[2];     /* omega, butterfly; -1: not counted */
} phase_result;

static int popcount32(uint32_t x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

/* HYPERDO_SIM_MODEL=saf-bi|saf-uni: the phase's messages as words moved
 * in synchronous store-and-forward steps (Chung and Ranka 1990, Section
 * 2.3), each step T_setup (beta) + the most words on one channel x T_c
 * (tau per byte x the word); a message to its own processor costs
 * nothing.  cycles: the steps; max_load: the most words in one step. */
static void time_saf(const hd_sim_message *ms, const uint64_t *bytes, size_t count,
                     phase_result *r)
{
    hd_saf_parcel *p = malloc((count ? count : 1) * sizeof *p);
    if (!p)
        hd__fatal("the simulation back end: out of memory for %zu messages", count);
    size_t m = 0;
    for (size_t i = 0; i < count; i++)
        if (ms[i].src != ms[i].dst)
            p[m++] = (hd_saf_parcel){ ms[i].src, ms[i].dst,
                                      (long long)((bytes[i] + S.word - 1) / S.word) };
    int steps;
    long long *most;
    if (hd_saf_run(p, m, (hd_saf_model)(S.saf - 1), &steps, &most) != HD_SIM_OK)
        hd__fatal("the simulation back end: out of memory for the store-and-forward steps");
    r->cycles = (uint64_t)steps;
    for (int k = 0; k < steps; k++) {
        r->time_us += S.beta + (double)most[k] * S.tau * (double)S.word;
        if ((uint64_t)most[k] > r->max_load)
            r->max_load = (uint64_t)most[k];
    }
    free(most);
    free(p);
}

/* Times the messages of one phase (msg[i] from src[i], k-th of its
 * sender: ready[i]) on sim; fills r. */
static void time_phase(hd_sim *sim, hd_sim_message *ms, const double *ready,
                       const uint64_t *bytes, size_t count, phase_result *r)
{
    double cycle = (double)S.flit * S.tau;
    hd_sim_counts counts;
    int rc;

    memset(r, 0, sizeof *r);
    r->messages = count;
    if (count == 0)
        return;
    for (size_t i = 0; i < count; i++) {
        int hops = popcount32(ms[i].src ^ ms[i].dst);
        if (hops > r->max_hops)
            r->max_hops = hops;
    }
    if (S.saf) {
        time_saf(ms, bytes, count, r);
        return;
    }
    if (!sim) {
        /* The 0-cube: one processor, messages to itself only, one after
         * another through its injection and ejection ports. */
        for (size_t i = 0; i < count; i++) {
            double end = ready[i] + (double)hd_sim_zero_load_latency(0, ms[i].flits) * cycle;
            if (end > r->time_us)
                r->time_us = end;
        }
        return;
    }
    rc = hd_sim_phase(sim, ms, count, &counts);
    if (rc != HD_SIM_OK)
        hd__fatal("the simulation back end: hd_sim_phase failed (%d)", rc);
    r->max_load = counts.max_load;
    r->cycles = counts.cycles;
    for (size_t i = 0; i < count; i++) {
        double end = ready[i] + (double)(ms[i].delivered - ms[i].inject) * cycle;
        if (end > r->time_us)
            r->time_us = end;
    }
}

/* The passes the phase's messages need through Wu 1984's omega network
 * and butterfly (runtime/sim/omega.c), each message sent directly from
 * its source to its destination as the runtime sends it: the greedy
 * first-fit partition into conflict-free passes, an upper bound on the
 * fewest direct passes; a message to its own processor needs none.  Wu's
 * D of a permutation relays through intermediate processors and can be
 * lower (the translator's header gives it).  -1 beyond
 * HD_OMEGA_MAX_DIM. */
static void count_passes(const hd_sim_message *ms, size_t count, phase_result *r)
{
    r->passes[0] = r->passes[1] = -1;
    if (S.n > HD_OMEGA_MAX_DIM)
        return;
    r->passes[0] = r->passes[1] = 0;
    if (count == 0)
        return;
    hd_omega_msg *om = malloc(count * sizeof *om);
    uint32_t *pass = malloc(count * sizeof *pass);
    if (!om || !pass)
        hd__fatal("the simulation back end: out of memory for %zu messages", count);
    for (size_t i = 0; i < count; i++)
        om[i] = (hd_omega_msg){ ms[i].src, ms[i].dst };
    for (int k = 0; k < 2; k++) {
        uint32_t passes = 0;
        int rc = hd_omega_partition(k ? HD_OMEGA_NET_BUTTERFLY : HD_OMEGA_NET_OMEGA, S.n, om,
                                    count, pass, &passes);
        if (rc != HD_SIM_OK)
            hd__fatal("the simulation back end: hd_omega_partition failed (%d)", rc);
        r->passes[k] = passes;
    }
    free(om);
    free(pass);
}

static void report(int nprocs)
{
    FILE *f = S.out;
    double cycle = (double)S.flit * S.tau;
    size_t *cursor = calloc((size_t)nprocs, sizeof *cursor);
    size_t cap = 0;
    hd_sim_message *ms = NULL;
    double *ready = NULL;
    uint64_t *sizes = NULL;
    hd_sim *sim = NULL;
    double sum = 0.0;
    uint64_t sum_msgs = 0, sum_bytes = 0;
    long sum_passes[2] = { 0, 0 };

    if (!cursor)
        hd__fatal("the simulation back end: out of memory");
    if (S.n > 0 && !(sim = hd_sim_new(S.n, S.routing)))
        hd__fatal("the simulation back end: cannot make a simulator of the %d-cube", S.n);

    fprintf(f, "# hyperdo-sim: %d-cube, %s routing, beta %g us/message, tau %g us/byte, "
               "%lu byte(s)/flit, cycle %g us\n",
            S.n, hd_sim_routing_name(S.routing), S.beta, S.tau, S.flit, cycle);
    if (S.saf)
        fprintf(f, "# model %s: synchronous store-and-forward steps (Chung and Ranka 1990), "
                   "T_setup %g us, T_c %g us per word of %lu bytes; cycles: steps, max_load: "
                   "the most words on one channel in a step\n",
                S.saf - 1 == HD_SAF_BI ? "saf-bi" : "saf-uni", S.beta, S.tau * (double)S.word,
                S.word);
    fprintf(f, "# phase doall messages bytes max_bytes max_hops max_load cycles time_us "
               "max_sends omega_passes butterfly_passes\n");
    /* Phase 0 holds messages sent outside any doall (if a host main
     * calls v_send itself); phases 1 .. nphases are the doalls run. */
    for (uint32_t k = 0; k <= S.nphases; k++) {
        size_t count = 0;
        uint64_t phase_bytes = 0, phase_max = 0, max_sends = 0;
        phase_result r;
        for (int p = 0; p < nprocs; p++) {
            sim_log *l = &S.logs[p];
            size_t c = cursor[p];
            while (c < l->count && l->recs[c].phase == k)
                c++;
            count += c - cursor[p];
        }
        if (k == 0 && count == 0)
            continue;
        if (count > cap) {
            hd_sim_message *m = realloc(ms, count * sizeof *m);
            double *rd = m ? realloc(ready, count * sizeof *rd) : NULL;
            uint64_t *sz = rd ? realloc(sizes, count * sizeof *sz) : NULL;
            if (m)
                ms = m;
            if (rd)
                ready = rd;
            if (sz)
                sizes = sz;
            if (!m || !rd || !sz)
                hd__fatal("the simulation back end: out of memory for %zu messages", count);
            cap = count;
        }
        count = 0;
        for (int p = 0; p < nprocs; p++) {
            sim_log *l = &S.logs[p];
            uint64_t j = 0;
            for (; cursor[p] < l->count && l->recs[cursor[p]].phase == k; cursor[p]++) {
                const sim_rec *rec = &l->recs[cursor[p]];
                uint64_t flits = (rec->bytes + S.flit - 1) / S.flit;
                double t = (double)++j * S.beta;
                if (flits < 1)
                    flits = 1;
                if (flits > UINT32_MAX)
                    hd__fatal("the simulation back end: a message of %llu bytes is too long",
                              (unsigned long long)rec->bytes);
                ms[count].src = (uint32_t)p;
                ms[count].dst = rec->dst;
                ms[count].flits = (uint32_t)flits;
                ms[count].inject = cycle > 0 ? (uint64_t)ceil(t / cycle - 1e-9) : 0;
                ms[count].delivered = 0;
                ms[count].received = 0;
                ready[count] = t;
                sizes[count] = rec->bytes;
                phase_bytes += rec->bytes;
                if (rec->bytes > phase_max)
                    phase_max = rec->bytes;
                count++;
            }
            /* The most messages one processor sends: what a layout's
             * conflicts cost a sender (Lee and Aboelaze; docs/layouts.md). */
            if (j > max_sends)
                max_sends = j;
        }
        time_phase(sim, ms, ready, sizes, count, &r);
        count_passes(ms, count, &r);
        sum_passes[0] += r.passes[0];
        sum_passes[1] += r.passes[1];
        r.bytes = phase_bytes;
        r.max_bytes = phase_max;
        sum += r.time_us;
        sum_msgs += r.messages;
        sum_bytes += r.bytes;
        if (k && S.phase_doall[k - 1] <= -2) {
            /* A remap: not a doall number, so that readers of doall rows
             * (sscanf "%u %d") pass over it. */
            const hd_array_desc *a = hd__array_desc(-2 - S.phase_doall[k - 1]);
            fprintf(f, "%u remap:%s %llu", k, a && a->name ? a->name : "?",
                    (unsigned long long)r.messages);
        } else {
            fprintf(f, "%u %d %llu", k, k ? S.phase_doall[k - 1] : -1,
                    (unsigned long long)r.messages);
        }
        fprintf(f, " %llu %llu %d %llu %llu %.2f %llu %ld %ld\n", (unsigned long long)r.bytes,
                (unsigned long long)r.max_bytes, r.max_hops, (unsigned long long)r.max_load,
                (unsigned long long)r.cycles, r.time_us, (unsigned long long)max_sends,
                r.passes[0], r.passes[1]);
    }
    /* Link-bound collectives as '#' lines, which readers of the phase rows
     * pass over. */
    for (size_t c = 0; c < S.ncolls; c++) {
        const sim_coll *x = &S.colls[c];
        fprintf(f, "# collective %zu in phase %u (doall %d): %s on the link-bound %d-cube, "
                   "%.0f bytes per message: %.2f us\n",
                c + 1, x->phase, x->phase ? S.phase_doall[x->phase - 1] : -1,
                hd_coll_alg_name((hd_coll_alg)x->alg), S.n, x->bytes, x->time_us);
        sum += x->time_us;
    }
    fprintf(f, "# total: %u phases, %llu messages, %llu bytes, %.2f us of communication",
            S.nphases, (unsigned long long)sum_msgs, (unsigned long long)sum_bytes, sum);
    if (S.ncolls)
        fprintf(f, " (%zu link-bound collectives included)", S.ncolls);
    if (S.n <= HD_OMEGA_MAX_DIM)
        fprintf(f, ", %ld omega and %ld butterfly passes (direct, greedy)", sum_passes[0],
                sum_passes[1]);
    fputc('\n', f);
    fflush(f);
    hd_sim_free(sim);
    free(ms);
    free(ready);
    free(sizes);
    free(cursor);
}

void hd__tr_finish(void)
{
    int nprocs = 1 << S.n;
    hd__thr_finish();
    report(nprocs);
    if (S.out_owned)
        fclose(S.out);
    S.out = NULL;
    for (int p = 0; p < nprocs; p++)
        free(S.logs[p].recs);
    free(S.logs);
    free(S.skip);
    free(S.phase_doall);
    S.logs = NULL;
    S.skip = NULL;
    S.phase_doall = NULL;
}

void hd__tr_abort(void)
{
    hd__thr_abort();
}
