/*
 * arrays.c — the arrays the doalls use (hd_array) and, once the cube's
 * dimension is known, their distributions.
 */
#include "frontend_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Do two cursors declare the same array?  In a program of several
 * files a header's `extern` declaration and the file's definition are
 * one array (the canonical declaration says); a file alone compares the
 * declarations references name. */
static bool same_declaration(const reader *r, CXCursor a, CXCursor b)
{
    if (r->files)
        return clang_equalCursors(clang_getCanonicalCursor(a), clang_getCanonicalCursor(b));
    return clang_equalCursors(a, b);
}

static void add_extent(hd_array *a, long long ext)
{
    a->extent[a->ndims++] = ext;
    if (a->log2_size >= 0 && ext > 0 && !(ext & (ext - 1)))
        a->log2_size += __builtin_ctzll((unsigned long long)ext);
    else
        a->log2_size = -1;
}

static bool is_array_kind(enum CXTypeKind k)
{
    return k == CXType_ConstantArray || k == CXType_IncompleteArray;
}

int array_of(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->ndecls; k++)
        if (same_declaration(r, r->decls[k].decl, decl))
            return r->decls[k].index;
    hd_program *p = r->prog;
    hd_array a;
    memset(&a, 0, sizeof a);
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    a.log2_size = 0;
    if (t.kind == CXType_IncompleteArray) {
        /* extern double x[]; in a program of several files: the extent
         * comes from a declaration of another file that gives it. */
        long long outer;
        if (!extent_elsewhere(r, decl, &outer))
            return -1;
        add_extent(&a, outer);
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    while (t.kind == CXType_ConstantArray && a.ndims < HD_MAX_DIMS) {
        add_extent(&a, clang_getArraySize(t));
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    if (a.ndims == 0 || is_array_kind(t.kind))
        return -1;
    a.size = 1;
    for (int d = 0; d < a.ndims; d++)
        a.size = a.extent[d] > 0 && a.size <= INT64_MAX / a.extent[d] ? a.size * a.extent[d]
                                                                       : -1;
    a.table = -1;
    /* Map pragmas resolve names by scope (maps.c). */
    a.is_global = clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                  CXCursor_TranslationUnit;
    a.external = a.is_global && clang_getCursorLinkage(decl) == CXLinkage_External;
    /* The element's type: its size prices the messages (analysis's
     * choice of collectives) for analyze and translate alike. */
    CXType elem = clang_getCursorType(decl);
    while (is_array_kind(clang_getCanonicalType(elem).kind)) {
        if (!is_array_kind(elem.kind))
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

/* ------------------------------------------------------ owner tables */

typedef struct {
    const char *name;
    CXCursor found;
} find_var;

static enum CXChildVisitResult file_scope_var(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    find_var *f = data;
    if (clang_getCursorKind(c) == CXCursor_VarDecl) {
        CXString s = clang_getCursorSpelling(c);
        if (strcmp(clang_getCString(s), f->name) == 0) {
            CXCursor def = clang_getCursorDefinition(c);
            f->found = clang_Cursor_isNull(def) ? c : def;
        }
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

/* The owners T's initializer gives, each checked to name a processor of
 * the n-cube when clang can evaluate it (the run time checks them all
 * again: hd_run_tables). */
static void check_owner_values(reader *r, CXCursor var, const pragma *d, int64_t size)
{
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    if (clang_Cursor_isNull(init) || clang_getCursorKind(init) != CXCursor_InitListExpr)
        return;
    int at = record_tree(r, init);
    if (at < 0)
        return;
    int64_t e = 0;
    for (int x = extent_of(r, at)->first; x >= 0 && e < size; x = extent_of(r, x)->next, e++) {
        long long v;
        if (!evaluate(cursor_of(r, x), &v))
            continue;
        if (v < 0 || v >= (1LL << r->prog->n)) {
            position pos = cursor_pos(r, cursor_of(r, x));
            hd_report(&r->d, HD_ERROR, pos.in_main ? pos.offset : d->table_at,
                      pos.in_main ? pos.line : d->line,
                      "element %lld of the owner table '%s' is %lld, not a processor of "
                      "the %d-cube (0 to %lld)", (long long)e, d->table, v, r->prog->n,
                      (1LL << r->prog->n) - 1);
            return;
        }
    }
}

/* T of table(T): a const int array declared at file scope. */
static bool owner_array(reader *r, const pragma *d, hd_owner_table *t)
{
    find_var f = { d->table, clang_getNullCursor() };
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), file_scope_var, &f);
    if (clang_Cursor_isNull(f.found)) {
        hd_report(&r->d, HD_ERROR, d->table_at, d->line,
                  "'%s' in table(%s) is not an array declared at file scope: the owner "
                  "table is a 'const int %s[N]' of this file (or a mapping file's name in "
                  "double quotes)", d->table, d->table, d->table);
        return false;
    }
    CXType ty = clang_getCanonicalType(clang_getCursorType(f.found));
    CXType elem = ty.kind == CXType_ConstantArray
                  ? clang_getCanonicalType(clang_getArrayElementType(ty)) : ty;
    /* clang puts the const of `const int T[N]` on the array type or on
     * its elements, depending on how the type was spelt. */
    if (ty.kind != CXType_ConstantArray || elem.kind != CXType_Int ||
        !(clang_isConstQualifiedType(elem) || clang_isConstQualifiedType(ty) ||
          clang_isConstQualifiedType(clang_getArrayElementType(clang_getCursorType(f.found))))) {
        hd_report(&r->d, HD_ERROR, d->table_at, d->line,
                  "the owner table '%s' must be a one-dimensional 'const int' array of "
                  "constant size (every processor reads its own copy)", d->table);
        return false;
    }
    t->size = clang_getArraySize(ty);
    t->line = d->line;
    check_owner_values(r, f.found, d, t->size);
    return true;
}

/* "FILE" of table("FILE"): read now, relative to the input's directory
 * (as #include "..." finds files), and written into the program. */
static bool owner_file(reader *r, const pragma *d, hd_owner_table *t)
{
    const char *slash = strrchr(r->path, '/');
    bool relative = d->table[0] != '/' && slash && strcmp(r->path, "<stdin>") != 0;
    size_t dir = relative ? (size_t)(slash - r->path) + 1 : 0;
    t->path = hd_xmalloc(dir + strlen(d->table) + 1);
    memcpy(t->path, r->path, dir);
    strcpy(t->path + dir, d->table);
    hd_diag err;
    int rc = hd_read_partition(t->path, -1, (1 << r->prog->n) - 1, &t->owner, &t->size, &err);
    if (rc != HD_SPEC_OK) {
        if (err.line > 0)
            hd_report(&r->d, HD_ERROR, d->table_at, d->line, "the mapping file '%s', line "
                      "%d: %s", t->path, err.line, err.message);
        else
            hd_report(&r->d, HD_ERROR, d->table_at, d->line, "cannot read the mapping file: "
                      "%s", err.message);
        return false;
    }
    t->line = d->line;
    return true;
}

/* The owner table of distribute pragma d, read once however many arrays
 * it names; -1, said, when it is no table. */
static int owner_table(reader *r, const pragma *d)
{
    hd_program *p = r->prog;
    for (int k = 0; k < p->ntables; k++)
        if (p->tables[k].from_file == d->table_file && strcmp(p->tables[k].name, d->table) == 0)
            return p->tables[k].size >= 0 ? k : -1;
    hd_owner_table t;
    memset(&t, 0, sizeof t);
    t.name = hd_xstrdup(d->table);
    t.from_file = d->table_file;
    bool ok = t.from_file ? owner_file(r, d, &t) : owner_array(r, d, &t);
    if (!ok)
        t.size = -1;   /* said once, not again for the next array */
    p->tables = hd_xrealloc(p->tables, (size_t)(p->ntables + 1) * sizeof *p->tables);
    p->tables[p->ntables++] = t;
    return ok ? p->ntables - 1 : -1;
}

/* distribute(a : table(T)): any number of elements, as many as T has. */
static bool table_fits(reader *r, hd_array *a, const pragma *d, int which)
{
    int t = owner_table(r, d);
    if (t < 0)
        return false;
    const hd_owner_table *ot = &r->prog->tables[t];
    if (a->size != ot->size) {
        hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                  "'%s' has %lld elements and the owner table %s%s%s has %lld: a table "
                  "names the owner of every element", a->name, (long long)a->size,
                  ot->from_file ? "\"" : "'", ot->name, ot->from_file ? "\"" : "'",
                  (long long)ot->size);
        return false;
    }
    a->table = t;
    return true;
}

/* Is the array called `name` distributed by a table (named in a
 * distribute pragma with table(T))?  Said nothing: distribution_of says
 * what is wrong with the pragmas. */
static bool named_by_table(reader *r, const char *name)
{
    for (int k = 0; k < r->npragmas; k++) {
        const pragma *d = &r->pragmas[k];
        for (int j = 0; d->kind == PRAGMA_DISTRIBUTE && j < d->nnames; j++)
            if (strcmp(d->names[j], name) == 0)
                return d->dist == HD_DIST_TABLE;
    }
    return false;
}

/* Do only doalls over a table (whose home is distributed by one) use
 * array arr?  Then 2^n elements do not make it exact: such a doall reads
 * replicated arrays and those of a table, and an index list or a degree
 * array of 2^n nodes is data every processor reads. */
static bool only_over_tables(reader *r, int arr)
{
    const hd_program *p = r->prog;
    bool used = false;
    for (int k = 0; k < p->nloops; k++) {
        const hd_loop *l = &p->loops[k];
        if (!hd_loop_uses(l, arr, false) && !hd_loop_uses(l, arr, true))
            continue;
        used = true;
        if (l->home < 0 || !named_by_table(r, p->arrays[l->refs[l->home].array].name))
            return false;
    }
    return used;
}

/* Array a's distribution by pragma d (which: the place of its name
 * there), or dist_refused with the reason said. */
static void distribute_by(reader *r, hd_array *a, const pragma *d, int which)
{
    hd_program *p = r->prog;
    if (a->is_const) {
        hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
               "'%s' is const: it is never written, so it is not distributed "
               "(every processor reads its own copy); leave it out of distribute",
               a->name);
        a->dist_refused = true;
        return;
    }
    if (d->dist == HD_DIST_TABLE) {
        if (!table_fits(r, a, d, which)) {
            a->dist_refused = true;
            return;
        }
        hd_array_set_dist(a, p->n, d->dist, 0);
        return;
    }
    if (d->dist == HD_DIST_BLOCK_2D || d->dist == HD_DIST_CYCLIC_2D) {
        if (!grid_fits(r, a, d, which)) {
            a->dist_refused = true;
            return;
        }
        hd_array_set_dist(a, p->n, d->dist, 0);
        return;
    }
    if (d->dist == HD_DIST_SKEW || d->dist == HD_DIST_SKEW_ROT ||
        d->dist == HD_DIST_XOR) {
        if (!skew_fits(r, a, d, which)) {
            a->dist_refused = true;
            return;
        }
        hd_array_set_dist(a, p->n, d->dist, 0);
        return;
    }
    int block_log2 = d->dist == HD_DIST_BLOCK_CYCLIC
                     ? __builtin_ctzll((unsigned long long)d->value) : 0;
    if (a->log2_size < 0 || a->log2_size < p->n) {
        hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
               "'%s' cannot be distributed this way: it needs a power-of-two "
               "number of elements, at least 2^%d", a->name, p->n);
        a->dist_refused = true;
        return;
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

/* Each array's distribution over the 2^n processors (n is known). */
static void distribute_each(reader *r)
{
    hd_program *p = r->prog;
    for (int k = 0; k < p->narrays; k++) {
        hd_array *a = &p->arrays[k];
        int which = 0;
        const pragma *d = distribution_of(r, a->name, &which);
        if (!d && a->external)
            d = distribution_elsewhere(r, a->name, &which);
        if (!d) {
            /* A const array is never written: every processor reads its own
             * copy (the host could not take elements back into it). */
            a->dist = a->log2_size == p->n && !a->is_const && !only_over_tables(r, k)
                      ? HD_DIST_EXACT : HD_DIST_NONE;
            continue;
        }
        if (r->files && d->dist == HD_DIST_TABLE) {
            a->dist_refused = true;   /* refused in a program of files (files.c) */
            continue;
        }
        if (d >= r->pragmas && d < r->pragmas + r->npragmas) {
            distribute_by(r, a, d, which);
            continue;
        }
        /* Another file's pragma: the file that holds it says what is
         * wrong with it, at its line; here it is applied without a word
         * (the arrays agree: files.c). */
        hd_diags own = r->d;
        hd_diags_init(&r->d, r->path);
        distribute_by(r, a, d, which);
        hd_diags_free(&r->d);
        r->d = own;
    }
}

/* Every name in a distribute pragma must be an array the loops use; not
 * said when a loop was rejected, whose arrays are not all known.  In a
 * program of several files, the loops of any file, the array declared in
 * the pragma's (files.c brought it into this file's arrays). */
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
            if (found)
                continue;
            if (!r->files)
                hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[j], d->line,
                       "'%s' in distribute is not an array used in a doall "
                       "loop of this file", d->names[j]);
            else if (used_elsewhere(r, d->names[j]))
                hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[j], d->line,
                       "'%s' in distribute is not declared in this file: a distribute "
                       "pragma stands in a file that declares the array", d->names[j]);
            else
                hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[j], d->line,
                       "'%s' in distribute is not an array used in a doall "
                       "loop of the program", d->names[j]);
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
        if (same_declaration(r, r->decls[k].decl, decl))
            return r->prog->arrays[r->decls[k].index].dist != HD_DIST_NONE
                   ? r->decls[k].index : -1;
    return -1;
}
