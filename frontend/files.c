/*
 * files.c — a program of several C files (docs/annotations.md, "Programs
 * of several files"): hd_c_read_files reads each file with the passes of
 * cfront.c, every pass on all the files before the next, and between the
 * passes hands each file what the others say:
 *
 *   - after the parse: the arrays declared at file scope without static
 *     in any file (one array per name, as the linker joins them; their
 *     types must agree), so that a file that declares `extern double
 *     x[];` learns its extent; the functions each file defines, so that
 *     a call to another file's function counts as one that may run a
 *     doall (host.c); the cube, network and distribute pragmas, which
 *     must agree; map pragmas and table distributions are refused;
 *   - after the doall walk: the cube's dimension (--dim, else the cube
 *     pragma of any file, else the first doall of the first file that
 *     has one) and the arrays any doall uses, which each file that
 *     declares them takes among its own arrays, so that its sequential
 *     code brings their elements home like that of the file of the
 *     doall; a distribute pragma of any file that declares the array
 *     distributes it in all;
 *   - after the sequential code: what one file found of a shared array
 *     (its address escapes, it has an initializer) holds for all, and
 *     exactly one file defines main.
 */
#include "frontend_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An array declared at file scope without static, as one file declares
 * it (the first declaration that gives its outermost extent, else the
 * first). */
typedef struct {
    char *name;
    int unit;
    CXCursor decl;
    char *elem;                    /* the canonical element type */
    int ndims;
    long long extent[HD_MAX_DIMS]; /* extent[0] < 0: not given */
} file_array;

/* A function a file defines, without static. */
typedef struct {
    char *name;
    int unit;
} file_function;

struct program_files {
    int nunits;
    reader *readers;
    file_array *arrays;
    int narrays, arrays_cap;
    file_function *functions;
    int nfunctions, functions_cap;
    char **used;                   /* arrays without static a doall uses */
    int *used_unit;                /* the first file whose doall does */
    int nused, used_cap;
};

/* -------------------------------------------------------- reporting */

/* "FILE:LINE" of cursor c of reader r's file (a header's name when it is
 * declared in one). */
static void where_of(reader *r, CXCursor c, char *buf, size_t size)
{
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    if (f && clang_File_isEqual(f, r->file)) {
        snprintf(buf, size, "%s:%u", r->path, line);
        return;
    }
    CXString name = clang_getFileName(f);
    snprintf(buf, size, "%s:%u", f ? clang_getCString(name) : r->path, line);
    clang_disposeString(name);
}

/* An error at cursor c of r's file, or of a header it includes. */
__attribute__((format(printf, 3, 4)))
static void error_at_decl(reader *r, CXCursor c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    position p = cursor_pos(r, c);
    if (p.in_main) {
        hd_report(&r->d, HD_ERROR, p.offset, p.line, "%s", msg);
        return;
    }
    CXFile f;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    size_t len = 0;
    const char *src = f ? clang_getFileContents(r->tu, f, &len) : NULL;
    CXString name = clang_getFileName(f);
    char text[1400];
    snprintf(text, sizeof text, "%s:%u:%u: error: %s", f ? clang_getCString(name) : r->path,
             line, col, msg);
    clang_disposeString(name);
    hd_report_formatted(&r->d, HD_IN_OTHER_FILE, 0, true, text, src, len, off, (int)col);
}

/* ------------------------------------------------- the declarations */

static bool array_kind(enum CXTypeKind k)
{
    return k == CXType_ConstantArray || k == CXType_IncompleteArray;
}

/* The shape of an array declaration: its element type and extents; false
 * for anything else. */
static bool shape_of(CXCursor decl, file_array *out)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    out->ndims = 0;
    if (t.kind == CXType_IncompleteArray) {
        out->extent[out->ndims++] = -1;
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    while (t.kind == CXType_ConstantArray && out->ndims < HD_MAX_DIMS) {
        out->extent[out->ndims++] = clang_getArraySize(t);
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    if (out->ndims == 0 || array_kind(t.kind))
        return false;
    CXString s = clang_getTypeSpelling(t);
    out->elem = hd_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return true;
}

/* "double[1024][]" for messages. */
static void shape_text(const file_array *a, char *buf, size_t size)
{
    size_t k = (size_t)snprintf(buf, size, "%s", a->elem);
    for (int d = 0; d < a->ndims && k < size; d++)
        k += a->extent[d] < 0 ? (size_t)snprintf(buf + k, size - k, "[]")
                              : (size_t)snprintf(buf + k, size - k, "[%lld]", a->extent[d]);
}

static bool same_shape(const file_array *a, const file_array *b)
{
    if (strcmp(a->elem, b->elem) != 0 || a->ndims != b->ndims)
        return false;
    for (int d = 0; d < a->ndims; d++)
        if (a->extent[d] >= 0 && b->extent[d] >= 0 && a->extent[d] != b->extent[d])
            return false;
    return true;
}

static file_array *find_array(program_files *pf, const char *name, int unit)
{
    for (int k = 0; k < pf->narrays; k++)
        if (strcmp(pf->arrays[k].name, name) == 0 && (unit < 0 || pf->arrays[k].unit == unit))
            return &pf->arrays[k];
    return NULL;
}

typedef struct {
    program_files *pf;
    int unit;
} collecting;

/* Every file-scope array declared without static (in the file or in a
 * header it includes: the same object either way) and every function the
 * file itself defines without static. */
static enum CXChildVisitResult collect_declaration(CXCursor c, CXCursor parent,
                                                   CXClientData data)
{
    (void)parent;
    collecting *cl = data;
    program_files *pf = cl->pf;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (clang_getCursorLinkage(c) != CXLinkage_External)
        return CXChildVisit_Continue;
    if (kind == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
        clang_Location_isFromMainFile(clang_getCursorLocation(c))) {
        hd_xreserve(&pf->functions, &pf->functions_cap, pf->nfunctions + 1,
                    sizeof *pf->functions);
        pf->functions[pf->nfunctions++] = (file_function){ spelling(c), cl->unit };
        return CXChildVisit_Continue;
    }
    file_array a;
    if (kind != CXCursor_VarDecl || !shape_of(c, &a))
        return CXChildVisit_Continue;
    a.name = spelling(c);
    a.unit = cl->unit;
    a.decl = c;
    file_array *seen = find_array(pf, a.name, cl->unit);
    if (seen) {
        /* clang checked that the file's declarations agree; keep the one
         * that gives the extent. */
        if (seen->extent[0] < 0 && a.extent[0] >= 0) {
            seen->extent[0] = a.extent[0];
            seen->decl = c;
        }
        free(a.name);
        free(a.elem);
        return CXChildVisit_Continue;
    }
    hd_xreserve(&pf->arrays, &pf->arrays_cap, pf->narrays + 1, sizeof *pf->arrays);
    pf->arrays[pf->narrays++] = a;
    return CXChildVisit_Continue;
}

/* One name, one array: every file must declare it with one type (the
 * linker joins them whatever their types, and C leaves the program
 * undefined when they differ). */
static void check_array_types(program_files *pf)
{
    for (int k = 0; k < pf->narrays; k++) {
        const file_array *a = &pf->arrays[k];
        for (int j = 0; j < k; j++) {
            const file_array *b = &pf->arrays[j];
            if (strcmp(a->name, b->name) != 0)
                continue;
            if (!same_shape(a, b)) {
                char ta[256], tb[256], where[512];
                shape_text(a, ta, sizeof ta);
                shape_text(b, tb, sizeof tb);
                where_of(&pf->readers[b->unit], b->decl, where, sizeof where);
                error_at_decl(&pf->readers[a->unit], a->decl,
                              "'%s' is declared here as %s and in %s as %s: the files of a "
                              "program declare an array with one type", a->name, ta, where, tb);
            }
            break;
        }
    }
}

/* The pragmas a program of several files cannot have yet: map pragmas
 * (each file's host keeps its own record of the arrays' mappings) and
 * table distributions (the owner table is written with the program's
 * tables, in the file with main).  True when there are none. */
static bool refuse_unsupported(program_files *pf)
{
    bool ok = true;
    for (int u = 0; u < pf->nunits; u++) {
        reader *r = &pf->readers[u];
        for (int k = 0; k < r->npragmas; k++) {
            const pragma *p = &r->pragmas[k];
            if (p->kind == PRAGMA_MAP) {
                hd_report(&r->d, HD_ERROR, p->offset, p->line, "map pragmas in a program "
                          "of several files are not supported yet (the host's record of "
                          "each array's mapping is kept file by file): translate the "
                          "program as one file, or leave the map out");
                ok = false;
            } else if (p->kind == PRAGMA_DISTRIBUTE && p->dist == HD_DIST_TABLE) {
                hd_report(&r->d, HD_ERROR, p->dist_offset, p->line, "table distributions "
                          "in a program of several files are not supported yet (the owner "
                          "tables are written once, in the file with main): translate the "
                          "program as one file");
                ok = false;
            }
        }
    }
    return ok;
}

/* The first distribute pragma naming the array `name` (declared without
 * static) in a file before `before`, its file in *unit; NULL if none. */
static const pragma *earlier_distribution(const program_files *pf, const char *name,
                                          int before, int *unit)
{
    for (int v = 0; v < before; v++) {
        if (!find_array((program_files *)pf, name, v))
            continue;
        const reader *r = &pf->readers[v];
        for (int k = 0; k < r->npragmas; k++) {
            const pragma *p = &r->pragmas[k];
            for (int j = 0; p->kind == PRAGMA_DISTRIBUTE && j < p->nnames; j++)
                if (strcmp(p->names[j], name) == 0) {
                    *unit = v;
                    return p;
                }
        }
    }
    return NULL;
}

/* The distribution a pragma gives, as written. */
static void distribution_text(const pragma *p, char *buf, size_t size)
{
    if (p->dist == HD_DIST_BLOCK_CYCLIC)
        snprintf(buf, size, "block_cyclic(%lld)", p->value);
    else
        snprintf(buf, size, "%s", hd_dist_name(p->dist));
}

/* Two files distributing one array two ways: an array has one
 * distribution.  (Within a file distribution_of says so.)  Two files
 * that give it the same one agree. */
static void check_distributions(program_files *pf)
{
    for (int u = 0; u < pf->nunits; u++) {
        reader *r = &pf->readers[u];
        for (int k = 0; k < r->npragmas; k++) {
            const pragma *p = &r->pragmas[k];
            for (int j = 0; p->kind == PRAGMA_DISTRIBUTE && j < p->nnames; j++) {
                if (!find_array(pf, p->names[j], u))
                    continue;               /* a static array of u's */
                int v = 0;
                const pragma *q = earlier_distribution(pf, p->names[j], u, &v);
                if (!q || (q->dist == p->dist && q->value == p->value))
                    continue;
                char here[64], there[64];
                distribution_text(p, here, sizeof here);
                distribution_text(q, there, sizeof there);
                hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                          "'%s' is distributed here by %s and in %s:%d by %s: an array has "
                          "one distribution", p->names[j], here, pf->readers[v].path,
                          q->line, there);
            }
        }
    }
}

/* The cube and the network, which every file's pragmas must agree on;
 * each file's program gets them. */
static void choose_program_cube(program_files *pf)
{
    reader *cube_at = NULL, *network_at = NULL;
    for (int u = 0; u < pf->nunits; u++) {
        reader *r = &pf->readers[u];
        if (r->cube_pragma >= 0) {
            const pragma *p = &r->pragmas[r->cube_pragma];
            if (!cube_at)
                cube_at = r;
            else if (p->value != cube_at->pragmas[cube_at->cube_pragma].value)
                hd_report(&r->d, HD_ERROR, p->offset, p->line, "'#pragma hyperdo cube(%lld)' "
                          "disagrees with cube(%lld) in %s:%d: the files of a program run "
                          "on one cube", p->value, cube_at->pragmas[cube_at->cube_pragma].value,
                          cube_at->path, cube_at->pragmas[cube_at->cube_pragma].line);
        }
        if (r->network_pragma >= 0) {
            const pragma *p = &r->pragmas[r->network_pragma];
            if (!network_at)
                network_at = r;
            else if (p->value != network_at->pragmas[network_at->network_pragma].value)
                hd_report(&r->d, HD_ERROR, p->offset, p->line, "'#pragma hyperdo "
                          "network(%s)' disagrees with network(%s) in %s:%d: the files of a "
                          "program run on one network", hd_network_words[p->value],
                          hd_network_words[network_at->pragmas[network_at->network_pragma].value],
                          network_at->path, network_at->pragmas[network_at->network_pragma].line);
        }
    }
    reader *first_at = &pf->readers[0];
    const hd_loop *first = NULL;
    for (int u = 0; u < pf->nunits && !first; u++)
        if ((first = first_doall(&pf->readers[u])))
            first_at = &pf->readers[u];
    int n = cube_dimension(first_at, cube_at ? (int)cube_at->pragmas[cube_at->cube_pragma].value
                                             : -1, first);
    for (int u = 0; u < pf->nunits; u++) {
        hd_program *p = pf->readers[u].prog;
        p->n = n;
        if (network_at) {
            p->network = hd_network_words[network_at->pragmas[network_at->network_pragma].value];
            p->network_line = network_at->pragmas[network_at->network_pragma].line;
        }
    }
}

/* The arrays without static that some doall uses, by name. */
static void collect_used(program_files *pf)
{
    for (int u = 0; u < pf->nunits; u++) {
        const hd_program *p = pf->readers[u].prog;
        for (int a = 0; a < p->narrays; a++) {
            if (!p->arrays[a].external)
                continue;
            bool seen = false;
            for (int k = 0; k < pf->nused && !seen; k++)
                seen = strcmp(pf->used[k], p->arrays[a].name) == 0;
            if (seen)
                continue;
            int cap = pf->used_cap;
            hd_xreserve(&pf->used, &cap, pf->nused + 1, sizeof *pf->used);
            hd_xreserve(&pf->used_unit, &pf->used_cap, pf->nused + 1, sizeof *pf->used_unit);
            pf->used_unit[pf->nused] = u;
            pf->used[pf->nused++] = p->arrays[a].name;
        }
    }
}

/* Each file takes among its arrays those it declares that a doall of
 * another file uses: its sequential code brings their elements home. */
static void take_used_arrays(program_files *pf, int u)
{
    reader *r = &pf->readers[u];
    for (int k = 0; k < pf->nused; k++) {
        const file_array *a = find_array(pf, pf->used[k], u);
        if (!a)
            continue;
        bool have = false;
        for (int j = 0; j < r->prog->narrays && !have; j++)
            have = r->prog->arrays[j].external && strcmp(r->prog->arrays[j].name, a->name) == 0;
        if (!have)
            array_of(r, a->decl);
    }
}

/* What one file found of a shared array holds for all: the host must
 * keep it current after every doall when any file lets its address
 * escape, and it starts on the host when any file initialises it. */
static void share_array_facts(program_files *pf)
{
    for (int k = 0; k < pf->nused; k++) {
        bool escapes = false, init = false;
        for (int pass = 0; pass < 2; pass++)
            for (int u = 0; u < pf->nunits; u++) {
                hd_program *p = pf->readers[u].prog;
                for (int a = 0; a < p->narrays; a++) {
                    hd_array *x = &p->arrays[a];
                    if (!x->external || strcmp(x->name, pf->used[k]) != 0)
                        continue;
                    if (pass == 0) {
                        escapes |= x->host_escapes;
                        init |= x->has_init;
                    } else {
                        x->host_escapes = escapes;
                        x->has_init = init;
                    }
                }
            }
    }
}

/* The line of offset `at` of r's file. */
static int line_at(const reader *r, unsigned at)
{
    const hd_program *p = r->prog;
    int line = 1;
    for (unsigned k = 0; k < at && k < p->source_len; k++)
        line += p->source[k] == '\n';
    return line;
}

/* Exactly one file defines main: the host runs it, and the program's
 * tables and real main go into that file. */
static void check_main(program_files *pf)
{
    int first = -1;
    for (int u = 0; u < pf->nunits; u++) {
        reader *r = &pf->readers[u];
        if (!r->prog->has_main)
            continue;
        if (first < 0) {
            first = u;
            continue;
        }
        const reader *f = &pf->readers[first];
        hd_report(&r->d, HD_ERROR, r->prog->main_name, line_at(r, r->prog->main_name),
                  "main is also defined in %s (line %d): a program has one main",
                  f->path, line_at(f, f->prog->main_name));
    }
    if (first < 0)
        hd_report_input(&pf->readers[0].d, "no file of the program defines main: the "
                        "translated program's host runs the program's own main");
}

/* ------------------------------------------------ the other files */

bool extent_elsewhere(reader *r, CXCursor decl, long long *outer)
{
    program_files *pf = r->files;
    if (!pf || clang_getCursorLinkage(decl) != CXLinkage_External)
        return false;
    char *name = spelling(decl);
    bool found = false;
    for (int k = 0; k < pf->narrays && !found; k++)
        if (strcmp(pf->arrays[k].name, name) == 0 && pf->arrays[k].extent[0] >= 0) {
            *outer = pf->arrays[k].extent[0];
            found = true;
        }
    free(name);
    return found;
}

const pragma *distribution_elsewhere(reader *r, const char *name, int *which)
{
    program_files *pf = r->files;
    for (int u = 0; pf && u < pf->nunits; u++) {
        if (u == r->unit || !find_array(pf, name, u))
            continue;
        const reader *o = &pf->readers[u];
        for (int k = 0; k < o->npragmas; k++) {
            const pragma *p = &o->pragmas[k];
            for (int j = 0; p->kind == PRAGMA_DISTRIBUTE && j < p->nnames; j++)
                if (strcmp(p->names[j], name) == 0) {
                    *which = j;
                    return p;
                }
        }
    }
    return NULL;
}

bool used_elsewhere(reader *r, const char *name)
{
    program_files *pf = r->files;
    for (int k = 0; pf && k < pf->nused; k++)
        if (strcmp(pf->used[k], name) == 0)
            return true;
    return false;
}

bool defined_elsewhere(reader *r, CXCursor fn)
{
    program_files *pf = r->files;
    if (!pf || clang_getCursorLinkage(fn) != CXLinkage_External)
        return false;
    char *name = spelling(fn);
    bool found = false;
    for (int k = 0; k < pf->nfunctions && !found; k++)
        found = pf->functions[k].unit != r->unit && strcmp(pf->functions[k].name, name) == 0;
    free(name);
    return found;
}

/* ------------------------------------------------------- the driver */

static void free_program_files(program_files *pf)
{
    for (int k = 0; k < pf->narrays; k++) {
        free(pf->arrays[k].name);
        free(pf->arrays[k].elem);
    }
    for (int k = 0; k < pf->nfunctions; k++)
        free(pf->functions[k].name);
    free(pf->arrays);
    free(pf->functions);
    free(pf->used);
    free(pf->used_unit);
    free(pf->readers);
}

static int errors_of(const program_files *pf)
{
    int errors = 0;
    for (int u = 0; u < pf->nunits; u++)
        errors += pf->readers[u].d.errors;
    return errors;
}

int hd_c_read_files(const char *const *paths, int nfiles, const hd_c_options *opt,
                    hd_program *progs, hd_diags *d)
{
    program_files pf;
    memset(&pf, 0, sizeof pf);
    pf.nunits = nfiles;
    pf.readers = hd_xcalloc((size_t)nfiles, sizeof *pf.readers);
    bool opened = true;
    for (int u = 0; u < nfiles; u++) {
        opened &= open_file(&pf.readers[u], paths[u], opt, &progs[u]);
        pf.readers[u].files = &pf;
        pf.readers[u].unit = u;
    }
    /* A file clang could not read leaves the others nothing to agree
     * with: each has said what it could. */
    if (opened) {
        for (int u = 0; u < nfiles; u++) {
            collecting cl = { &pf, u };
            clang_visitChildren(clang_getTranslationUnitCursor(pf.readers[u].tu),
                                collect_declaration, &cl);
        }
        check_array_types(&pf);
        bool supported = refuse_unsupported(&pf);
        check_distributions(&pf);
        for (int u = 0; u < nfiles; u++) {
            walk_file(&pf.readers[u]);
            complete_loops(&pf.readers[u]);
        }
        choose_program_cube(&pf);
        collect_used(&pf);
        /* What is refused above was said: the rest is still read, for
         * the other errors there may be. */
        for (int u = 0; u < nfiles; u++) {
            take_used_arrays(&pf, u);
            complete_arrays(&pf.readers[u]);
        }
        share_array_facts(&pf);
        if (supported && opt->host_code && errors_of(&pf) == 0)
            check_main(&pf);
    }
    int errors = 0;
    for (int u = 0; u < nfiles; u++)
        errors += close_file(&pf.readers[u], &d[u]);
    free_program_files(&pf);
    return errors;
}
