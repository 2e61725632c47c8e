/*
 * hyperdo/cost.h — the time model of one message, shared by the
 * translator (its target network, analysis/analysis.h) and the runtime's
 * simulated network (transport_sim.c), so that what the plan assumes and
 * what the simulator charges are one set of numbers.
 *
 * A message of B bytes between nodes D hops apart costs, with wormhole
 * switching, startup_us + (B + D) byte_us when no channel is shared
 * (store-and-forward: startup_us + D B byte_us); `ports` messages can
 * leave a node at once (1: one-port).
 */
#ifndef HYPERDO_COST_H
#define HYPERDO_COST_H

typedef enum {
    HD_SWITCH_WORMHOLE,
    HD_SWITCH_STORE_AND_FORWARD,
} hd_switching;

typedef struct {
    double startup_us;      /* beta: software latency of one message */
    double byte_us;         /* tau: one byte through one channel */
    int ports;              /* messages a node injects at once; 0: one on
                             * every link at once (all-port, the link-bound
                             * model of Stout and Wagar 1990) */
    hd_switching switching;
} hd_cost_model;

/* The nCUBE-2 of Hou et al. 2001, Section 6.2: beta = 164 us per message,
 * tau = 0.57 us per byte, one port, wormhole routing. */
#define HD_COST_NCUBE2_STARTUP_US 164.0
#define HD_COST_NCUBE2_BYTE_US 0.57
#define HD_COST_MODEL_NCUBE2 \
    { HD_COST_NCUBE2_STARTUP_US, HD_COST_NCUBE2_BYTE_US, 1, HD_SWITCH_WORMHOLE }

/* The link-bound hypercube of Stout and Wagar 1990, Section 1.2, with the
 * nCUBE-2's beta and tau: every node sends on all its links at once,
 * store-and-forward (docs/collectives.md). */
#define HD_COST_MODEL_LINKBOUND \
    { HD_COST_NCUBE2_STARTUP_US, HD_COST_NCUBE2_BYTE_US, 0, HD_SWITCH_STORE_AND_FORWARD }

#endif
