/*
 * frontend.h — Hyperdo's front end: the readers that turn a program's
 * description into the set of linear-complement communications (LCCs) the
 * analysis stage (analysis.h) works on.
 *
 * Today there is one reader, for the line-oriented LCC spec format below;
 * the C reader (libclang) will be declared here too and fill the same
 * hd_spec.
 *
 * The spec format (one directive a line, tokens separated by spaces or
 * tabs, '#' starts a comment anywhere, blank lines and CRLF endings are
 * fine):
 *
 *     n 8
 *     lcc transpose perm 4 5 6 7 0 1 2 3
 *     lcc revflip perm 7 6 5 4 3 2 1 0 b 11111111
 *     lcc scale scatter matrix 01000000 00100000 ... 00000000
 *
 * `n N` (1 <= N <= HD_MAX_DIM) comes once, before any lcc.  An lcc line is
 *     lcc NAME [gather|scatter] perm P_0 .. P_{n-1} [b BITS]
 *     lcc NAME [gather|scatter] matrix ROW_0 .. ROW_{n-1} [b BITS]
 * NAME matches [A-Za-z_][A-Za-z0-9_.-]* and is unique.  A gather (the
 * default, also every permutation) sends from each source x to y = A x + b
 * (Definitions 1-3 of seed 000); a scatter sends to each destination y from
 * x = A y + b (Definition 4).  `perm` means row i of A has its 1 in column
 * P_i, i.e. y_i = x_{P_i} for a gather.  `matrix` rows are written as the
 * paper prints them: character j of ROW_i is a_ij.  Character i of BITS is
 * b_i; b defaults to zero.
 */
#ifndef HYPERDO_FRONTEND_H
#define HYPERDO_FRONTEND_H

#include <stdio.h>

#include "analysis.h"

/* A diagnostic.  line >= 1 places it in the input (print it as
 * "path:line: error: message"); line 0 means the input as a whole could not
 * be read (print "hyperdo: error: message"; the message names the path).
 * path is borrowed from the caller of the reader, never freed. */
typedef struct {
    const char *path;
    int line;
    char message[256];
} hd_diag;

typedef struct {
    char *name;   /* owned by the hd_spec */
    int line;     /* of its lcc directive, 1-based */
    hd_lcc lcc;   /* lcc.A.n == the spec's n */
} hd_named_lcc;

/* The LCCs of one input, in input order.  Owns everything it points to. */
typedef struct {
    int n;           /* hypercube dimension */
    int n_line;      /* line of the `n` directive */
    int m;           /* number of LCCs, >= 1 after a successful read */
    hd_named_lcc *lccs;
} hd_spec;

/* Status of the readers. */
enum {
    HD_SPEC_OK = 0,
    HD_SPEC_ESYNTAX = 1,   /* the input is malformed: err has the line */
    HD_SPEC_EIO = 2,       /* reading failed: err->line is 0 */
    HD_SPEC_ENOMEM = 3,    /* out of memory: err->line is 0 */
};

/* Reads a whole spec from `in`.  `path` names the input in diagnostics (the
 * caller's, kept by reference in err->path).  On success fills *out, which
 * the caller releases with hd_spec_free; on failure *out is left empty (no
 * need to free it, though doing so is harmless) and *err says why. */
int hd_spec_read(FILE *in, const char *path, hd_spec *out, hd_diag *err);

/* The same from a string (handy for unit tests). */
int hd_spec_parse_string(const char *text, const char *path, hd_spec *out,
                         hd_diag *err);

/* Frees what a successful read put in *spec and empties it. */
void hd_spec_free(hd_spec *spec);

#endif
