/*
 * frontend.h — Hyperdo's front end: the readers that turn a program's
 * description into the set of linear-complement communications (LCCs) the
 * analysis stage (analysis.h) works on.
 *
 * Two readers: the line-oriented LCC spec format below, and the C reader
 * (libclang) for programs annotated with `#pragma hyperdo` (the language is
 * in docs/annotations.md), which builds an hd_program and, from it, the
 * same hd_spec.
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
 * (Definitions 1-3 of Hou et al. 2001); a scatter sends to each destination y from
 * x = A y + b (Definition 4).  `perm` means row i of A has its 1 in column
 * P_i, i.e. y_i = x_{P_i} for a gather.  `matrix` rows are written as the
 * paper prints them: character j of ROW_i is a_ij.  Character i of BITS is
 * b_i; b defaults to zero.
 */
#ifndef HYPERDO_FRONTEND_H
#define HYPERDO_FRONTEND_H

#include <stdio.h>

#include "model.h"

/* A diagnostic.  line >= 1 places it in the input (print it as
 * "path:line: error: message"); line 0 means the input as a whole could not
 * be read (print "hyperdo: error: message"; the message names the path).
 * path is borrowed from the caller of the reader, never freed. */
typedef struct {
    const char *path;
    int line;
    char message[256];
} hd_diag;

/* Reads a whole spec from `in`.  `path` names the input in diagnostics (the
 * caller's, kept by reference in err->path).  On success fills *out, which
 * the caller releases with hd_spec_free; on failure *out is left empty (no
 * need to free it, though doing so is harmless) and *err says why. */
int hd_spec_read(FILE *in, const char *path, hd_spec *out, hd_diag *err);

/* The same from a string (handy for unit tests). */
int hd_spec_parse_string(const char *text, const char *path, hd_spec *out,
                         hd_diag *err);

/* ------------------------------------------------- meshes and graphs */

/* What a mesh or graph file gives: the mesh when it is one (has_mesh),
 * and its NB and ADJ graphs (for a graph file, the graph itself, both). */
typedef struct {
    bool has_mesh;
    hd_mesh mesh;
    hd_graph nb, adj;
} hd_mesh_input;

/* Reads path (mesh_read.c): Gmsh MSH 2.2 or 4.1 ASCII (.msh: triangles,
 * quads, tetrahedra, hexahedra; other elements are skipped), a METIS mesh
 * (.mesh), a METIS or Chaco graph (.graph, .chaco, .metis), a Matrix
 * Market coordinate pattern (.mtx).  Returns HD_SPEC_OK, or
 * HD_SPEC_ESYNTAX / EIO / ENOMEM with err saying where and why (printed
 * "path:line: error: message"); *out needs hd_mesh_input_free either way. */
int hd_read_mesh_file(const char *path, hd_mesh_input *out, hd_diag *err);
void hd_mesh_input_free(hd_mesh_input *in);

/* Reads a mapping file (partition.c): METIS's partition format, line v + 1
 * the processor of element v, each from 0 to max_proc.  expect >= 0: the
 * file must have exactly that many lines.  Returns HD_SPEC_OK with *out
 * (malloc'd, *count entries), or HD_SPEC_ESYNTAX / EIO / ENOMEM with err
 * as hd_read_mesh_file's. */
int hd_read_partition(const char *path, int64_t expect, int max_proc, int **out, int64_t *count,
                      hd_diag *err);

/* ------------------------------------------------------------------ C */

typedef struct {
    int dim;                /* --dim, or 0 */
    int nargs;              /* extra compiler arguments */
    const char *const *args;
    const char *build_dir;  /* -p: where compile_commands.json is, or NULL */
    const char *include_dir; /* holds hyperdo/bits.h; added as -I, or NULL */
    bool host_code;         /* also read what the code generator needs of
                             * the sequential code (hd_program.uses, main) */
} hd_c_options;

/* Reads an annotated C file into the model: its doall loops, their
 * references and index expressions, the arrays' layouts and (with
 * host_code) what the code generator needs of the sequential code.  What
 * the loops communicate is the analysis's to find (hd_analyse_program, run
 * next with the same sink, so that all diagnostics print in source order).
 * Initialises *d and reports into it, formatted as the compilers do
 * (file:line:col: error: ..., the source line and a caret); the caller
 * releases it with hd_diags_free.  *out always holds a program to release
 * with hd_program_free: the loops read without errors, none when the file
 * could not be parsed.  Returns the number of errors. */
int hd_c_read(const char *path, const hd_c_options *opt, hd_program *out, hd_diags *d);

/* Reads the nfiles annotated C files of one program together
 * (docs/annotations.md, "Programs of several files"): progs[k] and d[k]
 * as hd_c_read fills them for paths[k], each file's diagnostics in its
 * own sink (those about the program as a whole in d[0]).  What the files
 * share agrees in all of them: the cube and the network, the extents and
 * the distributions of the arrays declared without static in several
 * files (each file has among its arrays those it declares that any doall
 * uses), and whether such an array escapes on the host; with host_code,
 * exactly one file defines main.  Returns the number of errors of all. */
int hd_c_read_files(const char *const *paths, int nfiles, const hd_c_options *opt,
                    hd_program *progs, hd_diags *d);
#endif
