/*
 * arrays.c — the arrays the doalls use (hd_array) and, once the cube's
 * dimension is known, their distributions.
 */
#include "frontend_internal.h"

#include <stdio.h>

#include <string.h>

int array_of(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->ndecls; k++)
        if (clang_equalCursors(r->decls[k].decl, decl))
            return r->decls[k].index;
    hd_program *p = r->prog;
    hd_array a;
    memset(&a, 0, sizeof a);
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    a.log2_size = 0;
    while (t.kind == CXType_ConstantArray && a.ndims < HD_MAX_DIMS) {
        long long ext = clang_getArraySize(t);
        a.extent[a.ndims++] = ext;
        if (a.log2_size >= 0 && ext > 0 && !(ext & (ext - 1)))
            a.log2_size += __builtin_ctzll((unsigned long long)ext);
        else
            a.log2_size = -1;
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    if (a.ndims == 0 || t.kind == CXType_ConstantArray)
        return -1;
    /* Map pragmas resolve names by scope (maps.c). */
    a.is_global = clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                  CXCursor_TranslationUnit;
    /* The element's type: its size prices the messages (analysis's
     * choice of collectives) for analyze and translate alike. */
    CXType elem = clang_getCursorType(decl);
    while (clang_getCanonicalType(elem).kind == CXType_ConstantArray) {
        if (elem.kind != CXType_ConstantArray)
            elem = clang_getCanonicalType(elem);
        elem = clang_getArrayElementType(elem);
    }
    a.elem_size = clang_Type_getSizeOf(elem);
    if (r->opt->host_code) {
        /* What the code generator declares and where it resets. */
        a.elem_type = type_text(elem);
        a.elem_local_type = type_is_local(elem);
        a.is_const = clang_isConstQualifiedType(elem) ||
                     clang_isConstQualifiedType(clang_getCanonicalType(elem));
        CXCursor def = clang_getCursorDefinition(decl);
        a.has_init = !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(
            clang_Cursor_isNull(def) ? decl : def));
        if (!a.is_global) {
            bool in_main = true;
            unsigned end = (unsigned)declaration_end(r, cursor_end(r, decl, &in_main));
            if (clang_Cursor_getStorageClass(decl) != CX_SC_Static)
                a.decl_end = end;
            else
                a.static_end = end;
        }
    }
    position pos = cursor_pos(r, decl);
    a.name = spelling(decl);
    a.line = pos.line;
    a.col = pos.col;
    hd_xreserve(&p->arrays, &r->arrays_cap, p->narrays + 1, sizeof *p->arrays);
    hd_xreserve(&r->decls, &r->decls_cap, r->ndecls + 1, sizeof *r->decls);
    p->arrays[p->narrays] = a;
    r->decls[r->ndecls].decl = decl;
    r->decls[r->ndecls++].index = p->narrays;
    return p->narrays++;
}

static const pragma *distribution_of(reader *r, const char *name, int *which)
{
    const pragma *found = NULL;
    for (int k = 0; k < r->npragmas; k++) {
        pragma *p = &r->pragmas[k];
        if (p->kind != PRAGMA_DISTRIBUTE)
            continue;
        for (int j = 0; j < p->nnames; j++) {
            if (strcmp(p->names[j], name) != 0)
                continue;
            if (found) {
                /* One array has one distribution: a second is not dropped
                 * without a word. */
                hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                          "'%s' is already named in a distribute pragma (line %d); "
                          "an array has one distribution", name, found->line);
                continue;
            }
            found = p;
            if (which)
                *which = j;
        }
    }
    return found;
}

/* Lee and Aboelaze store an N x N matrix on N = 2^n processors with n
 * even (Section 2, "N = 2^n, and n = 2k"): the skews need exactly 2^(2n)
 * elements, and skew an even n; skew_rot is the extension for any n.
 * Batcher's i XOR j (Batcher 1977, Lee and Aboelaze's reference [1]) is
 * defined on the same N x N matrices, for any n. */
static bool skew_fits(reader *r, hd_array *a, const pragma *d, int which)
{
    int n = r->prog->n;
    const char *name = d->dist == HD_DIST_SKEW ? "skew"
                       : d->dist == HD_DIST_XOR ? "xor" : "skew_rot";
    if (a->log2_size != 2 * n) {
        char has[48] = "a number of elements that is not a power of two";
        if (a->log2_size >= 0)
            snprintf(has, sizeof has, "2^%d", a->log2_size);
        hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                  "'%s' cannot be distributed by %s on the %d-cube: it needs "
                  "exactly 2^%d elements (an N x N matrix for N = 2^%d "
                  "processors, %s), and it has %s",
                  a->name, name, n, 2 * n, n,
                  d->dist == HD_DIST_XOR ? "Batcher 1977's storage, as Lee and Aboelaze cite it"
                                         : "Lee and Aboelaze, Section 2", has);
        return false;
    }
    if (d->dist == HD_DIST_SKEW && n % 2 != 0) {
        hd_report(&r->d, HD_ERROR, d->dist_offset, d->line,
                  "skew needs an even cube dimension (Lee and Aboelaze, "
                  "Section 2: n = 2k), and the cube is the %d-cube; skew_rot "
                  "distributes A(i, j) to rotl(i, %d, %d) XOR j for any n "
                  "(Hyperdo's extension, docs/layouts.md)", n, n / 2, n);
        return false;
    }
    return true;
}

/* HPF's (BLOCK, BLOCK) and (CYCLIC, CYCLIC) (High Performance Fortran
 * Forum 1993) lay out the rows and the columns of T A[R][C] on a
 * Pr x Pc processor grid, Pr = 2^ceil(n/2) and Pc = 2^floor(n/2)
 * (hd_grid_rows_log2): A must be 2-D with power-of-two extents, at least
 * the grid's, or some processor row or column would hold nothing (the
 * slices of equal size cannot express that). */
static bool grid_fits(reader *r, hd_array *a, const pragma *d, int which)
{
    int n = r->prog->n;
    const char *name = hd_dist_name(d->dist);
    const char *hpf = d->dist == HD_DIST_BLOCK_2D ? "(BLOCK, BLOCK)" : "(CYCLIC, CYCLIC)";
    long long pr = 1LL << hd_grid_rows_log2(n), pc = (1LL << n) / pr;
    unsigned at = (unsigned)d->name_cols[which];
    if (a->ndims != 2) {
        hd_report(&r->d, HD_ERROR, at, d->line,
                  "'%s' cannot be distributed by %s: HPF's %s (High Performance Fortran "
                  "Forum 1993) lays out the rows and "
                  "the columns of a 2-D array T %s[R][C], and '%s' has %d dimension%s",
                  a->name, name, hpf, a->name, a->name, a->ndims, a->ndims == 1 ? "" : "s");
        return false;
    }
    long long R = (long long)a->extent[0], C = (long long)a->extent[1];
    if (a->log2_size < 0) {
        hd_report(&r->d, HD_ERROR, at, d->line,
                  "'%s' cannot be distributed by %s: its extents must be powers of "
                  "two, and it is %s[%lld][%lld]", a->name, name, a->name, R, C);
        return false;
    }
    if (R < pr || C < pc) {
        bool rows = R < pr;
        hd_report(&r->d, HD_ERROR, at, d->line,
                  "'%s' cannot be distributed by %s on the %d-cube: its %lld %s %s "
                  "fewer than the %lld %s of the %lld x %lld processor grid (the "
                  "grid's rows take the larger half of the cube's dimensions, "
                  "docs/layouts.md)", a->name, name, n, rows ? R : C,
                  rows ? (R == 1 ? "row" : "rows") : (C == 1 ? "column" : "columns"),
                  (rows ? R : C) == 1 ? "is" : "are", rows ? pr : pc,
                  rows ? "rows" : "columns", pr, pc);
        return false;
    }
    return true;
}

/* Each array's distribution over the 2^n processors (n is known). */
static void distribute_each(reader *r)
{
    hd_program *p = r->prog;
    for (int k = 0; k < p->narrays; k++) {
        hd_array *a = &p->arrays[k];
        int which = 0;
        const pragma *d = distribution_of(r, a->name, &which);
        if (!d) {
            /* A const array is never written: every processor reads its own
             * copy (the host could not take elements back into it). */
            a->dist = a->log2_size == p->n && !a->is_const ? HD_DIST_EXACT : HD_DIST_NONE;
            continue;
        }
        if (a->is_const) {
            hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                   "'%s' is const: it is never written, so it is not distributed "
                   "(every processor reads its own copy); leave it out of distribute",
                   a->name);
            a->dist_refused = true;
            continue;
        }
        if (d->dist == HD_DIST_BLOCK_2D || d->dist == HD_DIST_CYCLIC_2D) {
            if (!grid_fits(r, a, d, which)) {
                a->dist_refused = true;
                continue;
            }
            hd_array_set_dist(a, p->n, d->dist, 0);
            continue;
        }
        if (d->dist == HD_DIST_SKEW || d->dist == HD_DIST_SKEW_ROT ||
            d->dist == HD_DIST_XOR) {
            if (!skew_fits(r, a, d, which)) {
                a->dist_refused = true;
                continue;
            }
            hd_array_set_dist(a, p->n, d->dist, 0);
            continue;
        }
        int block_log2 = d->dist == HD_DIST_BLOCK_CYCLIC
                         ? __builtin_ctzll((unsigned long long)d->value) : 0;
        if (a->log2_size < 0 || a->log2_size < p->n) {
            hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                   "'%s' cannot be distributed this way: it needs a power-of-two "
                   "number of elements, at least 2^%d", a->name, p->n);
            a->dist_refused = true;
            continue;
        }
        if (a->log2_size < p->n + block_log2) {
            /* Blocks of b over 2^n processors need b 2^n elements: with
             * fewer, some processors would hold none, which the slices of
             * equal size cannot express.  Smaller blocks give the same
             * results (a layout never changes what the program computes). */
            hd_report(&r->d, HD_WARNING, (unsigned)d->name_cols[which], d->line,
                   "'%s' has %lld elements: blocks of %lld would leave processors of "
                   "the %d-cube without any, so it is distributed in blocks of %lld "
                   "(the block layout)", a->name, 1LL << a->log2_size, (long long)d->value,
                   p->n, 1LL << (a->log2_size - p->n));
            block_log2 = a->log2_size - p->n;
        }
        hd_array_set_dist(a, p->n, d->dist, block_log2);
    }
}

/* Every name in a distribute pragma must be an array the loops use; not
 * said when a loop was rejected, whose arrays are not all known. */
static void check_distributed_names(reader *r)
{
    hd_program *p = r->prog;
    if (r->rejected)
        return;
    for (int k = 0; k < r->npragmas; k++) {
        pragma *d = &r->pragmas[k];
        for (int j = 0; d->kind == PRAGMA_DISTRIBUTE && j < d->nnames; j++) {
            bool found = false;
            for (int a = 0; a < p->narrays && !found; a++)
                found = strcmp(p->arrays[a].name, d->names[j]) == 0;
            if (!found)
                hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[j], d->line,
                       "'%s' in distribute is not an array used in a doall "
                       "loop of this file", d->names[j]);
        }
    }
}

void distribute_arrays(reader *r)
{
    distribute_each(r);
    check_distributed_names(r);
}

/* The distributed array a cursor declares, or -1. */
int distributed_array(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->ndecls; k++)
        if (clang_equalCursors(r->decls[k].decl, decl))
            return r->prog->arrays[r->decls[k].index].dist != HD_DIST_NONE
                   ? r->decls[k].index : -1;
    return -1;
}
