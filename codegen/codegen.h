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

/*
 * A file of a program of several files (translate a.c b.c -o DIR;
 * docs/codegen.md, "Programs of several files"): hd_codegen writes one
 * file at a time, each from its own model, analysis and view of the plan
 * (its communications), and must know the others: the runtime's arrays
 * are numbered for the whole program (an array declared without static
 * in several files is one), the doalls too (their node functions are
 * hd_node_<number>, without static), and the file that defines main
 * writes the program's tables and the real main.
 */
typedef struct {
    int nunits;                /* the files, in the order given */
    int unit;                  /* the one being written */
    int main_unit;             /* the one that defines main */
    const hd_program *progs;   /* every file's model */
    const int *const *array_id; /* per file, per array of its model: the
                                * runtime's array, or -1 */
    const int *loop_base;      /* per file: the number of its first doall */
    int ndist;                 /* the runtime's arrays */
    int nloops;                /* the doalls of all files */
} hd_codegen_files;

typedef struct {
    hd_mapping_choice mapping;  /* what translate was asked for (--mapping, */
    hd_objective objective;     /* --objective): the plan's choices */
    const char *out_path;  /* the output's name, for its own #line
                            * directives; NULL: none */
    const char *maps_note; /* what the translator decided about data
                            * mappings (translate --maps wu), a sentence
                            * for the header; NULL: nothing */
    const hd_codegen_files *files; /* NULL: a program of one file */
} hd_codegen_options;

/*
 * Writes the SPMD program for `prog`, whose source text (the bytes the
 * front end read) is src[0..len), from what the analysis found of it
 * (`results`: its references' index maps and communications) and the
 * mapping and contention of `plan` (analysis.h; built from
 * hd_program_spec(prog, results); NULL only when
 * prog->n is outside 1 .. HD_CODEGEN_MAX_DIM, which is then reported).  On
 * success returns 0 and sets *out (a malloc'ed, NUL-terminated string of
 * *out_len bytes; the caller frees it).  Otherwise returns the number of
 * errors and leaves *out NULL.  Diagnostics, in the compilers' format
 * (path:line:col: error: ..., the source line and a caret), are appended
 * to *diagnostics (malloc'ed, NULL when there is nothing to say; the
 * caller frees it).
 */
int hd_codegen(const hd_program *prog, const hd_analysis *results, const hd_plan *plan,
               const char *src, size_t len,
               const hd_codegen_options *opt, char **out, size_t *out_len,
               char **diagnostics);

#endif
