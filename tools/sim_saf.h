/*
 * sim_saf.h — `hyperdo sim --model saf-bi|saf-uni` (sim_saf.c), which
 * sim.c hands its command line to.
 */
#ifndef HYPERDO_SIM_SAF_H
#define HYPERDO_SIM_SAF_H

int hd_sim_saf(int argc, char **argv);

#endif
