/*
 * sim.h — a cycle-driven, flit-level simulator of a wormhole-routed binary
 * n-cube: the network of Hou et al. 2001, Section 6 (Hou, Wang, Ku, Hsu, "Optimal
 * processor mapping for linear-complement communication on hypercubes").
 *
 * The model (docs/simulator.md has the details and the reasons):
 *   - 2^n routers; between neighbours two unidirectional channels, one each
 *     way; each router also has one injection channel from its processor
 *     and one ejection channel to it.
 *   - Every channel has a buffer of one flit at its receiving end; a flit
 *     crosses a channel in one cycle.
 *   - Wormhole switching: a header flit acquires a channel, the body flits
 *     follow it, and the channel is released when the tail flit leaves the
 *     channel's buffer.  A released channel can be granted again from the
 *     next cycle on.
 *   - Arbitration: when several headers at a router wait for the same free
 *     output channel, the one that arrived at the router first gets it
 *     (ties: the input channel of lower dimension, the injection channel
 *     last).
 *   - Routing: e-cube (dimensions in ascending order, Section 2.3), or the
 *     partially adaptive P-cube (negative-first) routing of Glass and Ni's
 *     turn model: first every dimension where the current address has a 1
 *     and the destination a 0, then every dimension where it is the other
 *     way round, in any order within a phase; among the allowed free
 *     channels the one of lowest dimension is taken (Section 6).
 *   - Zero-load latency: a message of L flits whose source and destination
 *     differ in D bits, alone in the network, is delivered L + D + 1 cycles
 *     after it is ready at its source (hd_sim_zero_load_latency).
 *
 * Two ways to drive it:
 *   - hd_sim_phase: a list of messages (src, dst, flits, injection cycle);
 *     returns when every message has been delivered, with the cycle each
 *     one was.  This is the entry point for timing one communication phase
 *     of a program.
 *   - hd_sim_open: open-loop traffic, every stream (src, dst) generating
 *     messages at exponentially distributed intervals; measures accepted
 *     throughput and latency.  hd_sim_sweep raises the load to saturation.
 *
 * Results depend only on the inputs and the seed (a private PRNG).  No
 * allocation happens inside the simulation loop: everything is allocated
 * by hd_sim_new or at the start of a run.
 */
#ifndef HYPERDO_SIM_H
#define HYPERDO_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_SIM_MAX_DIM 14     /* 16384 routers, 16 channels each */

enum {
    HD_SIM_OK = 0,
    HD_SIM_EINVAL = -1,    /* argument outside the documented domain */
    HD_SIM_ENOMEM = -2,    /* allocation failed */
    HD_SIM_ESTALL = -3,    /* hd_sim_phase: no flit moved for too long */
};

typedef enum { HD_SIM_ECUBE, HD_SIM_PCUBE } hd_sim_routing;

const char *hd_sim_routing_name(hd_sim_routing r);     /* "ecube", "pcube" */
bool hd_sim_routing_parse(const char *s, hd_sim_routing *r);

/* The latency of a message of `flits` flits over `hops` channels of the
 * cube when nothing else is in the network: cycles from the one it is
 * ready at its source to the end of the one its tail flit reaches the
 * destination processor.  flits + hops + 1 (docs/simulator.md). */
uint64_t hd_sim_zero_load_latency(int hops, uint32_t flits);

typedef struct hd_sim hd_sim;

/* A simulator of the n-cube (1 <= n <= HD_SIM_MAX_DIM); NULL when n is out
 * of range or memory runs out. */
hd_sim *hd_sim_new(int n, hd_sim_routing routing);
void hd_sim_free(hd_sim *s);
int hd_sim_dim(const hd_sim *s);

/* Called now and then during a run with the cycles done and to do. */
typedef void (*hd_sim_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Counts common to both modes.  A flit is injected when it crosses its
 * source's injection channel and delivered when it crosses its
 * destination's ejection channel; flit_hops counts crossings of the
 * cube's channels only. */
typedef struct {
    uint64_t cycles;            /* simulated */
    uint64_t messages_delivered;
    uint64_t flits_injected, flits_delivered;
    uint64_t flit_hops;
    /* Headers that crossed each channel of the cube during the run (each
     * message once per channel of its path): the largest count over the
     * channels of each dimension, and over all of them. */
    uint64_t load[HD_SIM_MAX_DIM];
    uint64_t max_load;
} hd_sim_counts;

/* --------------------------------------------------------- phase mode */

typedef struct {
    uint32_t src, dst;       /* routers, < 2^n */
    uint32_t flits;          /* >= 1 */
    uint64_t inject;         /* cycle from which it is ready at src */
    uint64_t delivered;      /* out: cycle after its tail reached dst */
    uint32_t received;       /* out: its flits that reached dst */
} hd_sim_message;

/* Runs the messages to completion from cycle 0.  Messages from one source
 * enter the network in the order of their injection cycles (ties: in
 * array order), one after another through the source's injection channel.
 * Fills delivered and received of every message, and *counts.  Returns
 * HD_SIM_EINVAL for a bad message, HD_SIM_ESTALL if nothing moved for
 * 2^20 cycles while messages were in the network (a deadlock; cannot
 * happen with either routing, both are deadlock-free). */
int hd_sim_phase(hd_sim *s, hd_sim_message *msg, size_t count,
                 hd_sim_counts *counts);

/* ---------------------------------------------------------- open loop */

/* Traffic: `count` streams, stream k from src[k] to dst[k].  For an LCC
 * round every one of the 2^n messages is a stream. */
typedef struct {
    size_t count;
    const uint32_t *src, *dst;
} hd_sim_traffic;

typedef struct {
    double rate;          /* offered load: flits per cycle per stream */
    uint32_t flits;       /* message length, >= 1 (the paper: 20) */
    uint64_t warmup;      /* cycles simulated before measuring */
    uint64_t cycles;      /* cycles measured, >= 1 */
    uint64_t seed;
    uint32_t queue;       /* source queue capacity in messages (power of
                             two; 0 means 256); a full queue drops */
    bool drain;           /* after the window, stop generating and run
                             until every queued message is delivered */
    hd_sim_progress_fn progress;
    void *progress_ctx;
} hd_sim_open_config;

typedef struct {
    /* In flits per cycle per router, over the measured window: */
    double offered;            /* config rate * streams / routers */
    double generated;          /* flits of the messages generated */
    double accepted;           /* flits delivered */
    /* Messages whose tail was delivered in the window: */
    uint64_t measured;
    double latency_mean;       /* cycles, from ready at source to delivered */
    uint64_t latency_p99;      /* the smallest l with >= 99% of them <= l */
    uint64_t latency_max;
    /* Messages waiting at the sources at the end of the window minus at
     * its start. */
    int64_t backlog_growth;
    /* Not sustainable (Section 6.1: "the number of messages queued at
     * their source processors is small and bounded"): the backlog grew by
     * more than 2% of the messages generated in the window, or a source
     * queue overflowed, or accepted < 0.95 generated. */
    bool saturated;
    /* Over the whole run (warmup, window and drain): */
    uint64_t messages_generated, messages_dropped;
    uint64_t flits_generated;  /* of the messages not dropped */
    uint64_t flits_queued;     /* at the end: not yet injected (queued
                                  messages, and the flits of messages in
                                  the network still at their source) */
    uint64_t flits_in_network; /* at the end: injected, not delivered */
    hd_sim_counts counts;
} hd_sim_open_result;

int hd_sim_open(hd_sim *s, const hd_sim_traffic *t,
                const hd_sim_open_config *cfg, hd_sim_open_result *res);

/* Raises the offered load from 0.02 in steps of 0.02 (0.05 above 0.2) to
 * the first saturated run, then bisects between the last sustainable and
 * the first saturated load `refine` times.  Each run uses cfg with its
 * rate replaced.  points (capacity max_points, sorted by offered load on
 * return) receives every run; *saturation the largest accepted throughput
 * of the runs that were not saturated (the maximum sustainable
 * throughput of Section 6.1).  progress, when set, gets (run index, an
 * upper bound of the runs). */
int hd_sim_sweep(hd_sim *s, const hd_sim_traffic *t,
                 const hd_sim_open_config *cfg, int refine,
                 hd_sim_open_result *points, int max_points, int *npoints,
                 double *saturation);

#endif
