/*
 * mesh_read.c — mesh and graph files (frontend.h, hd_read_mesh_file): Gmsh
 * MSH 2.2 and 4.1 ASCII, METIS meshes, METIS and Chaco graphs, and Matrix
 * Market coordinate matrices.  docs/meshes.md ("Input formats") says what
 * each gives, what is skipped and what is refused.
 *
 * The file is read whole first.  A count it states is checked against its
 * number of lines (or bytes) before it bounds anything, and arrays grow as
 * items are read, never sized by a count from the file: a header asking
 * for 10^12 nodes costs its error message and nothing else.  Every error
 * names the line of the offending text and says what was expected there
 * and what was found.
 */
#include "frontend.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hd_alloc.h"

/* Items of one array, at most: hd_xreserve's doubling stays in an int. */
enum { MAX_ITEMS = 1 << 30 };

/* ------------------------------------------------------------- lines */

typedef struct {
    const char *s;
    size_t len;
} tok;

typedef struct {
    hd_diag *err;
    const char *end;        /* of the text */
    const char *next;       /* the line after the current one */
    const char *at, *eol;   /* the current line's unread part */
    int line;               /* the current line, 1-based; 0 before the first */
    int nlines;             /* lines in the file */
    size_t size;            /* bytes in the file */
} rd;

static int vfail(rd *r, int line, const char *fmt, va_list ap)
{
    r->err->line = line > 0 ? line : 1;
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    return HD_SPEC_ESYNTAX;
}

static int fail_at(rd *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(rd *r, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(r, line, fmt, ap);
    va_end(ap);
    return rc;
}

/* An error on the current line. */
static int fail(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(r, r->line, fmt, ap);
    va_end(ap);
    return rc;
}

/* More than MAX_ITEMS of something, or a graph beyond int indices. */
static int too_large(rd *r)
{
    r->err->line = 0;
    snprintf(r->err->message, sizeof r->err->message,
             "'%s' is too large: more than %d items or graph entries",
             r->err->path, MAX_ITEMS);
    return HD_SPEC_ENOMEM;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Takes the next line; false, the current line kept, at the end. */
static bool next_line(rd *r)
{
    if (r->next == r->end)
        return false;
    r->at = r->next;
    const char *nl = memchr(r->at, '\n', (size_t)(r->end - r->at));
    r->eol = nl ? nl : r->end;
    r->next = nl ? nl + 1 : r->end;
    r->line++;
    return true;
}

static bool next_tok(rd *r, tok *t)
{
    while (r->at < r->eol && is_blank(*r->at))
        r->at++;
    if (r->at == r->eol)
        return false;
    t->s = r->at;
    while (r->at < r->eol && !is_blank(*r->at))
        r->at++;
    t->len = (size_t)(r->at - t->s);
    return true;
}

/* The first character of the rest of the line that is not blank, or 0. */
static char peek(rd *r)
{
    while (r->at < r->eol && is_blank(*r->at))
        r->at++;
    return r->at < r->eol ? *r->at : 0;
}

/* The next line with something on it: blank lines are skipped, and so are
 * comment lines (their first character `comment`) when comment is set. */
static bool next_content(rd *r, char comment)
{
    while (next_line(r)) {
        char c = peek(r);
        if (c && c != comment)
            return true;
    }
    return false;
}

static bool tok_is(tok t, const char *word)
{
    return t.len == strlen(word) && memcmp(t.s, word, t.len) == 0;
}

/* A token as a message shows it: quoted, cut short, unprintables as '?'. */
static const char *quoted(tok t, char buf[40])
{
    size_t n = t.len > 30 ? 27 : t.len, k = 0;
    buf[k++] = '\'';
    for (size_t i = 0; i < n; i++)
        buf[k++] = t.s[i] >= ' ' && t.s[i] < 127 ? t.s[i] : '?';
    if (n < t.len) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

/* A decimal integer, optionally signed, filling the whole token. */
static bool tok_int(tok t, long long *v)
{
    size_t i = 0;
    bool neg = t.len > 0 && t.s[0] == '-';
    if (t.len > 0 && (t.s[0] == '-' || t.s[0] == '+'))
        i++;
    if (i == t.len)
        return false;
    unsigned long long x = 0;
    for (; i < t.len; i++) {
        if (t.s[i] < '0' || t.s[i] > '9' || x > (unsigned long long)LLONG_MAX / 10)
            return false;
        x = x * 10 + (unsigned)(t.s[i] - '0');
        if (x > (unsigned long long)LLONG_MAX)
            return false;
    }
    *v = neg ? -(long long)x : (long long)x;
    return true;
}

/* A number as C's strtod reads it, filling the whole token. */
static bool tok_number(tok t, double *v)
{
    char buf[64], *end;
    if (t.len == 0 || t.len >= sizeof buf)
        return false;
    memcpy(buf, t.s, t.len);
    buf[t.len] = '\0';
    *v = strtod(buf, &end);
    return end == buf + t.len;
}

/* The line's next token, an integer in lo .. hi; `what` names it. */
static int want_int(rd *r, const char *what, long long lo, long long hi, long long *v)
{
    tok t;
    char buf[40];
    if (!next_tok(r, &t))
        return fail(r, "expected %s, found the end of the line", what);
    if (!tok_int(t, v))
        return fail(r, "expected %s, found %s", what, quoted(t, buf));
    if (*v < lo && hi == LLONG_MAX)
        return fail(r, "expected %s of at least %lld, found %lld", what, lo, *v);
    if (*v < lo || *v > hi)
        return fail(r, "expected %s in %lld .. %lld, found %lld", what, lo, hi, *v);
    return HD_SPEC_OK;
}

static int want_number(rd *r, const char *what)
{
    tok t;
    char buf[40];
    double v;
    if (!next_tok(r, &t))
        return fail(r, "expected %s, found the end of the line", what);
    if (!tok_number(t, &v))
        return fail(r, "expected %s, found %s", what, quoted(t, buf));
    return HD_SPEC_OK;
}

/* A count the file states: each item takes a line at least, so a count
 * beyond the file's lines is an error before anything is sized by it. */
static int want_count(rd *r, const char *what, long long *v)
{
    int rc = want_int(r, what, 0, LLONG_MAX, v);
    if (rc == HD_SPEC_OK && *v > r->nlines)
        return fail(r, "%s is %lld, more than the file's %d lines can hold", what, *v, r->nlines);
    return rc;
}

static int want_eol(rd *r, const char *after)
{
    tok t;
    char buf[40];
    if (next_tok(r, &t))
        return fail(r, "expected the end of the line after %s, found %s", after, quoted(t, buf));
    return HD_SPEC_OK;
}

/* The next content line, holding `what`: an error at the end of the file
 * or, when `dollar` is set, at a line starting a Gmsh section. */
static int want_line(rd *r, char comment, bool dollar, const char *what)
{
    tok t;
    char buf[40];
    if (!next_content(r, comment))
        return fail(r, "expected %s, found the end of the file", what);
    if (dollar && peek(r) == '$') {
        rd look = *r;
        next_tok(&look, &t);
        return fail(r, "expected %s, found %s", what, quoted(t, buf));
    }
    return HD_SPEC_OK;
}

/* The next content line, or an error saying how many items came of the
 * `want` expected.  A line starting with '$' (Gmsh's sections) ends the
 * items too when `dollar` is set. */
static int want_item(rd *r, char comment, bool dollar, const char *items, long long want,
                     long long got)
{
    if (!next_content(r, comment))
        return fail(r, "expected %lld %s, found %lld before the end of the file", want, items, got);
    if (dollar && peek(r) == '$')
        return fail(r, "expected %lld %s, found %lld", want, items, got);
    return HD_SPEC_OK;
}

/* -------------------------------------------------------------- Gmsh */

static const int kind_nodes[] = { 3, 4, 4, 8 };
static const int kind_dim[] = { 2, 2, 3, 3 };
static const char *const kind_name[] = { "triangle", "quadrangle", "tetrahedron", "hexahedron" };

/* Gmsh's element types (Gmsh reference manual, "MSH file format", and
 * GmshDefines.h): the four first-order ones read; points and lines of any
 * order, which every Gmsh mesh holds for its geometry's corners and
 * curves, skipped (-1); anything else refused (-2). */
static int gmsh_kind(long long type)
{
    switch (type) {
    case 2: return HD_ELEM_TRIANGLE;
    case 3: return HD_ELEM_QUAD;
    case 4: return HD_ELEM_TETRA;
    case 5: return HD_ELEM_HEXA;
    case 15:                                                /* a point */
    case 1: case 8: case 26: case 27: case 28:              /* lines */
    case 62: case 63: case 64: case 65: case 66: case 67: case 70: case 84:
        return -1;
    default:
        return -2;
    }
}

typedef struct {
    long long tag;
    int line;
} tagged;

typedef struct {
    int version;            /* 2 or 41 */
    tagged *nodes;          /* as listed */
    int nnodes, nodecap;
    long long *enodes;      /* the elements' node tags, in turn */
    int nenodes, enodecap;
    unsigned char *kind;    /* of each element read (not skipped) */
    int *eline;             /* its line */
    int nelems, kindcap, elinecap;
    int nodes_line, elements_line;  /* of $Nodes and $Elements, or 0 */
} gmsh;

static void gmsh_free(gmsh *g)
{
    free(g->nodes);
    free(g->enodes);
    free(g->kind);
    free(g->eline);
}

static int gmsh_node(rd *r, gmsh *g, long long tag)
{
    if (g->nnodes == MAX_ITEMS)
        return too_large(r);
    hd_xreserve(&g->nodes, &g->nodecap, g->nnodes + 1, sizeof *g->nodes);
    g->nodes[g->nnodes++] = (tagged){ tag, r->line };
    return HD_SPEC_OK;
}

static int gmsh_expect_end(rd *r, const char *name)
{
    tok t;
    char buf[40];
    if (!next_content(r, 0))
        return fail(r, "expected %s, found the end of the file", name);
    next_tok(r, &t);
    if (!tok_is(t, name))
        return fail(r, "expected %s, found %s", name, quoted(t, buf));
    return want_eol(r, name);
}

static int gmsh_refuse(rd *r, long long type)
{
    return fail(r, "element type %lld is not read: Hyperdo reads first-order triangles (2), "
                "quadrangles (3), tetrahedra (4) and hexahedra (5), and skips points and lines",
                type);
}

/* The rest of element `tag`'s line: its node tags, as many as its type
 * has; nothing to read for a point or a line. */
static int gmsh_element(rd *r, gmsh *g, long long tag, long long type)
{
    int k = gmsh_kind(type);
    if (k == -1)
        return HD_SPEC_OK;
    if (k == -2)
        return gmsh_refuse(r, type);
    long long v[8];
    int found = 0;
    tok t;
    char buf[40];
    while (next_tok(r, &t)) {
        if (found < 8 && !tok_int(t, &v[found]))
            return fail(r, "expected a node tag of element %lld, found %s", tag, quoted(t, buf));
        found += found < INT_MAX;
    }
    if (found != kind_nodes[k])
        return fail(r, "expected %d node tags for element %lld (a %s), found %d",
                    kind_nodes[k], tag, kind_name[k], found);
    if (g->nelems == MAX_ITEMS || g->nenodes > MAX_ITEMS - 8)
        return too_large(r);
    hd_xreserve(&g->enodes, &g->enodecap, g->nenodes + found, sizeof *g->enodes);
    memcpy(g->enodes + g->nenodes, v, (size_t)found * sizeof *v);
    g->nenodes += found;
    hd_xreserve(&g->kind, &g->kindcap, g->nelems + 1, sizeof *g->kind);
    hd_xreserve(&g->eline, &g->elinecap, g->nelems + 1, sizeof *g->eline);
    g->kind[g->nelems] = (unsigned char)k;
    g->eline[g->nelems++] = r->line;
    return HD_SPEC_OK;
}

/* MSH 2's count line after $Nodes or $Elements. */
static int gmsh2_count(rd *r, const char *what, long long *n)
{
    int rc = want_line(r, 0, true, what);
    if (!rc)
        rc = want_count(r, what, n);
    return rc ? rc : want_eol(r, what);
}

/* MSH 2: "$Nodes", the count, then "tag x y z" a line. */
static int gmsh2_nodes(rd *r, gmsh *g)
{
    long long n;
    int rc = gmsh2_count(r, "the number of nodes", &n);
    for (long long i = 0; !rc && i < n; i++) {
        long long tag;
        rc = want_item(r, 0, true, "nodes", n, i);
        if (!rc)
            rc = want_int(r, "a node tag", 1, LLONG_MAX, &tag);
        for (int c = 0; !rc && c < 3; c++)
            rc = want_number(r, "a coordinate");
        if (!rc)
            rc = want_eol(r, "a node's tag and x y z");
        if (!rc)
            rc = gmsh_node(r, g, tag);
    }
    return rc ? rc : gmsh_expect_end(r, "$EndNodes");
}

/* MSH 2: "$Elements", the count, then a line each:
 * "tag type ntags tag... node...". */
static int gmsh2_elements(rd *r, gmsh *g)
{
    long long n;
    int rc = gmsh2_count(r, "the number of elements", &n);
    for (long long i = 0; !rc && i < n; i++) {
        long long tag, type, ntags, x;
        rc = want_item(r, 0, true, "elements", n, i);
        if (!rc)
            rc = want_int(r, "an element tag", 1, LLONG_MAX, &tag);
        if (!rc)
            rc = want_int(r, "an element type", 1, LLONG_MAX, &type);
        if (!rc)
            rc = want_int(r, "the number of tags", 0, LLONG_MAX, &ntags);
        for (long long k = 0; !rc && k < ntags; k++)
            rc = want_int(r, "a tag (physical, elementary, partition)", LLONG_MIN, LLONG_MAX, &x);
        if (!rc)
            rc = gmsh_element(r, g, tag, type);
    }
    return rc ? rc : gmsh_expect_end(r, "$EndElements");
}

/* MSH 4.1 blocks: a header "numEntityBlocks count minTag maxTag", then per
 * block "entityDim entityTag x count" and its items.  The header's count
 * must be the blocks' sum. */
static int gmsh4_header(rd *r, const char *what, long long *nblocks, long long *count)
{
    long long x;
    int rc = want_line(r, 0, true, what);
    if (!rc)
        rc = want_count(r, "the number of entity blocks", nblocks);
    if (!rc)
        rc = want_count(r, what, count);
    for (int k = 0; !rc && k < 2; k++)
        rc = want_int(r, k ? "the largest tag" : "the smallest tag", 0, LLONG_MAX, &x);
    return rc ? rc : want_eol(r, "the section's header");
}

static int gmsh4_block(rd *r, long long nblocks, long long b, const char *third,
                       long long lo, long long hi, long long *dim, long long *x, long long *count)
{
    long long entity;
    int rc = want_item(r, 0, true, "entity blocks", nblocks, b);
    if (!rc)
        rc = want_int(r, "an entity dimension", 0, 3, dim);
    if (!rc)
        rc = want_int(r, "an entity tag", LLONG_MIN, LLONG_MAX, &entity);
    if (!rc)
        rc = want_int(r, third, lo, hi, x);
    if (!rc)
        rc = want_count(r, "the block's number of items", count);
    return rc ? rc : want_eol(r, "the block's header");
}

static int gmsh4_total(rd *r, int header_line, const char *items, long long said, long long total)
{
    if (said != total)
        return fail_at(r, header_line, "the header says %lld %s, the blocks hold %lld",
                       said, items, total);
    return HD_SPEC_OK;
}

/* MSH 4.1: each block lists its node tags, one a line, then their
 * coordinates, x y z and the parametric ones. */
static int gmsh4_nodes(rd *r, gmsh *g)
{
    long long nblocks, n, total = 0;
    int rc = gmsh4_header(r, "the number of nodes", &nblocks, &n);
    int header_line = r->line;
    for (long long b = 0; !rc && b < nblocks; b++) {
        long long dim, parametric, count;
        rc = gmsh4_block(r, nblocks, b, "parametric (0 or 1)", 0, 1, &dim, &parametric, &count);
        for (long long i = 0; !rc && i < count; i++) {
            long long tag;
            rc = want_item(r, 0, true, "node tags in the block", count, i);
            if (!rc)
                rc = want_int(r, "a node tag", 1, LLONG_MAX, &tag);
            if (!rc)
                rc = want_eol(r, "a node tag");
            if (!rc)
                rc = gmsh_node(r, g, tag);
        }
        int ncoords = 3 + (parametric ? (int)dim : 0);
        for (long long i = 0; !rc && i < count; i++) {
            rc = want_item(r, 0, true, "node coordinate lines in the block", count, i);
            for (int c = 0; !rc && c < ncoords; c++)
                rc = want_number(r, "a coordinate");
            if (!rc)
                rc = want_eol(r, parametric ? "a node's x y z and parameters" : "a node's x y z");
        }
        total += count;
    }
    if (!rc)
        rc = gmsh4_total(r, header_line, "nodes", n, total);
    return rc ? rc : gmsh_expect_end(r, "$EndNodes");
}

/* MSH 4.1: each block is of one element type, a line "tag node..." each. */
static int gmsh4_elements(rd *r, gmsh *g)
{
    long long nblocks, n, total = 0;
    int rc = gmsh4_header(r, "the number of elements", &nblocks, &n);
    int header_line = r->line;
    for (long long b = 0; !rc && b < nblocks; b++) {
        long long dim, type, count;
        rc = gmsh4_block(r, nblocks, b, "an element type", 1, LLONG_MAX, &dim, &type, &count);
        if (!rc && gmsh_kind(type) == -2)
            rc = gmsh_refuse(r, type);
        for (long long i = 0; !rc && i < count; i++) {
            long long tag;
            rc = want_item(r, 0, true, "elements in the block", count, i);
            if (!rc)
                rc = want_int(r, "an element tag", 1, LLONG_MAX, &tag);
            if (!rc)
                rc = gmsh_element(r, g, tag, type);
        }
        total += count;
    }
    if (!rc)
        rc = gmsh4_total(r, header_line, "elements", n, total);
    return rc ? rc : gmsh_expect_end(r, "$EndElements");
}

/* "$MeshFormat", then "version file-type data-size", "$EndMeshFormat". */
static int gmsh_format(rd *r, gmsh *g)
{
    tok t;
    char buf[40];
    long long type, size;
    if (!next_content(r, 0))
        return fail(r, "expected $MeshFormat, found an empty file");
    next_tok(r, &t);
    if (!tok_is(t, "$MeshFormat"))
        return fail(r, "expected $MeshFormat on the first line of a Gmsh file, found %s",
                    quoted(t, buf));
    int rc = want_eol(r, "$MeshFormat");
    if (!rc)
        rc = want_line(r, 0, true, "the MSH version");
    if (rc)
        return rc;
    double v;
    next_tok(r, &t);
    if (!tok_number(t, &v))
        return fail(r, "expected the MSH version 2.2 or 4.1, found %s", quoted(t, buf));
    if (v >= 2 && v < 3)
        g->version = 2;
    else if (v > 4.05 && v < 4.15)
        g->version = 41;
    else if (v >= 4 && v < 4.05)
        return fail(r, "MSH 4.0 is not read: save the mesh as MSH 4.1 or 2.2");
    else
        return fail(r, "expected the MSH version 2.2 or 4.1, found %s", quoted(t, buf));
    rc = want_int(r, "the file type (0: ASCII)", 0, 1, &type);
    if (!rc && type == 1)
        return fail(r, "binary MSH is not read: save the mesh as ASCII "
                    "(Gmsh option Mesh.Binary = 0)");
    if (!rc)
        rc = want_int(r, "the data size", 1, LLONG_MAX, &size);
    if (!rc)
        rc = want_eol(r, "the data size");
    return rc ? rc : gmsh_expect_end(r, "$EndMeshFormat");
}

/* Skips a section Hyperdo does not read ($PhysicalNames, $Entities,
 * $Periodic, $NodeData, ...), up to its $End line. */
static int gmsh_skip(rd *r, tok name)
{
    int start = r->line;
    char end[64], buf[40];
    if (name.len > sizeof end - 5)
        return fail(r, "unknown section %s", quoted(name, buf));
    snprintf(end, sizeof end, "$End%.*s", (int)name.len - 1, name.s + 1);
    while (next_content(r, 0)) {
        tok t;
        next_tok(r, &t);
        if (tok_is(t, end))
            return HD_SPEC_OK;
    }
    return fail_at(r, start, "section %s never ends: expected %s", quoted(name, buf), end);
}

static int cmp_tagged(const void *a, const void *b)
{
    const tagged *x = a, *y = b;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Nodes numbered in the order of their tags; the elements of the highest
 * dimension kept (a volume mesh's boundary triangles are faces, not
 * elements). */
static int gmsh_mesh(rd *r, gmsh *g, hd_mesh *out)
{
    qsort(g->nodes, (size_t)g->nnodes, sizeof *g->nodes, cmp_tagged);
    int dup = -1, first = 0;
    for (int i = 1, run = 0; i < g->nnodes; i++) {
        if (g->nodes[i].tag != g->nodes[i - 1].tag)
            run = i;
        else if (dup < 0 || g->nodes[i].line < g->nodes[dup].line) {
            dup = i;
            first = g->nodes[run].line;
        }
    }
    if (dup >= 0)
        return fail_at(r, g->nodes[dup].line, "node %lld is listed twice (first at line %d)",
                       g->nodes[dup].tag, first);
    int dim = 0, ne = 0, nind = 0;
    for (int e = 0; e < g->nelems; e++)
        if (kind_dim[g->kind[e]] > dim)
            dim = kind_dim[g->kind[e]];
    for (int e = 0; e < g->nelems; e++)
        if (kind_dim[g->kind[e]] == dim) {
            ne++;
            nind += kind_nodes[g->kind[e]];
        }
    if (ne == 0)
        return fail_at(r, g->elements_line, "$Elements holds no triangles, quadrangles, "
                       "tetrahedra or hexahedra (points and lines are skipped)");
    out->nnodes = g->nnodes;
    out->nelems = ne;
    out->eptr = hd_xmalloc(((size_t)ne + 1) * sizeof *out->eptr);
    out->eind = hd_xmalloc((size_t)nind * sizeof *out->eind);
    out->kind = hd_xmalloc((size_t)ne);
    out->eptr[0] = 0;
    int k = 0, at = 0;
    for (int e = 0; e < g->nelems; e++) {
        int kn = kind_nodes[g->kind[e]];
        bool keep = kind_dim[g->kind[e]] == dim;
        for (int i = 0; i < kn; i++) {
            long long tag = g->enodes[at + i];
            int lo = 0, hi = g->nnodes;
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2;
                if (g->nodes[mid].tag < tag)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == g->nnodes || g->nodes[lo].tag != tag)
                return fail_at(r, g->eline[e], "node %lld is not listed in $Nodes", tag);
            if (keep)
                out->eind[out->eptr[k] + i] = lo;
        }
        at += kn;
        if (keep) {
            out->kind[k] = g->kind[e];
            out->eptr[k + 1] = out->eptr[k] + kn;
            k++;
        }
    }
    return HD_SPEC_OK;
}

static int read_gmsh(rd *r, hd_mesh *out)
{
    gmsh g = { 0 };
    int rc = gmsh_format(r, &g);
    while (!rc && next_content(r, 0)) {
        tok t;
        char buf[40];
        next_tok(r, &t);
        int *seen = tok_is(t, "$Nodes") ? &g.nodes_line
                  : tok_is(t, "$Elements") ? &g.elements_line : NULL;
        if (seen && *seen)
            rc = fail(r, "a second %.*s section (the first at line %d)", (int)t.len, t.s, *seen);
        else if (seen) {
            *seen = r->line;
            rc = want_eol(r, seen == &g.nodes_line ? "$Nodes" : "$Elements");
            if (!rc && seen == &g.nodes_line)
                rc = g.version == 2 ? gmsh2_nodes(r, &g) : gmsh4_nodes(r, &g);
            else if (!rc)
                rc = g.version == 2 ? gmsh2_elements(r, &g) : gmsh4_elements(r, &g);
        } else if (t.s[0] != '$' || t.len == 1)
            rc = fail(r, "expected a section such as $Nodes or $Elements, found %s",
                      quoted(t, buf));
        else if (tok_is(t, "$MeshFormat") || (t.len > 4 && memcmp(t.s, "$End", 4) == 0))
            rc = fail(r, "unexpected %s between sections", quoted(t, buf));
        else
            rc = gmsh_skip(r, t);
    }
    if (!rc && !g.nodes_line)
        rc = fail(r, "no $Nodes section in the file");
    if (!rc && !g.elements_line)
        rc = fail(r, "no $Elements section in the file");
    if (!rc)
        rc = gmsh_mesh(r, &g, out);
    gmsh_free(&g);
    return rc;
}

/* -------------------------------------------------------- METIS mesh */

/* METIS 5 (Karypis, METIS manual 5.1, "Mesh file"): a header "ne [ncon]",
 * then a line per element: ncon weights, then its nodes, numbered from 1.
 * METIS 4's header was "ne etype" (1 triangles, 2 tetrahedra, 3 hexahedra,
 * 4 quadrilaterals) and its lines nodes only: a second number 1 .. 4 whose
 * first element line holds exactly that type's node count is read so. */
static int read_metis_mesh(rd *r, hd_mesh *out)
{
    static const int metis4_kind[5] = { -1, HD_ELEM_TRIANGLE, HD_ELEM_TETRA, HD_ELEM_HEXA,
                                        HD_ELEM_QUAD };
    long long ne, second = -1, v;
    tok t;
    char buf[40];
    if (!next_content(r, '%'))
        return fail(r, "expected the number of elements, found an empty file");
    int rc = want_count(r, "the number of elements", &ne);
    if (!rc && ne == 0)
        rc = fail(r, "expected the number of elements, at least 1, found 0");
    if (!rc && next_tok(r, &t) && (!tok_int(t, &second) || second < 0))
        rc = fail(r, "expected the number of element weights (METIS 5) or the element type "
                  "1 .. 4 (METIS 4), found %s", quoted(t, buf));
    if (!rc)
        rc = want_eol(r, "the header");
    int fixed = -1, ncon = second > 0 ? (int)(second > INT_MAX ? INT_MAX : second) : 0;
    int cap = 0, kcap = 0, nrefs = 0, maxline = 0;
    long long maxnode = 0;
    int *eind = NULL;
    unsigned char *kind = NULL;
    for (long long e = 0; !rc && e < ne; e++) {
        rc = want_item(r, '%', false, "elements", ne, e);
        if (!rc && e == 0 && second >= 1 && second <= 4) {
            rd look = *r;
            int ntok = 0;
            while (next_tok(&look, &t))
                ntok++;
            if (ntok == kind_nodes[metis4_kind[second]]) {
                fixed = metis4_kind[second];
                ncon = 0;
            }
        }
        for (int l = 0; !rc && l < ncon; l++)
            rc = want_int(r, "an element weight", 0, LLONG_MAX, &v);
        int k = 0;
        while (!rc && next_tok(r, &t)) {
            if (!tok_int(t, &v) || v < 1 || v > INT_MAX)
                rc = fail(r, "expected a node number (1 .. %d) of element %lld, found %s",
                          INT_MAX, e + 1, quoted(t, buf));
            else if (nrefs >= MAX_ITEMS)
                rc = too_large(r);
            else {
                hd_xreserve(&eind, &cap, nrefs + 1, sizeof *eind);
                eind[nrefs++] = (int)(v - 1);
                k++;
                if (v > maxnode) {
                    maxnode = v;
                    maxline = r->line;
                }
            }
        }
        int kd = fixed >= 0 ? fixed : k == 3 ? HD_ELEM_TRIANGLE : k == 4 ? HD_ELEM_QUAD
               : k == 8 ? HD_ELEM_HEXA : -1;
        if (!rc && fixed >= 0 && k != kind_nodes[fixed])
            rc = fail(r, "expected %d node numbers for element %lld, found %d",
                      kind_nodes[fixed], e + 1, k);
        else if (!rc && kd < 0)
            rc = fail(r, "element %lld has %d nodes: expected 3 (a triangle), 4 (a quadrilateral) "
                      "or 8 (a hexahedron)", e + 1, k);
        if (!rc) {
            hd_xreserve(&kind, &kcap, (int)e + 1, 1);
            kind[e] = (unsigned char)kd;
        }
    }
    if (!rc && next_content(r, '%'))
        rc = fail(r, "the header says %lld elements, found more", ne);
    /* Unused numbers below the largest are nodes of no element; a number
     * beyond every node the elements name could size the graphs at will. */
    if (!rc && maxnode > nrefs)
        rc = fail_at(r, maxline, "node number %lld exceeds the %d node numbers the elements list "
                     "(every node belongs to an element)", maxnode, nrefs);
    if (rc) {
        free(eind);
        free(kind);
        return rc;
    }
    out->nnodes = (int)maxnode;
    out->nelems = (int)ne;
    out->eind = eind;
    out->kind = kind;
    out->eptr = hd_xmalloc(((size_t)ne + 1) * sizeof *out->eptr);
    out->eptr[0] = 0;
    for (int e = 0; e < ne; e++)
        out->eptr[e + 1] = out->eptr[e] + kind_nodes[kind[e]];
    return HD_SPEC_OK;
}

/* ----------------------------------------------- METIS and Chaco graphs */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The vertex lines read: each row sorted, then checked (no repeats, every
 * neighbour listing the vertex back) and the edge count with them. */
static int graph_check(rd *r, hd_graph *g, const int *vline, int header_line, long long m)
{
    for (int v = 0; v < g->n; v++) {
        int *row = g->adj + g->xadj[v], len = g->xadj[v + 1] - g->xadj[v];
        qsort(row, (size_t)len, sizeof *row, cmp_int);
        for (int i = 1; i < len; i++)
            if (row[i] == row[i - 1])
                return fail_at(r, vline[v], "vertex %d lists %d twice", v + 1, row[i] + 1);
    }
    for (int v = 0; v < g->n; v++)
        for (int i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
            int u = g->adj[i];
            const int *row = g->adj + g->xadj[u];
            size_t len = (size_t)(g->xadj[u + 1] - g->xadj[u]);
            if (!bsearch(&v, row, len, sizeof *row, cmp_int))
                return fail_at(r, vline[v], "vertex %d lists %d as a neighbour, but vertex %d "
                               "(line %d) does not list %d", v + 1, u + 1, u + 1, vline[u], v + 1);
        }
    if (g->xadj[g->n] != 2 * m)
        return fail_at(r, header_line, "the header says %lld edges, but the vertex lines list "
                       "%d neighbours (each edge is listed at both its ends: %lld expected)",
                       m, g->xadj[g->n], 2 * m);
    return HD_SPEC_OK;
}

/* The rest of vertex v's line: its neighbours, numbered from 1, each
 * followed by an edge weight when the format says so. */
static int graph_neighbours(rd *r, hd_graph *g, int *cap, int v, long long m, bool ewgt, bool chaco)
{
    int rc = HD_SPEC_OK;
    while (!rc && peek(r)) {
        long long u, w;
        int nadj = g->xadj[g->n];       /* entries so far, kept there while reading */
        if (nadj == 2 * m)
            return fail(r, "more neighbours than the header's %lld edges allow (each edge is "
                        "listed at both its ends)", m);
        rc = want_int(r, "a neighbour", 1, g->n, &u);
        if (!rc && u == v + 1)
            rc = fail(r, "vertex %d lists itself as a neighbour", v + 1);
        if (!rc && ewgt)
            rc = chaco ? want_number(r, "an edge weight")
                       : want_int(r, "an edge weight", 1, LLONG_MAX, &w);
        if (!rc) {
            hd_xreserve(&g->adj, cap, nadj + 1, sizeof *g->adj);
            g->adj[nadj] = (int)u - 1;
            g->xadj[g->n] = nadj + 1;
        }
    }
    return rc;
}

/* METIS (METIS manual 5.1, "Graph file") and Chaco (Hendrickson and
 * Leland 1995, the Chaco user's guide 2.0, its graph input file): a header
 * "n m [fmt [ncon]]", then vertex i's line: its size (METIS, fmt 1xx) or
 * its number (Chaco, 1xx), ncon weights (x1x), then its neighbours, each
 * followed by an edge weight (xx1), numbered from 1.  Chaco's numbered
 * lines may continue a vertex on the next line.  '%' starts a comment
 * line; an empty line is a vertex without neighbours. */
static int read_graph(rd *r, bool chaco, hd_graph *out)
{
    long long n, m, x;
    tok t;
    char buf[40];
    bool lead = false, vwgt = false, ewgt = false;
    int ncon = 0;
    if (!next_content(r, '%'))
        return fail(r, "expected the number of vertices and edges, found an empty file");
    int header_line = r->line;
    int rc = want_count(r, "the number of vertices", &n);
    if (!rc && n == 0)
        rc = fail(r, "expected the number of vertices, at least 1, found 0");
    if (!rc)
        rc = want_int(r, "the number of edges", 0, LLONG_MAX, &m);
    if (!rc && (unsigned long long)m > r->size / 2)
        rc = fail(r, "the number of edges is %lld, more than the file's %zu bytes can list",
                  m, r->size);
    if (!rc && next_tok(r, &t)) {
        bool ok = t.len <= 3;
        for (size_t i = 0; i < t.len; i++)
            ok = ok && (t.s[i] == '0' || t.s[i] == '1');
        if (!ok)
            rc = fail(r, "expected the format, up to three digits 0 or 1 (vertex %s, "
                      "vertex weights, edge weights), found %s", chaco ? "numbers" : "sizes",
                      quoted(t, buf));
        lead = t.len == 3 && t.s[0] == '1';
        vwgt = t.len >= 2 && t.s[t.len - 2] == '1';
        ewgt = t.s[t.len - 1] == '1';
        ncon = vwgt;
    }
    if (!rc && next_tok(r, &t)) {
        if (!vwgt)
            rc = fail(r, "a number of vertex weights needs the format's vertex weight digit "
                      "(10 or 11)");
        else if (!tok_int(t, &x) || x < 1 || x > INT_MAX)
            rc = fail(r, "expected the number of vertex weights, found %s", quoted(t, buf));
        else
            ncon = (int)x;
    }
    if (!rc)
        rc = want_eol(r, "the header");
    if (rc)
        return rc;

    /* While reading, g.n holds the vertex count and xadj[n] the entries. */
    bool numbered = chaco && lead;
    hd_graph g = { (int)n, hd_xcalloc((size_t)n + 1, sizeof(int)), NULL };
    int *vline = hd_xcalloc((size_t)n, sizeof *vline);
    int cap = 0, v = -1;            /* the vertex being read */
    while (!rc) {
        bool more = false;          /* a numbered line continuing vertex v */
        if (numbered) {
            if (!next_content(r, '%'))
                break;
            rc = want_int(r, "the vertex number", v < 0 ? 1 : v + 1, v + 2 > n ? n : v + 2, &x);
            more = x == v + 1;
        } else {
            if (v + 1 == n)
                break;
            bool got;
            while ((got = next_line(r)) && peek(r) == '%')
                ;
            if (!got)
                rc = fail(r, "expected %lld vertex lines, found %d", n, v + 1);
        }
        if (!rc && !more) {
            vline[++v] = r->line;
            g.xadj[v] = g.xadj[n];
            if (lead && !chaco)
                rc = want_int(r, "the vertex's size", 0, LLONG_MAX, &x);
            for (int l = 0; !rc && l < (vwgt ? ncon : 0); l++)
                rc = want_int(r, "a vertex weight", chaco ? 1 : 0, LLONG_MAX, &x);
        }
        if (!rc)
            rc = graph_neighbours(r, &g, &cap, v, m, ewgt, chaco);
    }
    if (!rc && numbered && v + 1 < n)
        rc = fail(r, "expected %lld vertices, found %d", n, v + 1);
    if (!rc && !numbered && next_content(r, '%'))
        rc = fail(r, "the header says %lld vertices, found more lines", n);
    if (!rc) {
        if (!g.adj)
            g.adj = hd_xmalloc(sizeof *g.adj);
        rc = graph_check(r, &g, vline, header_line, m);
    }
    free(vline);
    if (rc)
        hd_graph_free(&g);
    else
        *out = g;
    return rc;
}

/* ---------------------------------------------------- Matrix Market */

/* Matrix Market (NIST, "The Matrix Market exchange formats", Boisvert,
 * Pozo and Remington 1996): the banner "%%MatrixMarket matrix coordinate
 * FIELD SYMMETRY", '%' comments, "rows columns entries", then "i j
 * [value]" an entry.  The graph is the pattern's: i ~ j for each entry
 * off the diagonal, whatever the symmetry says, built as the NB graph of
 * the entries taken as two-node elements. */
static int read_mtx(rd *r, hd_graph *out)
{
    static const char *const banner[] = { "%%MatrixMarket" }, *const matrix[] = { "matrix" },
        *const coordinate[] = { "coordinate" },
        *const fields[] = { "pattern", "real", "double", "integer", "complex" },
        *const symmetries[] = { "general", "symmetric", "skew-symmetric", "hermitian" };
    static const struct {
        const char *const *words;
        int n;
        const char *expected;
    } parts[5] = {
        { banner, 1, "the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY'" },
        { matrix, 1, "'matrix'" },
        { coordinate, 1, "'coordinate' (a dense 'array' is not a graph)" },
        { fields, 5, "the field pattern, real, integer or complex" },
        { symmetries, 4, "the symmetry general, symmetric, skew-symmetric or hermitian" },
    };
    char buf[40];
    int field = 0;
    next_line(r);
    for (int p = 0; p < 5; p++) {
        tok w;
        int k = -1;
        bool have = next_tok(r, &w);
        for (int i = 0; have && i < parts[p].n; i++)
            if (w.len == strlen(parts[p].words[i])
                && strncasecmp(w.s, parts[p].words[i], w.len) == 0)
                k = i;
        if (k < 0)
            return fail(r, "expected %s, found %s", parts[p].expected,
                        have ? quoted(w, buf) : "nothing");
        if (p == 3)
            field = k;
    }
    int rc = want_eol(r, "the banner");

    long long rows, cols, nnz, i, j, value;
    if (!rc && !next_content(r, '%'))
        return fail(r, "expected the size line 'rows columns entries', found the end of the file");
    if (!rc)
        rc = want_int(r, "the number of rows", 1, INT_MAX - 1, &rows);
    if (!rc)
        rc = want_int(r, "the number of columns", 1, INT_MAX - 1, &cols);
    if (!rc)
        rc = want_count(r, "the number of entries", &nnz);
    if (!rc)
        rc = want_eol(r, "the size line");
    if (!rc && rows != cols)
        rc = fail(r, "the matrix is %lld x %lld: a graph's matrix is square", rows, cols);
    /* Rows and columns without an entry would be vertices without edges;
     * more of them than the entries can touch is no mesh's graph, and its
     * size line could ask for any amount of memory. */
    if (!rc && rows > 1 && rows > 2 * nnz)
        rc = fail(r, "the matrix has %lld rows but %lld entries: at most %lld rows can have one",
                  rows, nnz, 2 * nnz);
    int nvalues = field == 0 ? 0 : field == 4 ? 2 : 1;
    hd_mesh pairs = { (int)rows, 0, NULL, NULL, NULL };
    int cap = 0;
    for (long long k = 0; !rc && k < nnz; k++) {
        rc = want_item(r, '%', false, "entries", nnz, k);
        if (!rc)
            rc = want_int(r, "a row number", 1, rows, &i);
        if (!rc)
            rc = want_int(r, "a column number", 1, cols, &j);
        for (int c = 0; !rc && c < nvalues; c++)
            rc = field == 3 ? want_int(r, "an integer value", LLONG_MIN, LLONG_MAX, &value)
                            : want_number(r, "a value");
        if (!rc)
            rc = want_eol(r, field == 0 ? "a pattern entry 'i j'" : "an entry");
        if (!rc && pairs.nelems >= MAX_ITEMS / 2)
            rc = too_large(r);
        if (!rc) {
            hd_xreserve(&pairs.eind, &cap, 2 * pairs.nelems + 2, sizeof *pairs.eind);
            pairs.eind[2 * pairs.nelems] = (int)i - 1;
            pairs.eind[2 * pairs.nelems + 1] = (int)j - 1;
            pairs.nelems++;
        }
    }
    if (!rc && next_content(r, '%'))
        rc = fail(r, "the size line says %lld entries, found more", nnz);
    if (!rc) {
        pairs.eptr = hd_xmalloc(((size_t)pairs.nelems + 1) * sizeof *pairs.eptr);
        for (int e = 0; e <= pairs.nelems; e++)
            pairs.eptr[e] = 2 * e;
        if (hd_mesh_nb_graph(&pairs, out) != HD_SPEC_OK)
            rc = too_large(r);
    }
    hd_mesh_free(&pairs);
    return rc;
}

/* ------------------------------------------------------------- files */

typedef enum { FMT_GMSH, FMT_METIS_MESH, FMT_METIS_GRAPH, FMT_CHACO, FMT_MTX, FMT_UNKNOWN } format;

static format by_extension(const char *path)
{
    static const struct { const char *ext; format f; } exts[] = {
        { "msh", FMT_GMSH }, { "mesh", FMT_METIS_MESH }, { "graph", FMT_METIS_GRAPH },
        { "metis", FMT_METIS_GRAPH }, { "chaco", FMT_CHACO }, { "mtx", FMT_MTX },
    };
    const char *slash = strrchr(path, '/'), *dot = strrchr(slash ? slash : path, '.');
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
        if (strcasecmp(dot + 1, exts[i].ext) == 0)
            return exts[i].f;
    return FMT_UNKNOWN;
}

/* Without a known extension, the first line tells Gmsh and Matrix Market
 * files, the two formats that name themselves. */
static int sniff(rd *r, format *f)
{
    rd look = *r;
    tok t = { "", 0 };
    char buf[40];
    if (next_content(&look, 0))
        next_tok(&look, &t);
    if (tok_is(t, "$MeshFormat"))
        *f = FMT_GMSH;
    else if (t.len >= 14 && strncasecmp(t.s, "%%MatrixMarket", 14) == 0)
        *f = FMT_MTX;
    else
        return fail_at(r, look.line, "cannot tell the format: expected $MeshFormat (Gmsh) or "
                       "%%%%MatrixMarket on the first line, or a name ending .msh, .mesh, .graph, "
                       ".metis, .chaco or .mtx; found %s", t.len ? quoted(t, buf) : "nothing");
    return HD_SPEC_OK;
}

static int read_all(const char *path, char **text, size_t *len, hd_diag *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->message, sizeof err->message, "cannot open '%s': %s", path, strerror(errno));
        return HD_SPEC_EIO;
    }
    size_t n = 0, cap = 1 << 16;
    char *buf = hd_xmalloc(cap);
    for (;;) {
        if (n == cap)
            buf = hd_xrealloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f), e = errno;
    fclose(f);
    if (failed) {
        free(buf);
        snprintf(err->message, sizeof err->message, "cannot read '%s': %s", path, strerror(e));
        return HD_SPEC_EIO;
    }
    *text = buf;
    *len = n;
    return HD_SPEC_OK;
}

int hd_read_mesh_file(const char *path, hd_mesh_input *out, hd_diag *err)
{
    memset(out, 0, sizeof *out);
    err->path = path;
    err->line = 0;
    err->message[0] = '\0';
    char *text;
    size_t len;
    int rc = read_all(path, &text, &len, err);
    if (rc)
        return rc;
    rd r = { err, text + len, text, text, text, 0, 0, len };
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)   /* a UTF-8 byte order mark */
        r.next += 3;
    long long nlines = 0;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(r.end - p))); p++)
        nlines++;
    if (len > 0 && text[len - 1] != '\n')
        nlines++;
    if (nlines > MAX_ITEMS) {
        free(text);
        return too_large(&r);
    }
    r.nlines = (int)nlines;

    format f = by_extension(path);
    if (f == FMT_UNKNOWN)
        rc = sniff(&r, &f);
    if (!rc && (f == FMT_GMSH || f == FMT_METIS_MESH)) {
        rc = f == FMT_GMSH ? read_gmsh(&r, &out->mesh) : read_metis_mesh(&r, &out->mesh);
        if (!rc && (hd_mesh_nb_graph(&out->mesh, &out->nb) != HD_SPEC_OK
                    || hd_mesh_adj_graph(&out->mesh, &out->adj) != HD_SPEC_OK))
            rc = too_large(&r);
        out->has_mesh = rc == HD_SPEC_OK;
    } else if (!rc) {
        rc = f == FMT_MTX ? read_mtx(&r, &out->nb) : read_graph(&r, f == FMT_CHACO, &out->nb);
        if (!rc) {
            /* A graph file's graph serves as both. */
            int n = out->nb.n, nadj = out->nb.xadj[n];
            out->adj.n = n;
            out->adj.xadj = hd_xmalloc(((size_t)n + 1) * sizeof(int));
            out->adj.adj = hd_xmalloc(((size_t)nadj + 1) * sizeof(int));
            memcpy(out->adj.xadj, out->nb.xadj, ((size_t)n + 1) * sizeof(int));
            memcpy(out->adj.adj, out->nb.adj, (size_t)nadj * sizeof(int));
        }
    }
    free(text);
    if (rc)
        hd_mesh_input_free(out);
    return rc;
}

void hd_mesh_input_free(hd_mesh_input *in)
{
    hd_mesh_free(&in->mesh);
    hd_graph_free(&in->nb);
    hd_graph_free(&in->adj);
    in->has_mesh = false;
}
