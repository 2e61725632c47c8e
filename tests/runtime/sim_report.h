/*
 * sim_report.h — one line of the sim back end's report
 * (HYPERDO_SIM_REPORT; docs/simulator.md, "The report"), for the runtime
 * tests that compare a program's phases with a computation of their own.
 */
#ifndef HYPERDO_TESTS_SIM_REPORT_H
#define HYPERDO_TESTS_SIM_REPORT_H

#include <stdio.h>

typedef struct {
    unsigned phase;
    int doall, max_hops;
    unsigned long long messages, bytes, max_bytes, max_load, cycles;
    double time_us;
} sim_phase;

/* 1: a phase line read into *p; 0: a comment; -1: neither (said). */
static inline int sim_report_line(const char *line, sim_phase *p)
{
    if (line[0] == '#')
        return 0;
    if (sscanf(line, "%u %d %llu %llu %llu %d %llu %llu %lf", &p->phase, &p->doall, &p->messages,
               &p->bytes, &p->max_bytes, &p->max_hops, &p->max_load, &p->cycles,
               &p->time_us) != 9) {
        printf("bad report line: %s", line);
        return -1;
    }
    return 1;
}

#endif
