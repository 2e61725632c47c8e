/*
 * analyze.h — what the parts of `hyperdo analyze` share: the driver
 * (analyze.c: the command line, reading the input, building the plan,
 * choosing the output), the JSON writer (analyze_json.c) and the report
 * for people (analyze_text.c).
 */
#ifndef HYPERDO_ANALYZE_H
#define HYPERDO_ANALYZE_H

#include <stdio.h>

#include "analysis.h"

/* The plan (analysis.h), the input's name and its spec, for the report. */
typedef struct {
    const char *name;
    hd_plan p;              /* on the network analysed (p.target) */
    const hd_spec *spec;    /* its arrays and layouts (a C file's) */
    const hd_layout_advice *advice;   /* --layouts, or NULL */
    /* --network all: the plans on each network, by hd_target_kind (p is
     * the e-cube one's copy); NULL otherwise. */
    const hd_plan *networks;
    /* The program in Wu 1984's terms and what his algorithms make of it,
     * on an omega-class network (NULL otherwise, or without statements). */
    const hd_wu_prog *wu;
    const hd_wu_prog_result *wu_result;
} hd_analyze_result;

/* The networks --network all compares, in hd_target_kind's order. */
#define HD_NETWORKS 3

/* The whole answer as one JSON object, newline-terminated, written to out
 * as it is made (the caller checks out for write errors). */
void hd_analyze_json(const hd_analyze_result *res, FILE *out);

/* The whole report for people (malloc'ed; NULL when out of memory). */
char *hd_analyze_report(const hd_analyze_result *res);

#endif
