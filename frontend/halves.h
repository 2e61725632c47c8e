/*
 * halves.h — splitting a C file into two halves that clang can parse at
 * the same time (internal to the front end; docs/frontend-performance.md).
 *
 * libclang's parse of a file full of doall loops takes as long as all of
 * `clang -fsyntax-only`, and it runs on one thread.  The C reader can
 * instead parse two copies of the file at once: in each copy the function
 * bodies that belong to the other half are blanked (each `{...}` becomes
 * a `;` and spaces, newlines kept), so every offset, line and column is
 * that of the file, every file-scope declaration is in both, and each
 * doall loop is in exactly one.
 *
 * The plan is made from the text alone, by a scan that reads it as
 * translation phases 1-3 do (line splices, every kind of line end, comments,
 * strings, character constants, directive lines), and refuses any file it
 * cannot split safely without a parse (docs/frontend-performance.md lists
 * what).  The reader then checks what only clang's cursors tell (cfront.c,
 * halves_agree): that clang's function bodies are the plan's, that both
 * halves declare the same at file scope, that no body declares anything
 * with linkage, and more; otherwise it parses the file whole.
 */
#ifndef HYPERDO_HALVES_H
#define HYPERDO_HALVES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t begin, end;  /* the body's `{` and just after its `}` */
    bool doall;         /* it holds a `#pragma hyperdo` line */
    int half;           /* 0 or 1: kept only there; -1: kept in both */
} hd_body;

typedef struct {
    int nbodies;
    hd_body *bodies;    /* every function body, in file order */
    const char *why;    /* when no plan was made: the reason */
} hd_halves;

/* Finds the function bodies and gives those with doall pragmas to two
 * halves of about equal size, in file order: the first half's bodies all
 * come before the second's.  Bodies without a doall stay in both halves.
 * False, with out->why set, when the file cannot be split this way or
 * has fewer than two bodies with doalls. */
bool hd_halves_plan(const char *src, size_t len, hd_halves *out);

/* A malloc'ed copy of src, len bytes and a NUL, in which the bodies of
 * the other half than `half` are blanked; NULL when out of memory. */
char *hd_halves_text(const char *src, size_t len, const hd_halves *plan,
                     int half);

/* The function body holding offset, or NULL. */
const hd_body *hd_halves_body_at(const hd_halves *plan, size_t offset);

void hd_halves_free(hd_halves *plan);

#endif
