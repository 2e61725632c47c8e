/*
 * arrays.c — the arrays the doalls use (hd_array): arrays of constant
 * size, and pointers that a distribute pragma names with their extent
 * (docs/annotations.md, "Pointers and the heap"); and, once the cube's
 * dimension is known, their distributions: GF(2) layouts, tables, and
 * spreads of any extent (HPF's BLOCK and CYCLIC, "Arrays of any
 * extent").
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

/* ------------------------------------------------------- pointer arrays */

typedef struct {
    unsigned offset;
    unsigned found;        /* where the function holding it starts; 0: none */
} function_at_query;

static enum CXChildVisitResult find_function(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    function_at_query *q = data;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    CXSourceRange ext = clang_getCursorExtent(c);
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e);
    if (q->offset > b && q->offset < e)
        q->found = b;
    return CXChildVisit_Continue;
}

unsigned function_at(reader *r, unsigned offset)
{
    function_at_query q = { offset, 0 };
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), find_function, &q);
    return q.found;
}

/* The distribute pragma with extent(...) that names pointer `name` in its
 * scope: one inside the function that starts at `scope` (its parameters
 * and locals), or at file scope for a pointer declared there (scope 0);
 * NULL when none does.  *which is the name's place in it. */
static const pragma *pointer_pragma(reader *r, const char *name, unsigned scope, int *which)
{
    for (int k = 0; k < r->npragmas; k++) {
        const pragma *d = &r->pragmas[k];
        if (d->kind != PRAGMA_DISTRIBUTE || !d->extent)
            continue;
        for (int j = 0; j < d->nnames; j++)
            if (strcmp(d->names[j], name) == 0 && function_at(r, d->offset) == scope) {
                *which = j;
                return d;
            }
    }
    return NULL;
}

/*
 * A pointer to the elements of an array (a parameter, or a variable set
 * from malloc), which a distribute pragma with extent(E) names in its
 * scope: a one-dimensional array of a number of elements known at run
 * time, E (docs/annotations.md, "Pointers and the heap"); -1 when it is
 * none (the reference is then an error, said by the caller).  Its
 * elements are the host's, so it escapes: it is sent before and brought
 * back after every doall that uses it.
 */
static int pointer_array(reader *r, CXCursor decl)
{
    /* As written (its typedef names kept); a parameter written as an
     * array (double x[], double x[16]) is a pointer to its elements. */
    CXType written = clang_getCursorType(decl);
    CXType elem = clang_getPointeeType(written);
    if (elem.kind == CXType_Invalid)
        elem = clang_getArrayElementType(written);
    if (elem.kind == CXType_Invalid)
        elem = clang_getPointeeType(clang_getCanonicalType(written));
    CXType canon = clang_getCanonicalType(elem);
    if (canon.kind == CXType_Pointer || canon.kind == CXType_ConstantArray ||
        canon.kind == CXType_IncompleteArray || canon.kind == CXType_VariableArray ||
        canon.kind == CXType_FunctionProto || canon.kind == CXType_FunctionNoProto ||
        canon.kind == CXType_Void || clang_Type_getSizeOf(elem) <= 0)
        return -1;
    bool global = clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                  CXCursor_TranslationUnit;
    position pos = cursor_pos(r, decl);
    unsigned scope = global ? 0 : function_at(r, pos.offset);
    char *name = spelling(decl);
    int which = 0;
    if (!pointer_pragma(r, name, scope, &which)) {
        free(name);
        return -1;
    }
    hd_program *p = r->prog;
    hd_array a;
    memset(&a, 0, sizeof a);
    a.name = name;
    a.line = pos.line;
    a.col = pos.col;
    a.ndims = 1;
    a.log2_size = -1;
    a.size = 0;
    a.table = -1;
    a.pointer = true;
    a.is_global = global;
    a.host_escapes = true;
    a.elem_size = clang_Type_getSizeOf(elem);
    if (r->opt->host_code) {
        a.elem_type = type_text(elem);
        a.elem_local_type = type_is_local(elem);
        /* const elements are read only here: still distributed. */
        a.is_const = false;
    }
    hd_xreserve(&p->arrays, &r->arrays_cap, p->narrays + 1, sizeof *p->arrays);
    hd_xreserve(&r->decls, &r->decls_cap, r->ndecls + 1, sizeof *r->decls);
    p->arrays[p->narrays] = a;
    r->decls[r->ndecls].decl = decl;
    r->decls[r->ndecls++].index = p->narrays;
    return p->narrays++;
}

/* A parameter declared as an array (double x[], double x[16]): C
 * makes it a pointer, to whatever the caller passes, which libclang
 * still types as an array. */
static bool is_parameter_array(CXCursor decl, CXType canonical)
{
    return clang_getCursorKind(decl) == CXCursor_ParmDecl &&
           (canonical.kind == CXType_ConstantArray || canonical.kind == CXType_IncompleteArray ||
            canonical.kind == CXType_VariableArray);
}

bool pointer_declaration(CXCursor decl)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    return t.kind == CXType_Pointer || is_parameter_array(decl, t);
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
    if (t.kind == CXType_Pointer || is_parameter_array(decl, t))
        return pointer_array(r, decl);
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
        /* extent(...) names pointers, found in their scope (pointer_pragma). */
        if (p->kind != PRAGMA_DISTRIBUTE || p->extent)
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
                  "two, and it is %s[%lld][%lld] (the 1-D '%s' spreads its "
                  "flattened elements, any number of them)", a->name, name, a->name, R, C,
                  d->dist == HD_DIST_BLOCK_2D ? "block" : "cyclic");
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

/* ------------------------------------------ spreads: arrays of any extent */

/* The spread `kind` (block b as the runtime takes it: 0, 1 or B) of N
 * elements, or of extent E in scope (N known at run time), as an owner
 * table: arrays of one kind and size share it, so that their elements of
 * one index are on one processor (a read at i in a doall that writes
 * another at i is local). */
static int spread_table(reader *r, hd_dist_kind kind, int64_t block, int64_t N,
                        const char *extent, unsigned scope, int line)
{
    hd_program *p = r->prog;
    for (int k = 0; k < p->ntables; k++) {
        const hd_owner_table *t = &p->tables[k];
        if (t->spread == kind && t->block == block && t->size == N &&
            (extent ? t->extent && strcmp(t->extent, extent) == 0 && t->scope == scope
                    : !t->extent))
            return k;
    }
    hd_owner_table t;
    memset(&t, 0, sizeof t);
    t.name = hd_xstrdup(hd_dist_name(kind));
    t.size = N;
    t.line = line;
    t.spread = kind;
    t.block = block;
    t.extent = extent ? hd_xstrdup(extent) : NULL;
    t.scope = scope;
    p->tables = hd_xrealloc(p->tables, (size_t)(p->ntables + 1) * sizeof *p->tables);
    p->tables[p->ntables++] = t;
    return p->ntables - 1;
}

/* HPF's BLOCK and CYCLIC of an array whose extent is no power of two (or
 * smaller than the cube), ScaLAPACK's block-cyclic likewise: blocks of b
 * consecutive elements dealt out to the processors in turn, b =
 * ceil(N / 2^n) for block (the last processors hold fewer, maybe none),
 * 1 for cyclic, B for block_cyclic(B).  A multi-dimensional array is
 * spread by its flattened (row-major) elements.  Its owner is no GF(2)-
 * affine map of the element's bits, so it takes a table's way: doalls
 * that write element i, their reads gathered at run time. */
static bool spread_fits(reader *r, hd_array *a, const pragma *d, int which)
{
    if (r->files) {
        /* Like a table's (files.c), a spread is written with the
         * program's tables, in the file with main. */
        hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                  "'%s' has %lld elements, which %s spreads as an array of any extent: "
                  "arrays of any extent in a program of several files are not supported "
                  "yet (their tables are written once, in the file with main): translate "
                  "the program as one file", a->name, (long long)a->size,
                  hd_dist_name(d->dist));
        return false;
    }
    if (a->size <= 0) {
        hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                  "'%s' cannot be distributed: its number of elements does not fit in 64 "
                  "bits", a->name);
        return false;
    }
    int64_t block = d->dist == HD_DIST_BLOCK ? 0 : d->dist == HD_DIST_CYCLIC ? 1 : d->value;
    a->table = spread_table(r, d->dist, block, a->size, NULL, 0, d->line);
    return true;
}

/* Is array a distributed by a table (named in a distribute pragma with
 * table(T)), or spread (block or cyclic of an extent that is no power of
 * two, or below the cube's)?  Said nothing: distribution_of says what is
 * wrong with the pragmas. */
static bool named_by_table(reader *r, const hd_array *a)
{
    for (int k = 0; k < r->npragmas; k++) {
        const pragma *d = &r->pragmas[k];
        for (int j = 0; d->kind == PRAGMA_DISTRIBUTE && j < d->nnames; j++)
            if (strcmp(d->names[j], a->name) == 0)
                return d->dist == HD_DIST_TABLE ||
                       ((d->dist == HD_DIST_BLOCK || d->dist == HD_DIST_CYCLIC ||
                         d->dist == HD_DIST_BLOCK_CYCLIC) &&
                        (a->log2_size < 0 || a->log2_size < r->prog->n));
    }
    return false;
}

/* Do only doalls over a table (whose home is distributed by one, or
 * spread) use array arr?  Then 2^n elements do not make it exact: such a doall reads
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
        if (l->home < 0 || !named_by_table(r, &p->arrays[l->refs[l->home].array]))
            return false;
    }
    return used;
}

/* ----------------------------------------- the names of extent(...) */

typedef struct {
    const char *name;
    bool found;
    bool locals;          /* look into a function's body (not the TU's) */
} name_query;

static enum CXChildVisitResult find_name(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    name_query *q = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    bool named = k == CXCursor_VarDecl || k == CXCursor_ParmDecl ||
                 (!q->locals && (k == CXCursor_TypedefDecl || k == CXCursor_EnumConstantDecl ||
                                 k == CXCursor_MacroDefinition));
    if (named) {
        char *s = spelling(c);
        q->found |= s && strcmp(s, q->name) == 0;
        free(s);
    }
    if (q->found)
        return CXChildVisit_Break;
    /* Enumerators are inside their enum; locals anywhere in the body. */
    return k == CXCursor_EnumDecl || q->locals ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

typedef struct {
    unsigned begin;
    CXCursor found;
} function_query;

static enum CXChildVisitResult function_starting(CXCursor c, CXCursor parent,
                                                 CXClientData data)
{
    (void)parent;
    function_query *q = data;
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        unsigned b;
        clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL,
                                   NULL, &b);
        if (b == q->begin) {
            q->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

/* Does the function that starts at `begin` declare `name` (a parameter or
 * a local)? */
static bool function_declares(reader *r, unsigned begin, const char *name)
{
    function_query f = { begin, clang_getNullCursor() };
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), function_starting, &f);
    if (clang_Cursor_isNull(f.found))
        return false;
    name_query q = { name, false, true };
    clang_visitChildren(f.found, find_name, &q);
    return q.found;
}

/* The identifiers of extent(E) of pragma d, each once, in order, at their
 * offsets; how many. */
static int extent_names(reader *r, const pragma *d, char **names, unsigned *at, int most)
{
    CXToken *tok = NULL;
    unsigned n = 0;
    unsigned from = d->extent_at, to = from + (unsigned)strlen(d->extent);
    clang_tokenize(r->tu, clang_getRange(clang_getLocationForOffset(r->tu, r->file, from),
                                         clang_getLocationForOffset(r->tu, r->file, to)),
                   &tok, &n);
    int count = 0;
    for (unsigned t = 0; t < n && count < most; t++) {
        if (clang_getTokenKind(tok[t]) != CXToken_Identifier)
            continue;
        bool in_main = true;
        unsigned off = offset_of(r, clang_getTokenLocation(r->tu, tok[t]), &in_main);
        if (off >= to)
            break;
        CXString sp = clang_getTokenSpelling(r->tu, tok[t]);
        char *name = hd_xstrdup(clang_getCString(sp));
        clang_disposeString(sp);
        bool seen = false;
        for (int j = 0; j < count && !seen; j++)
            seen = strcmp(names[j], name) == 0;
        if (seen) {
            free(name);
            continue;
        }
        names[count] = name;
        at[count++] = off;
    }
    clang_disposeTokens(r->tu, tok, n);
    return count;
}

/*
 * E of extent(E) is written into the host's code before each doall that
 * uses the arrays, in that doall's function: each name it reads must be
 * a parameter or variable of the pragma's function (scope), or a name at
 * file scope (a variable, an enumerator, a typedef, a macro); for a
 * file-scope pragma, no function whose doall uses the array may hide one
 * with its own.  False, said, otherwise.
 */
static bool check_extent(reader *r, const pragma *d, unsigned scope, const hd_array *a, int arr)
{
    char *names[64];
    unsigned at[64];
    int count = extent_names(r, d, names, at, 64);
    bool ok = true;
    for (int j = 0; j < count && ok; j++) {
        name_query q = { names[j], false, false };
        clang_visitChildren(clang_getTranslationUnitCursor(r->tu), find_name, &q);
        bool here = scope && function_declares(r, scope, names[j]);
        if (!q.found && !here) {
            hd_report(&r->d, HD_ERROR, at[j], d->line, "'%s' in extent(%s) is no parameter "
                      "or variable of %s, and no name at file scope: the extent of '%s' is "
                      "evaluated before each doall that uses it", names[j], d->extent,
                      scope ? "this function" : "the program", a->name);
            ok = false;
            break;
        }
        for (int k = 0; !scope && k < r->prog->nloops && ok; k++) {
            const hd_loop *l = &r->prog->loops[k];
            if (!hd_loop_uses(l, arr, false) && !hd_loop_uses(l, arr, true))
                continue;
            if (function_declares(r, l->func_begin, names[j])) {
                hd_report(&r->d, HD_ERROR, at[j], d->line, "extent(%s) of '%s' is evaluated "
                          "before the doall of line %d, whose function has a '%s' of its own "
                          "that hides the one at file scope: rename one of them", d->extent,
                          a->name, l->line, names[j]);
                ok = false;
            }
        }
    }
    for (int j = 0; j < count; j++)
        free(names[j]);
    return ok;
}

/* A pointer's distribution: the spread its extent pragma gives, its
 * number of elements known at run time. */
static void distribute_pointer(reader *r, int k)
{
    hd_array *a = &r->prog->arrays[k];
    CXCursor decl = clang_getNullCursor();
    for (int j = 0; j < r->ndecls; j++)
        if (r->decls[j].index == k)
            decl = r->decls[j].decl;
    unsigned scope = a->is_global ? 0 : function_at(r, cursor_pos(r, decl).offset);
    int which = 0;
    const pragma *d = pointer_pragma(r, a->name, scope, &which);
    a->dist_refused = true;
    for (int j = 0; j < r->npragmas; j++) {
        const pragma *e = &r->pragmas[j];
        for (int m = 0; e != d && e->kind == PRAGMA_DISTRIBUTE && e->extent && m < e->nnames; m++)
            if (strcmp(e->names[m], a->name) == 0 && function_at(r, e->offset) == scope) {
                hd_report(&r->d, HD_ERROR, (unsigned)e->name_cols[m], e->line,
                          "'%s' is already named in a distribute pragma (line %d); an array "
                          "has one distribution", a->name, d->line);
                return;
            }
    }
    if (d->dist != HD_DIST_BLOCK && d->dist != HD_DIST_CYCLIC &&
        d->dist != HD_DIST_BLOCK_CYCLIC) {
        hd_report(&r->d, HD_ERROR, d->dist_offset, d->line, "'%s' points to elements whose "
                  "number is known at run time: extent(...) goes with block, cyclic or "
                  "block_cyclic(B), which spread any number of elements (HPF's BLOCK and "
                  "CYCLIC), not with %s", a->name, hd_dist_name(d->dist));
        return;
    }
    if (r->files) {
        hd_report(&r->d, HD_ERROR, d->extent_at, d->line, "pointers named with their "
                  "extent in a program of several files are not supported yet (their "
                  "layouts are written once, in the file with main): translate the program "
                  "as one file");
        return;
    }
    if (!check_extent(r, d, scope, a, k))
        return;
    int64_t block = d->dist == HD_DIST_BLOCK ? 0 : d->dist == HD_DIST_CYCLIC ? 1 : d->value;
    a->table = spread_table(r, d->dist, block, 0, d->extent, scope, d->line);
    a->dist_refused = false;
    hd_array_set_dist(a, r->prog->n, HD_DIST_TABLE, 0);
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
        /* No bit field: a spread (power-of-two arrays of 2^n elements
         * or more keep their GF(2) layouts, and their LCCs). */
        if (!spread_fits(r, a, d, which)) {
            a->dist_refused = true;
            return;
        }
        hd_array_set_dist(a, p->n, HD_DIST_TABLE, 0);
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
        if (a->pointer) {
            distribute_pointer(r, k);
            continue;
        }
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
                found = strcmp(p->arrays[a].name, d->names[j]) == 0 &&
                        p->arrays[a].pointer == (d->extent != NULL);
            if (found)
                continue;
            if (d->extent)
                hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[j], d->line,
                       "'%s' in distribute ... extent(...) is not a pointer used in a doall "
                       "loop %s (extent gives the number of elements a pointer points to; "
                       "an array of constant size has its own)", d->names[j],
                       function_at(r, d->offset) ? "of this function" : "of this file");
            else if (!r->files)
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
            return r->prog->arrays[r->decls[k].index].dist != HD_DIST_NONE &&
                   !r->prog->arrays[r->decls[k].index].pointer
                   ? r->decls[k].index : -1;
    return -1;
}
