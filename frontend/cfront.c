/*
 * cfront.c — the C reader: finds the `#pragma hyperdo doall` loops of a C
 * file with libclang, checks that each is a canonical loop whose body is
 * plain assignments, and turns every array subscript into an index
 * expression (expr.c): the model (model.h).  Which references make
 * processors exchange data, and how, is the analysis's to find (analysis/,
 * Hou et al. 2001, Section 3), run by the caller on the program and the
 * diagnostics sink this reader hands out.
 *
 * The pass order: clang parses; the pragmas are read from the file's tokens
 * (libclang has no pragma cursors); the AST walk reads each annotated loop
 * on its own, and each map pragma finds the doall it stands before; then,
 * with the cube's dimension n known, every array gets its distribution and
 * its mappings, and (for translate) the sequential code is read.
 * frontend_internal.h lists the files each pass lives in.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "frontend_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a reader holds besides its program and its diagnostics. */
static void free_reader(reader *r)
{
    free_pragmas(r);
    free(r->sequential);
    free(r->functions);
    free(r->skipped);
    free(r->ignored);
    free(r->decls);
    free(r->locals);
    free(r->ref_buffer);
    free(r->outer_decls);
    free(r->bound_decls);
    free(r->ctrl);
    free(r->flows);
    free(r->header_nodes);
    free(r->body_loops);
    free(r->jumps);
    free(r->open_loops);
    free(r->red_decls);
    free(r->red_self);
    free(r->nodes);
    free(r->open);
    free(r->stdin_text);
    free_purity(r);
    if (r->tu)
        clang_disposeTranslationUnit(r->tu);
}

static void init_reader(reader *r, const char *path, const hd_c_options *opt,
                        hd_program *prog)
{
    memset(r, 0, sizeof *r);
    memset(prog, 0, sizeof *prog);
    r->path = path;
    r->opt = opt;
    r->cube_pragma = -1;
    r->network_pragma = -1;
    r->prog = prog;
    hd_diags_init(&r->d, path);
}

/*
 * Parses the file, passes clang's diagnostics on and reads the hyperdo
 * pragmas.  -1: clang could not parse at all; 0: clang reported errors
 * (nothing to walk); 1: ready for the walk.
 */
static int parse(reader *r, CXIndex index, const char *parse_path, char **args, int nargs)
{
    struct CXUnsavedFile unsaved = { parse_path, r->stdin_text, (unsigned long)r->stdin_len };
    enum CXErrorCode ec = clang_parseTranslationUnit2(
        index, parse_path, (const char *const *)args, nargs,
        r->stdin_text ? &unsaved : NULL, r->stdin_text ? 1 : 0,
        CXTranslationUnit_DetailedPreprocessingRecord |
        CXTranslationUnit_KeepGoing, &r->tu);
    if (ec != CXError_Success || !r->tu) {
        hd_report_input(&r->d, "clang could not parse '%s' (libclang error %d)",
                        r->path, (int)ec);
        r->tu = NULL;
        return -1;
    }
    r->file = clang_getFile(r->tu, parse_path);
    r->src = r->file ? clang_getFileContents(r->tu, r->file, &r->len) : NULL;
    hd_diags_set_source(&r->d, r->src, r->len);
    pass_clang_diagnostics(r);
    if (r->d.errors != 0 || !r->file || !r->src)
        return 0;
    scan_pragmas(r);
    return 1;
}

void walk_file(reader *r)
{
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), find_doall, r);
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind == PRAGMA_DOALL && !r->pragmas[k].used)
            hd_report(&r->d, HD_ERROR, r->pragmas[k].offset, r->pragmas[k].line,
                   "'#pragma hyperdo doall' must be followed by a for loop "
                   "inside a function");
    attach_maps(r);
}

/*
 * A doall that writes no array element computes nothing that outlives an
 * iteration (its body may only assign local scalars), so running it as
 * the sequential loop it is gives the program's output; the host brings
 * the arrays it reads home first, as for any sequential code.
 */
static void keep_sequential(reader *r)
{
    hd_program *p = r->prog;
    int kept = 0;
    for (int k = 0; k < p->nloops; k++) {
        hd_loop *l = &p->loops[k];
        /* Its reductions outlive it: choose_reduction_homes decides. */
        if (l->home != NO_WRITES || l->nreds) {
            p->loops[kept++] = *l;
            continue;
        }
        hd_report(&r->d, HD_WARNING, l->begin, l->line, "this doall loop writes no array "
               "element, so it has no effect outside itself: it runs as sequential "
               "code on the host");
        r->sequential = hd_xrealloc(r->sequential,
                                    (size_t)(r->nsequential + 1) * sizeof *r->sequential);
        r->sequential[r->nsequential++] = l->pragma_begin;
        hd_loop_free(l);
    }
    p->nloops = kept;
}

/* The reference of a doall that writes no array element whose owner may
 * run each iteration: a read of a distributed array at every iteration
 * (unguarded, or under the loop's range alone) at an index GF(2)-affine in
 * the loop variable, the first in the text; -1 when there is none. */
static int reduction_home(const hd_program *p, const hd_loop *l)
{
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        const hd_array *a = &p->arrays[ref->array];
        hd_affine map;
        char why[8];
        /* Under the loop's range alone it is read at every iteration C runs. */
        if (!ref->is_write && (ref->guard < 0 || ref->guard == l->range_guard) &&
            !ref->in_jump_loop && !ref->uses_vars && a->dist != HD_DIST_NONE &&
            a->log2_size >= p->n && hd_expr_affine(ref->index, l->k, &map, why, sizeof why))
            return k;
    }
    return -1;
}

static void number_refs(reader *r);

/* A loop whose home (the element its iteration writes) is in an array
 * distributed by a table runs on the table's owners, and only such a loop
 * may have any number of iterations (loops.c read the bound). */
static void table_loops(reader *r)
{
    hd_program *p = r->prog;
    for (int k = 0; k < p->nloops; k++) {
        hd_loop *l = &p->loops[k];
        const hd_array *home = l->home >= 0 ? &p->arrays[l->refs[l->home].array] : NULL;
        l->on_table = home && home->dist == HD_DIST_TABLE;
        if (!l->on_table && l->var && l->trip == 0 && home && !home->dist_refused)
            hd_report(&r->d, HD_ERROR, l->begin, l->line,
                      "the bound of this doall loop is known only at run time, and '%s' is "
                      "neither an array of 2^m elements nor distributed by block, cyclic or "
                      "a table, whose size would bound its iterations", home->name);
        else if (!l->on_table && l->var && l->trip != (1LL << l->k) &&
                 !(home && home->dist_refused) && (home || l->trip > 0))
            hd_report(&r->d, HD_ERROR, l->begin, l->line,
                      "the bound %lld of this doall loop is not a power of two: a loop of "
                      "any size must write arrays distributed by table(T) (docs/meshes.md)",
                      (long long)l->trip);
    }
}

/*
 * A doall whose only effect is its reductions (s += a[i]) runs each
 * iteration on the owner of an element it reads (owner computes, with the
 * data read in the written data's place), which makes that read local.
 * With no such read (s += i * i, or reads only of replicated arrays)
 * nothing says where an iteration should run: the loop stays the
 * sequential code it is, which computes the same value, with a warning.
 * Needs the arrays' distributions.
 */
static void choose_reduction_homes(reader *r)
{
    hd_program *p = r->prog;
    int kept = 0;
    for (int k = 0; k < p->nloops; k++) {
        hd_loop *l = &p->loops[k];
        /* A reduction into an array combines into each processor's slice
         * of it (docs/annotations.md, "Reductions"): a replicated array
         * has no slices, and the host's copy is not where a doall writes. */
        for (int j = 0; j < l->nreds; j++) {
            const hd_reduction *red = &l->reds[j];
            const hd_array *a = red->array >= 0 ? &p->arrays[red->array] : NULL;
            if (!a || hd_array_distributed(p, red->array) || a->dist_refused)
                continue;
            unsigned at = 0;
            for (int s = 0; s < l->nsites && !at; s++)
                if (l->sites[s].red == j)
                    at = l->sites[s].begin;
            if (a->dist == HD_DIST_TABLE)
                hd_report(&r->d, HD_ERROR, at, red->line, "this doall reduces into the "
                          "elements of '%s', which is %s: reductions into arrays of any "
                          "extent, a table's or a pointer's are not supported yet (their "
                          "owners are no GF(2) layout for HISTOGRAM's blocks)", a->name,
                          a->pointer ? "a pointer's" : "spread or distributed by a table");
            else
                hd_report(&r->d, HD_ERROR, at, red->line, "this doall reduces into the "
                          "elements of '%s', which is not distributed: give it 2^k elements, "
                          "k >= %d, or name it in '#pragma hyperdo distribute'", a->name, p->n);
        }
        if (l->home == NO_WRITES && reduction_home(p, l) >= 0)
            l->home = reduction_home(p, l);
        if (l->home != NO_WRITES) {
            p->loops[kept++] = *l;
            continue;
        }
        hd_report(&r->d, HD_WARNING, l->begin, l->line, "this doall loop writes no array "
               "element, and it reads no distributed array at every iteration at an index "
               "GF(2)-affine in '%s', whose owner could run the iteration: it runs, with "
               "its reductions, as sequential code on the host", l->var);
        r->sequential = hd_xrealloc(r->sequential,
                                    (size_t)(r->nsequential + 1) * sizeof *r->sequential);
        r->sequential[r->nsequential++] = l->pragma_begin;
        hd_loop_free(l);
    }
    if (kept != p->nloops) {
        p->nloops = kept;
        number_refs(r);
    }
}

/* The references in source order, 0, 1, ..., each one's hd_ref.id, which
 * the analysis's results are indexed by. */
static void number_refs(reader *r)
{
    int id = 0;
    for (int k = 0; k < r->prog->nloops; k++)
        for (int j = 0; j < r->prog->loops[k].nrefs; j++)
            r->prog->loops[k].refs[j].id = id++;
}

/* Once every loop is read: the loops that stay sequential code, and the
 * references numbered. */
void complete_loops(reader *r)
{
    keep_sequential(r);
    number_refs(r);
    find_stage_loops(r);
}

/* The first doall loop read (whose 2^k iterations give the cube without
 * --dim or a cube pragma), or NULL. */
const hd_loop *first_doall(const reader *r)
{
    for (int k = 0; k < r->prog->nloops; k++)
        if (r->prog->loops[k].var)
            return &r->prog->loops[k];
    return NULL;
}

int cube_dimension(reader *r, int cube, const hd_loop *first)
{
    const hd_c_options *opt = r->opt;
    int n = opt->dim > 0 ? opt->dim : cube >= 0 ? cube : first ? first->k : 0;
    if (first && opt->dim <= 0 && cube < 0 && first->trip != (1LL << first->k))
        hd_report(&r->d, HD_ERROR, first->begin, first->line,
               "this doall loop of %lld iterations gives no cube dimension (a loop of 2^k "
               "iterations gives the k-cube); set it with '#pragma hyperdo cube(n)' or "
               "--dim", (long long)first->trip);
    else if (first && n < 1)
        hd_report(&r->d, HD_ERROR, first->begin, first->line,
               "a doall loop of one iteration gives a cube of dimension 0; "
               "set the dimension with '#pragma hyperdo cube(n)' or --dim");
    if (n > HD_DP_MAX_DIM) {
        hd_report_input(&r->d, "a %d-cube is beyond the mapping optimizer's "
                        "limit of %d dimensions", n, HD_DP_MAX_DIM);
    }
    return n;
}

/* The cube of a file alone, and its network. */
static void choose_cube(reader *r)
{
    hd_program *out = r->prog;
    out->n = cube_dimension(r, r->cube_pragma >= 0 ? (int)r->pragmas[r->cube_pragma].value
                               : -1, first_doall(r));
    if (r->network_pragma >= 0) {
        out->network = hd_network_words[r->pragmas[r->network_pragma].value];
        out->network_line = r->pragmas[r->network_pragma].line;
    }
}

/* With the cube's dimension n known (r->prog->n): the arrays'
 * distributions and the sequential code.  The maps, owners and messages
 * of each loop are the analysis's (hd_analyse_program), which the caller
 * runs next.  Loops read without errors are checked further even when
 * others had errors, so that one run reports all it can. */
void complete_arrays(reader *r)
{
    hd_program *out = r->prog;
    if (out->n >= 1 && out->n <= HD_DP_MAX_DIM) {
        distribute_arrays(r);
        table_loops(r);
        map_arrays(r);
        choose_reduction_homes(r);
        if (r->opt->host_code && r->d.errors == 0)
            read_host_code(r);
    }
}

/* All of standard input (NUL-terminated), or NULL. */
static char *read_stdin(size_t *len)
{
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            text = hd_xrealloc(text, cap = 2 * (n + 65536 + 1));
        }
        size_t got = fread(text + n, 1, cap - n - 1, stdin);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(stdin)) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

bool open_file(reader *r, const char *path, const hd_c_options *opt, hd_program *out)
{
    /* "-" is standard input, read as C and named as compilers name it. */
    bool from_stdin = strcmp(path, "-") == 0;
    if (from_stdin)
        path = "<stdin>";
    init_reader(r, path, opt, out);

    size_t stdin_len = 0;
    char *stdin_text = from_stdin ? read_stdin(&stdin_len) : NULL;
    struct stat st;
    bool readable = false;
    if (from_stdin) {
        if (!stdin_text)
            hd_report_input(&r->d, "cannot read standard input");
        readable = stdin_text != NULL;
    } else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        hd_report_input(&r->d, "'%s' is a directory, not a C file", path);
    } else {
        FILE *probe = fopen(path, "r");
        if (!probe)
            hd_report_input(&r->d, "cannot open '%s': %s", path, strerror(errno));
        else
            fclose(probe);
        readable = probe != NULL;
    }
    r->stdin_text = stdin_text;
    r->stdin_len = stdin_len;

    r->args_ok = readable && compiler_args(r, path, &r->args, &r->nargs) == 0;
    if (!r->args_ok)
        return false;
    /* With -p, clang works in the command's directory: give it the file
     * by its absolute name. */
    r->parse_path = opt->build_dir ? realpath(path, NULL) : NULL;
    if (!r->parse_path)
        r->parse_path = hd_xstrdup(path);
    r->index = clang_createIndex(0, 0);
    if (parse(r, r->index, r->parse_path, r->args, r->nargs) != 1)
        return false;
    out->path = hd_xstrdup(path);
    /* The model keeps the text clang parsed: the offsets are into it, and
     * the analysis's diagnostics quote it after clang's copy is gone. */
    out->source = hd_xmalloc(r->len + 1);
    memcpy(out->source, r->src, r->len);
    out->source[r->len] = '\0';
    out->source_len = r->len;
    return true;
}

int close_file(reader *r, hd_diags *d)
{
    hd_program *out = r->prog;
    if (r->d.errors == 0 && !r->args_ok)
        r->d.errors = 1;    /* said nothing, yet nothing was read */
    hd_diags_set_source(&r->d, out->source, out->source_len);
    *d = r->d;              /* the caller's from now on */
    free_reader(r);
    if (r->index)
        clang_disposeIndex(r->index);
    for (int k = 0; k < r->nargs; k++)
        free(r->args[k]);
    free(r->args);
    free(r->parse_path);
    return d->errors;
}

int hd_c_read(const char *path, const hd_c_options *opt, hd_program *out, hd_diags *d)
{
    reader r;
    if (open_file(&r, path, opt, out)) {
        walk_file(&r);
        complete_loops(&r);
        choose_cube(&r);
        complete_arrays(&r);
    }
    return close_file(&r, d);
}
