/*
 * schedule.h — the packets of Stout and Wagar 1990's algorithms, per node
 * and stage: one generator for the run-time collectives (exec.c), the
 * link-bound simulator (linkbound.c, `hyperdo sim --model linkbound`) and
 * the tests, so that what is simulated is what runs.
 *
 * A schedule moves MESSAGES.  Message ids mean, by the schedule's kind:
 *   SINGLE      one message, from the root to every node (broadcast) or to
 *               `dest` (the sends);
 *   TO_NODE     message x goes from the root to node x (DISTRIBUTE);
 *   FROM_NODE   message x goes from node x to the root (COLLECT);
 *   ALL_FROM    message x goes from node x to every node (COMPLETE BROADCAST);
 *   PAIR        message s P + t goes from node s to node t (COMPLETE EXCHANGE);
 *   PERM        message s goes from node s to perm[s] (INVERSION, PERMUTED
 *               SEND, the transpositions);
 *   REDUCE      message x is block x of every node's vector, combined by
 *               the operator into node x (HISTOGRAM); then, for a reduce or
 *               an all-reduce, copied to the root or to every node.
 * A chunk is the part [lo, hi) of one message, lo and hi exact fractions;
 * a transfer sends a list of chunks over one directed link (src and dst
 * differ in one bit) in one stage.  The receiver stores a copied chunk,
 * or combines it into its own partial result (a reduction's transfers).
 * Nodes are physical ids; a schedule for root r is the one for root 0
 * with every node id XORed with r (Section 1.4).
 */
#ifndef HD_COLL_SCHEDULE_H
#define HD_COLL_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "hyperdo/coll.h"
#include "q.h"

typedef enum {
    HD_MSG_SINGLE,
    HD_MSG_TO_NODE,
    HD_MSG_FROM_NODE,
    HD_MSG_ALL_FROM,
    HD_MSG_PAIR,
    HD_MSG_PERM,
    HD_MSG_REDUCE,
} hd_msg_kind;

/* What a reduce is followed by: nothing (reduce-scatter), COLLECT to the
 * root, COMPLETE BROADCAST to all. */
typedef enum { HD_RED_SCATTER, HD_RED_TO_ROOT, HD_RED_TO_ALL } hd_red_then;

typedef struct {
    uint32_t msg;
    hd_q lo, hi;
} hd_coll_chunk;

typedef struct {
    int32_t stage;
    int32_t src, dst;
    uint8_t combine;      /* 1: the receiver combines (a reduction) */
    uint32_t first;       /* chunks[first .. first + count) */
    uint32_t count;
} hd_coll_xfer;

/* The parameters that shape a schedule (everything but the data). */
typedef struct {
    hd_coll_alg alg;
    int d;                /* the cube: 2^d nodes */
    int root;             /* physical */
    int g, q, n;          /* as in hd_coll_args; resolved (never 0) in the schedule */
    const int *perm;      /* PERMUTED: 2^d destinations (physical); copied */
    hd_red_then then;     /* HISTOGRAM only */
} hd_coll_shape;

typedef struct hd_coll_sched {
    hd_coll_shape shape;  /* resolved: g, q, n as used */
    int P;
    hd_msg_kind kind;
    uint32_t nmsgs;
    int dest;             /* SINGLE sends: the destination; -1 for a broadcast */
    int32_t *perm;        /* PERM: perm[s]; NULL otherwise */
    hd_q msg_items;       /* a message's size in units of the m of the paper */
    int nstages;
    hd_coll_xfer *xfers;  /* sorted by stage; within a stage, as generated */
    size_t nxfers, xcap;
    hd_coll_chunk *chunks;
    size_t nchunks, ccap;
    int overflow;         /* a fraction left int64 (reported, never rounded) */
} hd_coll_sched;

/* Builds the schedule of `shape` for m items per message (m only chooses
 * the optimal g of a pipelined algorithm when shape->g is 0; the chunks
 * are fractions).  Returns NULL and writes a reason into err (errsize
 * bytes) when the shape is invalid (a dimension the algorithm lacks, n
 * out of range, q not usable, a table that is no permutation) or memory
 * runs out. */
hd_coll_sched *hd_coll_schedule(const hd_coll_shape *shape, double m, double tau, double beta,
                                char *err, size_t errsize);
void hd_coll_schedule_free(hd_coll_sched *s);

/* The message's origin (-1: every node, a reduction's block) and
 * whether node v must hold the message at the end. */
int hd_coll_msg_origin(const hd_coll_sched *s, uint32_t msg);
int hd_coll_msg_wanted(const hd_coll_sched *s, uint32_t msg, int v);

/* The most groups (g) and L.C. INVERSION packets per link (q) a schedule
 * takes: the simulator's work grows as g^3 for the pipelined broadcasts
 * (every node keeps g d packets), and the paper's optimum passes 256 only
 * when m / beta is in the hundreds of thousands, where its gain over 256 is
 * below 0.2 % of the time (docs/collectives.md). */
#define HD_COLL_MAX_G 256

/* The g a pipelined algorithm uses when g is 0 (the paper's optimum for
 * m, tau, beta, rounded into 1 .. HD_COLL_MAX_G; 1 for the others), and the q of
 * L.C. INVERSION when q is 0: what hd_coll_schedule resolves them to. */
int hd_coll_default_g(hd_coll_alg a, int d, int n, int g, double m, double tau, double beta);
int hd_coll_default_q(int d, int q, double m, double tau, double beta);

/* K_d = sum_{k=0..d} 1 / C(d, k) (Section 3, O.C. SEND 3). */
hd_q hd_coll_K(int d);

#endif
