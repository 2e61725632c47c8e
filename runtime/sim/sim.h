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
 *
 * The last section of this header is another simulator: the omega network
 * and the butterfly of Wu 1984, pass by pass (omega.c).
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

/* ------------------------------- omega-class networks, pass by pass */

/*
 * A second simulator, of a different kind: Lawrie's omega network and
 * Pease's indirect binary n-cube (the butterfly), the multistage networks
 * of Wu 1984 (Section 2.1; Chapter 5, Lemma 5.1), one pass at a time
 * (omega.c; docs/simulator.md, "The pass-level simulator").  It is the
 * test oracle of analysis/omega.c and knows nothing of its algebra: a
 * message is a (source line, destination line) pair, and routing one is
 * following the wires.
 *
 *   - N = 2^n input lines, N output lines, n stages; each stage is a
 *     fixed wiring and N/2 two-state switches on the line pairs (2j,
 *     2j+1) of the wiring's output: direct (port 0 to 0, 1 to 1) or
 *     crossed.  No switch broadcasts or combines (Wu 1984, Section 2.1).
 *   - Omega: every stage's wiring is the perfect shuffle (line l goes to
 *     l rotated left by one bit); stage s (s = 1 .. n in the order
 *     messages cross them) sets destination bit n - s, most significant
 *     first: Wu's stage n - s.
 *   - Butterfly: stage s pairs the lines that differ in bit s - 1, least
 *     significant first (its wiring exchanges bits 0 and s - 1 before the
 *     switches and back after them).
 *   - Destination-tag routing: at each stage the message leaves its
 *     switch at the port named by the destination bit the stage sets.
 *   - A pass is conflict-free when no two messages start on one input
 *     line (stage 0), no two want one switch output, and no switch is
 *     asked to be both direct and crossed.  Each message is followed on
 *     its own path whatever it meets, so that every place of conflict of
 *     the pass is reported, not only the first.
 *
 * Limits: n <= HD_OMEGA_MAX_DIM, so that the greedy partition's per-line
 * pass lists (16 bytes for each of the (n + 1) 2^n lines, 18 MB at n =
 * 16) and a pass's switch settings (n 2^(n-1) bytes) stay small; at most
 * HD_OMEGA_MAX_MESSAGES messages (a pass number is 32 bits).  Beyond
 * either, HD_SIM_EINVAL.
 */
#define HD_OMEGA_MAX_DIM 16
#define HD_OMEGA_MAX_MESSAGES (UINT32_MAX - 1)

typedef enum { HD_OMEGA_NET_OMEGA, HD_OMEGA_NET_BUTTERFLY } hd_omega_network;

const char *hd_omega_network_name(hd_omega_network k);    /* "omega", "butterfly" */
bool hd_omega_network_parse(const char *s, hd_omega_network *k);
/* The destination bit stage s (1 .. n) sets: n - s (omega), s - 1
 * (butterfly). */
int hd_omega_stage_bit(hd_omega_network net, int n, int stage);
/* The line a message from src to dst is on after stage `stage` (0: src
 * itself; n: dst). */
uint32_t hd_omega_line(hd_omega_network net, int n, uint32_t src, uint32_t dst, int stage);

typedef struct {
    uint32_t src, dst;       /* lines, < 2^n */
} hd_omega_msg;

/* A switch in a pass. */
enum { HD_SW_IDLE = 0, HD_SW_DIRECT = 1, HD_SW_CROSSED = 2, HD_SW_BOTH = 3 };

typedef enum {
    HD_OMEGA_SHARED_INPUT,   /* stage 0: messages start on one input line */
    HD_OMEGA_SHARED_OUTPUT,  /* messages want one output of a switch */
    HD_OMEGA_BOTH_SETTINGS,  /* a switch asked to be direct and crossed */
} hd_omega_conflict_kind;

/* One place of conflict, however many messages meet there. */
typedef struct {
    int stage;               /* 0 (inputs) .. n */
    hd_omega_conflict_kind kind;
    uint32_t where;          /* the input line, the line after the stage
                                (the switch output), or the switch */
    size_t first, second;    /* the first two messages (array order) there */
} hd_omega_conflict;

typedef struct {
    hd_omega_network net;
    int n;
    size_t messages;
    /* n * 2^(n-1) HD_SW_* values: switch j of stage s at
     * setting[(s - 1) * 2^(n-1) + j]; switch j takes lines 2j and 2j + 1
     * of the stage's wiring output. */
    uint8_t *setting;
    /* Places of conflict per stage (0 .. n): shared inputs (stage 0) or
     * shared switch outputs, and switches asked for both settings. */
    size_t outputs[HD_OMEGA_MAX_DIM + 1];
    size_t settings[HD_OMEGA_MAX_DIM + 1];
    hd_omega_conflict *conflict;     /* in order of stage, then message */
    size_t nconflicts;
} hd_omega_pass;

/* Routes every message (src == dst too) in one pass.  HD_SIM_OK,
 * HD_SIM_EINVAL (n, a line, count out of range), HD_SIM_ENOMEM; *out is
 * filled on success (free it with hd_omega_pass_free) and empty
 * otherwise. */
int hd_omega_route(hd_omega_network net, int n, const hd_omega_msg *msg, size_t count,
                   hd_omega_pass *out);
void hd_omega_pass_free(hd_omega_pass *p);

/* The messages split into conflict-free passes greedily: first fit in
 * array order, message i going into the lowest-numbered pass in which
 * its path shares no line (input, switch output) with the messages put
 * there before it.  The same as filling pass 0 with every message that
 * fits in array order, then pass 1 from the rest, and so on.  A message
 * whose source is its destination stays in its processor (Wu 1984,
 * Section 2.3: the identity needs no routing, D(I) = 0): pass[i] =
 * HD_OMEGA_LOCAL and no pass.  *passes: the number of passes used.  Not
 * optimal in general (it is a greedy colouring). */
#define HD_OMEGA_LOCAL UINT32_MAX
int hd_omega_partition(hd_omega_network net, int n, const hd_omega_msg *msg, size_t count,
                       uint32_t *pass, uint32_t *passes);

/* A permutation P of the 2^n lines given as two factors, P = second after
 * first (all three as tables of 2^n entries): pass 0 routes every line x
 * to first[x], pass 1 every line z to second[z]. */
typedef struct {
    hd_omega_pass pass[2];
    size_t delivered;        /* lines x with second[first[x]] == target[x] */
    bool ok;                 /* both passes conflict-free, all delivered */
} hd_omega_factors;

int hd_omega_run_factors(hd_omega_network net, int n, const uint32_t *first,
                         const uint32_t *second, const uint32_t *target,
                         hd_omega_factors *out);
void hd_omega_factors_free(hd_omega_factors *f);

/* ------------------------------------------------------------------ */
/* The synchronous store-and-forward n-cube of Chung and Ranka 1990,
 * Section 2.3 (saf.c; docs/meshes.md): every step each processor forwards
 * what it holds one e-cube hop (lowest differing bit first); what arrives
 * in a step leaves in a later one; a step costs T_setup + (the most words
 * on one directed channel) T_c.  Bidirectional: both directions of a link
 * in a step; unidirectional: the end whose bit of the link's dimension
 * equals the step's parity (0 first) sends if it has anything for the
 * link, the other end only if not.  Steps run until nothing is left. */
typedef enum { HD_SAF_BI, HD_SAF_UNI } hd_saf_model;

typedef struct {
    uint32_t src, dst;         /* src != dst */
    long long words;           /* > 0 */
} hd_saf_parcel;

/* The steps of moving parcels (count of them, merged where (src, dst)
 * repeat); *steps and (*step_max)[0 .. *steps) (malloc'd; NULL when
 * none) are the steps and their busiest channels.  HD_SIM_OK or
 * HD_SIM_ENOMEM, HD_SIM_EINVAL (src == dst, or words <= 0). */
int hd_saf_run(const hd_saf_parcel *parcels, size_t count, hd_saf_model model, int *steps,
               long long **step_max);

#endif
