/*
 * codegen.h — Hyperdo's code generator: from an annotated C program (the
 * model's hd_program, read with hd_c_options.host_code) to the SPMD C
 * program that runs it on 2^n processors through hyperdo.h.
 *
 * The shape of the output is Fig. 1d of Hou et al. 2001: every doall becomes a
 * node function that each processor runs on the iterations it owns
 * (owner computes), with v_get_pid() and batched v_send/v_receive
 * (hd_exchange), and the mapping tables to_virtual[] / to_physical[]
 * computed here from the Section 5 optimizer.  The rest of the program is
 * kept as written and runs on the host, processor 0; docs/codegen.md
 * walks through one example line by line.
 */
#ifndef HYPERDO_CODEGEN_H
#define HYPERDO_CODEGEN_H

#include <stddef.h>

#include "analysis.h"
#include "model.h"

typedef enum {
    HD_MAPPING_OPTIMAL,    /* the Section 5 DP over all LCCs of the file */
    HD_MAPPING_IDENTITY,   /* virtual processor v on physical processor v */
} hd_mapping;

typedef struct {
    hd_mapping mapping;
    hd_objective objective;
    const char *out_path;  /* the output's name, for its own #line
                            * directives; NULL: none */
} hd_codegen_options;

/* What the generator decided, for reports and tests. */
typedef struct {
    hd_order order;        /* physical = Q virtual (analysis.h) */
    int nlccs;             /* LCC references of the file */
    uint64_t worst_before; /* the largest contention degree of any of them */
    uint64_t worst_after;  /* the same under the mapping */
} hd_codegen_summary;

/*
 * Writes the SPMD program for `prog`, whose source text (the bytes the
 * front end read) is src[0..len).  On success returns 0 and sets *out (a
 * malloc'ed, NUL-terminated string of *out_len bytes; the caller frees
 * it).  Otherwise returns the number of errors and leaves *out NULL.
 * Diagnostics, in the compilers' format (path:line:col: error: ..., the
 * source line and a caret), are appended to *diagnostics (malloc'ed, NULL
 * when there is nothing to say; the caller frees it).
 */
int hd_codegen(const hd_program *prog, const char *src, size_t len,
               const hd_codegen_options *opt, char **out, size_t *out_len,
               hd_codegen_summary *summary, char **diagnostics);

#endif
