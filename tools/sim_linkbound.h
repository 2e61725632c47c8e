/*
 * sim_linkbound.h — `hyperdo sim --model linkbound` (sim_linkbound.c),
 * which sim.c hands the command line to when it names that model.
 */
#ifndef HYPERDO_SIM_LINKBOUND_H
#define HYPERDO_SIM_LINKBOUND_H

int hd_sim_linkbound(int argc, char **argv);

#endif
