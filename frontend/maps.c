/*
 * maps.c — '#pragma hyperdo map(arrays : F)': Wu 1984's data mapping
 * functions (Section 1.2), element e of an array on virtual processor
 * F(owner(e)) = A owner(e) + c.  A map pragma at file scope gives the
 * array's mapping from the start; one right before a doall pragma (other
 * map pragmas, comments and conditional directives may stand between)
 * gives it from that doall
 * on in its function, so that the doalls of one function can run an
 * array under a sequence of mappings F_1, F_2, ... (Wu 1984, Chapter 3's
 * non-static mapping) with a remap between two of them.  Which doall a
 * pragma stands before is found after the AST walk (attach_maps); F is
 * checked against the cube once n is known (map_arrays).
 */
#include "frontend_internal.h"

#include <stdio.h>
#include <string.h>

/* The recorded pragma whose '#' is at offset `at`, or NULL. */
static pragma *pragma_at(reader *r, size_t at)
{
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].offset == at)
            return &r->pragmas[k];
    return NULL;
}

/* The end of the preprocessor line starting at k (its '\n', or len),
 * backslash-newlines continuing it. */
static size_t line_end_at(const char *src, size_t len, size_t k)
{
    while (k < len && src[k] != '\n')
        k += src[k] == '\\' && k + 1 < len && src[k + 1] == '\n' ? 2 : 1;
    return k;
}

/* What may stand between a map pragma and its doall besides blanks,
 * comments and other map pragmas: conditional directives (#if, #elif,
 * #else, #endif, #ifdef, #ifndef) and what they skipped, so that a
 * mapping can depend on the cube (#if N == 16).  The offset after them. */
static size_t skip_conditionals(const reader *r, size_t at)
{
    static const char *const words[] = { "if", "ifdef", "ifndef", "elif", "else", "endif" };
    for (;;) {
        bool moved = false;
        for (int k = 0; k < r->nskipped && !moved; k++)
            if (at >= r->skipped[2 * k] && at < r->skipped[2 * k + 1]) {
                /* The region ends in the directive that ends it (#elif,
                 * #else, #endif): past its line. */
                at = skip_blank(r->src, r->len,
                                line_end_at(r->src, r->len, r->skipped[2 * k + 1]));
                moved = true;
            }
        if (!moved && at < r->len && r->src[at] == '#') {
            size_t j = skip_blank(r->src, r->len, at + 1), w = j;
            while (w < r->len && r->src[w] >= 'a' && r->src[w] <= 'z')
                w++;
            for (size_t k = 0; k < sizeof words / sizeof words[0] && !moved; k++)
                if (w - j == strlen(words[k]) && memcmp(r->src + j, words[k], w - j) == 0) {
                    at = skip_blank(r->src, r->len, line_end_at(r->src, r->len, at));
                    moved = true;
                }
        }
        if (!moved)
            return at;
    }
}

/* Does the text at k start a '#pragma hyperdo' line (read or refused)? */
static bool hyperdo_pragma_text(const char *src, size_t len, size_t k)
{
    if (k >= len || src[k] != '#')
        return false;
    size_t j = skip_blank(src, len, k + 1);
    if (j + 6 > len || memcmp(src + j, "pragma", 6) != 0)
        return false;
    j = skip_blank(src, len, j + 6);
    return j + 7 <= len && memcmp(src + j, "hyperdo", 7) == 0;
}

static bool inside_function(const reader *r, unsigned offset)
{
    for (int k = 0; k < r->nfunctions; k++)
        if (offset > r->functions[2 * k] && offset < r->functions[2 * k + 1])
            return true;
    return false;
}

/* The loop read for the doall pragma p, or NULL. */
static const hd_loop *loop_of(reader *r, const pragma *p)
{
    for (int k = 0; k < r->prog->nloops; k++)
        if (r->prog->loops[k].begin == p->next_offset)
            return &r->prog->loops[k];
    return NULL;
}

/* Where map pragma m holds: from the doall it stands before, or (outside
 * every function) from the start; an error anywhere else. */
static void attach_one(reader *r, pragma *m)
{
    const pragma *next = m;
    /* Other map pragmas may stand between: the doall after them all. */
    for (;;) {
        size_t at = skip_conditionals(r, skip_blank(r->src, r->len, next->line_end));
        const pragma *p = pragma_at(r, at);
        if (p && p->kind == PRAGMA_MAP) {
            next = p;
            continue;
        }
        if (p && p->kind == PRAGMA_DOALL) {
            const hd_loop *l = loop_of(r, p);
            if (l) {
                m->map->attached = true;
                m->map->from = l->pragma_begin;
                m->map->func_begin = l->func_begin;
            }
            return;   /* a doall not read was refused, with its reason */
        }
        if (!p && hyperdo_pragma_text(r->src, r->len, at))
            return;   /* a refused pragma: its error is said */
        break;
    }
    if (!inside_function(r, m->offset)) {
        m->map->file_scope = true;
        return;
    }
    hd_report(&r->d, HD_ERROR, m->offset, m->line, "'#pragma hyperdo map' inside a "
              "function must stand right before a '#pragma hyperdo doall': it gives the "
              "arrays' mapping from that doall on (at file scope, from the start; Wu "
              "1984's data mapping functions, docs/annotations.md)");
}

void attach_maps(reader *r)
{
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind == PRAGMA_MAP)
            attach_one(r, &r->pragmas[k]);
}

/* "rows(3, 2, 4) xor(5)" for messages. */
static void spell(const map_fn *f, char *buf, size_t size)
{
    size_t at = 0;
    if (f->identity) {
        at = (size_t)snprintf(buf, size, "identity");
    } else {
        at = (size_t)snprintf(buf, size, "rows(");
        for (int t = 0; t < f->nrows && at < size; t++)
            at += (size_t)snprintf(buf + at, size - at, "%s%llu", t ? ", " : "",
                                   (unsigned long long)f->rows[t]);
        if (at < size)
            at += (size_t)snprintf(buf + at, size - at, ")");
    }
    if (f->c_at && at < size)
        snprintf(buf + at, size - at, " xor(%llu)", (unsigned long long)f->c);
}

/* F as an element of AGL(n, 2); false, said, when it is none. */
static bool map_function(reader *r, const pragma *p, int n, hd_affine *F)
{
    const map_fn *f = p->map;
    char text[256];
    spell(f, text, sizeof text);
    *F = hd_affine_identity(n);
    if (!f->identity) {
        if (f->nrows != n) {
            hd_report(&r->d, HD_ERROR, f->f_at, p->line, "the mapping %s has %d row%s, "
                      "but the cube is the %d-cube: F maps the %d bits of an owner's number, "
                      "one row per bit (rows(r_0, ..., r_%d))", text, f->nrows,
                      f->nrows == 1 ? "" : "s", n, n, n - 1);
            return false;
        }
        for (int t = 0; t < n; t++) {
            if (f->rows[t] & ~hd_mask(n)) {
                hd_report(&r->d, HD_ERROR, f->row_at[t], p->line, "row %d of the mapping "
                          "(%llu) has bits beyond the %d-cube's: bit j of r_i is f_ij, "
                          "j < %d, so a row is at most %llu", t,
                          (unsigned long long)f->rows[t], n, n,
                          (unsigned long long)hd_mask(n));
                return false;
            }
            F->row[t] = f->rows[t];
        }
    }
    if (f->c & ~hd_mask(n)) {
        hd_report(&r->d, HD_ERROR, f->c_at, p->line, "the complement of xor(%llu) has bits "
                  "beyond the %d-cube's: it is at most %llu", (unsigned long long)f->c, n,
                  (unsigned long long)hd_mask(n));
        return false;
    }
    F->c = f->c;
    hd_matrix A = hd_matrix_zero(n);
    for (int t = 0; t < n; t++)
        A.row[t] = F->row[t];
    int rank = hd_rank(&A);
    if (rank < n) {
        hd_report(&r->d, HD_ERROR, f->f_at, p->line, "the mapping %s is singular over "
                  "GF(2) (rank %d of %d): two processors' elements would land on one; a "
                  "data mapping function is a bijection (Wu 1984, Section 1.2)", text, rank, n);
        return false;
    }
    return true;
}

/* Which array `name` means where map pragma p stands, by C's scopes:
 * at file scope a global; before a doall, the array of that name the
 * doall uses, else a local of its function that one of the function's
 * doalls uses (a local is only used in its own function), else the
 * global.  -1 for none. */
static int array_in_scope(const hd_program *prog, const pragma *p, const char *name)
{
    int global = -1, local = -1, attached = -1;
    for (int d = 0; d < prog->nloops && !p->map->file_scope; d++) {
        const hd_loop *l = &prog->loops[d];
        if (l->func_begin != p->map->func_begin)
            continue;
        for (int k = 0; k < l->nrefs; k++) {
            int a = l->refs[k].array;
            if (strcmp(prog->arrays[a].name, name) != 0 || prog->arrays[a].is_global)
                continue;
            if (l->pragma_begin == p->map->from && attached < 0)
                attached = a;
            if (local < 0)
                local = a;
        }
    }
    for (int a = 0; a < prog->narrays && global < 0; a++)
        if (prog->arrays[a].is_global && strcmp(prog->arrays[a].name, name) == 0)
            global = a;
    return attached >= 0 ? attached : local >= 0 ? local : global;
}

/* The array named j-th by map pragma p, if it can be mapped; else -1,
 * said unless an earlier error explains it. */
static int mapped_array(reader *r, const pragma *p, int j)
{
    hd_program *prog = r->prog;
    int a = array_in_scope(prog, p, p->names[j]);
    if (a >= 0) {
        const hd_array *x = &prog->arrays[a];
        if (x->dist_refused)
            return -1;
        if (x->dist == HD_DIST_NONE) {
            hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                      "'%s' is not distributed (every processor holds all of it), so it "
                      "has no owner to map: name it in '#pragma hyperdo distribute' or give "
                      "it exactly 2^%d elements", x->name, prog->n);
            return -1;
        }
        if (x->dist == HD_DIST_TABLE && prog->tables[x->table].spread != HD_DIST_NONE) {
            /* F composes with a GF(2) map of the element's bits, which a
             * spread's owner is not. */
            const hd_owner_table *t = &prog->tables[x->table];
            char count[64];
            if (t->extent)
                snprintf(count, sizeof count, "the elements its extent gives at run time");
            else
                snprintf(count, sizeof count, "%lld elements", (long long)t->size);
            hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                      "'%s' is spread by %s over %s, not a power of two at least 2^%d: its "
                      "owners are no GF(2) map of the element's bits, which a data mapping "
                      "composes with", x->name, t->name, count, prog->n);
            return -1;
        }
        if (x->dist == HD_DIST_TABLE) {
            /* Its owners are a table, not a map of the element's bits:
             * a mapping of it is a new table (hyperdo map -o). */
            hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                      "'%s' is distributed by a table, whose owners are data: map it by "
                      "giving another table (hyperdo map writes one), not a map pragma",
                      x->name);
            return -1;
        }
        return a;
    }
    if (!r->rejected)
        hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                  "'%s' in map is not an array used in a doall loop of this file",
                  p->names[j]);
    return -1;
}

/* A second mapping of one array at one place (file scope, or before one
 * doall) would leave which one holds unsaid. */
static bool twice(reader *r, const pragma *p, int j, int a)
{
    const hd_program *prog = r->prog;
    for (int k = 0; k < prog->nmaps; k++) {
        const hd_data_map *m = &prog->maps[k];
        if (m->array != a || m->file_scope != p->map->file_scope ||
            (!m->file_scope && m->from != p->map->from))
            continue;
        hd_report(&r->d, HD_ERROR, (unsigned)p->name_cols[j], p->line,
                  "'%s' is already mapped %s (line %d); an array has one mapping there",
                  p->names[j], m->file_scope ? "at file scope" : "before this doall",
                  m->line);
        return true;
    }
    return false;
}

void map_arrays(reader *r)
{
    hd_program *prog = r->prog;
    for (int k = 0; k < r->npragmas; k++) {
        const pragma *p = &r->pragmas[k];
        if (p->kind != PRAGMA_MAP || (!p->map->file_scope && !p->map->attached))
            continue;
        hd_affine F;
        if (!map_function(r, p, prog->n, &F))
            continue;
        for (int j = 0; j < p->nnames; j++) {
            int a = mapped_array(r, p, j);
            if (a < 0 || twice(r, p, j, a))
                continue;
            prog->maps = hd_xrealloc(prog->maps, (size_t)(prog->nmaps + 1) * sizeof *prog->maps);
            prog->maps[prog->nmaps++] = (hd_data_map){
                .array = a, .F = F, .line = p->line, .file_scope = p->map->file_scope,
                .from = p->map->from, .func_begin = p->map->func_begin,
                .offset = (unsigned)p->name_cols[j] };
        }
    }
}
