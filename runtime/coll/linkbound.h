/*
 * linkbound.h — the link-bound hypercube of Stout and Wagar 1990,
 * Section 1.2, simulated exactly: every node sends and receives on all
 * its links at once, both directions of a link at once; store-and-forward
 * (a node passes on nothing before it has received all of it); a packet
 * of s items costs tau s + beta on its link.  A transfer starts when its
 * sender holds all of its data and its link has finished the transfers of
 * earlier stages; nothing waits for a stage to end otherwise, so the
 * pipelined algorithms (O.C. SEND 4, X.O.C. SEND 2, L.C. INVERSION) run
 * unsynchronized as the paper assumes.  Times are exact rationals.
 */
#ifndef HD_COLL_LINKBOUND_H
#define HD_COLL_LINKBOUND_H

#include "schedule.h"

typedef struct {
    size_t xfers;       /* transfers of the stage */
    size_t links;       /* directed links they use */
    hd_q max_load;      /* the most items one link carries in the stage */
    size_t conflicts;   /* links used more than once in the stage */
    hd_q end;           /* when the stage's last transfer ends */
} hd_lb_stage;

typedef struct {
    hd_q time;          /* when the last transfer ends */
    int nstages;
    hd_lb_stage *stages;    /* nstages entries (free with hd_lb_result_free) */
    size_t conflicts;       /* over all stages */
    size_t undelivered;     /* (message, node) pairs incomplete at the end */
    size_t duplicated;      /* chunks a destination received again (its origin not counted) */
    size_t wrong_sums;      /* reduced blocks missing or repeating a contribution */
    size_t transfers;
    char error[256];        /* a schedule that sends what its sender lacks, etc. */
} hd_lb_result;

/* Simulates s with m items per message of the paper (the schedule's
 * msg_items scale it).  Returns 0, or -1 with r->error set. */
int hd_lb_simulate(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m, hd_lb_result *r);
/* The same; one_port: a node sends one packet at a time (the one-port
 * machines the paper contrasts with, Section 1.2), in the schedule's
 * order. */
int hd_lb_simulate_ports(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m, int one_port,
                         hd_lb_result *r);
void hd_lb_result_free(hd_lb_result *r);

/* Section 9's lower bound for the schedule's task: a set S of links, the
 * load a that must cross it, and a tau / |S| + beta. */
hd_q hd_lb_lower_bound(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m, int *overflow);

/* The paper's closed form of the algorithm's time, corrected where
 * docs/collectives.md says, for the schedule's resolved g, q and n (what
 * analysis prices and the simulator reproduces).  Sets *overflow when a
 * fraction leaves int64. */
hd_q hd_lb_formula(const hd_coll_shape *shape, hd_q tau, hd_q beta, hd_q m, int *overflow);

#endif
