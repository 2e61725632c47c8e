/*
 * spec.c — the reader of LCC spec files (the format is described in
 * frontend.h).  The whole input is read first, then parsed one line at a
 * time: a line is cut into tokens, its first token names the directive, and
 * each directive's parser consumes the rest.  The first error stops the
 * read, so a diagnostic always points at one line.
 */
#include "frontend.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *path;
    hd_diag *err;
    hd_spec *spec;
    int line;        /* the current line, 1-based */
    char *buf;       /* the current line, cut into NUL-terminated tokens */
    char **tok;
    int ntok, tokcap;
    int lcccap, vectorcap, stmtcap;
    /* stmt: the expression's text and where the parser is in it */
    const char *expr;
    size_t at;
    hd_spec_stmt *stmt;
    int nodecap;
    /* loop K ... end: the open loops, innermost last */
    int nloops;
    struct open_loop { int line; long times; int first; } loops[HD_SPEC_MAX_LOOP_DEPTH];
} reader;

/* ------------------------------------------------------------ errors */

__attribute__((format(printf, 2, 3)))
static int error(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
    va_end(ap);
    r->err->path = r->path;
    r->err->line = r->line;
    return HD_SPEC_ESYNTAX;
}

/* ------------------------------------------------------------ tokens */

static bool is_blank(char c)
{
    /* '\r' counts as a blank so that CRLF line endings need no care. */
    return c == ' ' || c == '\t' || c == '\r';
}

/* Cuts the line [start, start + len) into tokens, dropping its comment. */
static int tokenize(reader *r, const char *start, size_t len)
{
    if (memchr(start, '\0', len))
        return error(r, "the line contains a NUL byte");
    char *buf = r->buf = hd_xrealloc(r->buf, len + 1);
    memcpy(buf, start, len);
    buf[len] = '\0';
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';

    r->ntok = 0;
    for (char *p = buf; *p;) {
        if (is_blank(*p)) {
            *p++ = '\0';
            continue;
        }
        hd_xreserve(&r->tok, &r->tokcap, r->ntok + 1, sizeof *r->tok);
        r->tok[r->ntok++] = p;
        while (*p && !is_blank(*p))
            p++;
    }
    return HD_SPEC_OK;
}

static bool equal(const char *tok, const char *word)
{
    return strcmp(tok, word) == 0;
}

/* A whole number written in decimal digits.  Values beyond any dimension
 * saturate instead of overflowing; callers only compare them with n. */
static bool parse_number(const char *tok, long *value)
{
    long v = 0;
    if (!*tok)
        return false;
    for (const char *p = tok; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        if (v < 1000000)
            v = 10 * v + (*p - '0');
    }
    *value = v;
    return true;
}

static bool is_name(const char *tok)
{
    const char *p = tok;
    if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
        return false;
    for (p++; *p; p++)
        if (!(*p == '_' || *p == '.' || *p == '-' ||
              (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

static bool is_keyword(const char *tok)
{
    return equal(tok, "perm") || equal(tok, "matrix") ||
           equal(tok, "gather") || equal(tok, "scatter");
}

static int lcc_named(const hd_spec *s, const char *name)
{
    for (int k = 0; k < s->m; k++)
        if (equal(s->lccs[k].name, name))
            return k;
    return -1;
}

static int vector_named(const hd_spec *s, const char *name)
{
    for (int v = 0; v < s->nvectors; v++)
        if (equal(s->vectors[v], name))
            return v;
    return -1;
}

/* The first character of tok that is neither '0' nor '1', or NULL. */
static const char *first_non_bit(const char *tok)
{
    for (const char *p = tok; *p; p++)
        if (*p != '0' && *p != '1')
            return p;
    return NULL;
}

static bool is_bits(const char *tok)
{
    return *tok && !first_non_bit(tok);
}

/* Character i of tok is bit i: rows are a_i0 .. a_i,n-1 and b is
 * b_0 .. b_{n-1}, both printed left to right as in the paper. */
static uint64_t bits_value(const char *tok)
{
    uint64_t v = 0;
    for (int i = 0; tok[i]; i++)
        if (tok[i] == '1')
            v |= UINT64_C(1) << i;
    return v;
}

/* ------------------------------------------------------------ n */

static int directive_n(reader *r)
{
    hd_spec *s = r->spec;
    long n;
    if (s->n)
        return error(r, "'n' given twice (first on line %d)", s->n_line);
    if (r->ntok < 2)
        return error(r, "'n' needs the hypercube dimension, e.g. 'n 8'");
    if (!parse_number(r->tok[1], &n))
        return error(r, "dimension '%.40s' is not a whole number", r->tok[1]);
    if (n < 1 || n > HD_MAX_DIM)
        return error(r, "dimension %.40s is out of range 1..%d", r->tok[1],
                     HD_MAX_DIM);
    if (r->ntok > 2)
        return error(r, "unexpected '%.40s' after the dimension", r->tok[2]);
    s->n = (int)n;
    s->n_line = r->line;
    return HD_SPEC_OK;
}

/* ------------------------------------------------------------ lcc */

/* perm P_0 .. P_{n-1}: row i of A has its single 1 in column P_i. */
static int parse_perm(reader *r, int *at, const char *name, hd_matrix *a)
{
    int n = r->spec->n, count = 0, i = *at;
    int position[HD_MAX_DIM];
    for (; i < r->ntok && !equal(r->tok[i], "b"); i++, count++) {
        const char *tok = r->tok[i];
        long p;
        if (!parse_number(tok, &p)) {
            if (count >= n)
                return error(r, "unexpected '%.40s' after the %d entries of "
                             "perm '%s'", tok, n, name);
            return error(r, "entry %d of perm '%s' is '%.40s', not a number",
                         count, name, tok);
        }
        if (count >= n)
            continue;   /* counted, reported below */
        if (p >= n)
            return error(r, "entry %d of perm '%s' is %.40s, out of range "
                         "0..%d", count, name, tok, n - 1);
        for (int k = 0; k < count; k++)
            if (position[k] == (int)p)
                return error(r, "perm '%s' lists %ld twice (entries %d and "
                             "%d): a permutation uses each bit once",
                             name, p, k, count);
        position[count] = (int)p;
        a->row[count] = UINT64_C(1) << p;
    }
    if (count != n)
        return error(r, "perm '%s' has %d entr%s, needs n = %d", name,
                     count, count == 1 ? "y" : "ies", n);
    *at = i;
    return HD_SPEC_OK;
}

/* matrix ROW_0 .. ROW_{n-1}, each row n characters a_i0 .. a_i,n-1. */
static int parse_matrix(reader *r, int *at, const char *name, hd_matrix *a)
{
    int n = r->spec->n, count = 0, i = *at;
    for (; i < r->ntok && !equal(r->tok[i], "b"); i++, count++) {
        const char *tok = r->tok[i];
        if (count >= n) {
            if (is_bits(tok))
                continue;   /* counted, reported below */
            return error(r, "unexpected '%.40s' after the %d rows of matrix "
                         "'%s'", tok, n, name);
        }
        const char *bad = first_non_bit(tok);
        if (bad)
            return error(r, "row %d of matrix '%s' has '%c' in column %d: "
                         "entries are 0 or 1", count, name, *bad,
                         (int)(bad - tok));
        if (strlen(tok) != (size_t)n)
            return error(r, "row %d of matrix '%s' has %zu entr%s, needs "
                         "n = %d", count, name, strlen(tok),
                         strlen(tok) == 1 ? "y" : "ies", n);
        a->row[count] = bits_value(tok);
    }
    if (count != n)
        return error(r, "matrix '%s' has %d row%s, needs n = %d", name,
                     count, count == 1 ? "" : "s", n);
    *at = i;
    return HD_SPEC_OK;
}

/* b BITS, character i being b_i. */
static int parse_complement(reader *r, int *at, const char *name, uint64_t *b)
{
    int n = r->spec->n, i = *at + 1;
    if (i >= r->ntok)
        return error(r, "'b' of lcc '%s' needs a vector of n = %d bits",
                     name, n);
    const char *tok = r->tok[i];
    const char *bad = first_non_bit(tok);
    if (bad)
        return error(r, "b of lcc '%s' has '%c' at position %d: bits are "
                     "0 or 1", name, *bad, (int)(bad - tok));
    if (strlen(tok) != (size_t)n)
        return error(r, "b of lcc '%s' has %zu bit%s, needs n = %d", name,
                     strlen(tok), strlen(tok) == 1 ? "" : "s", n);
    *b = bits_value(tok);
    *at = i + 1;
    return HD_SPEC_OK;
}

static int add_lcc(reader *r, const char *name, const hd_lcc *c)
{
    hd_spec *s = r->spec;
    hd_xreserve(&s->lccs, &r->lcccap, s->m + 1, sizeof *s->lccs);
    char *copy = hd_xstrdup(name);
    memset(&s->lccs[s->m], 0, sizeof s->lccs[s->m]);
    s->lccs[s->m].name = copy;
    s->lccs[s->m].line = r->line;
    s->lccs[s->m].ref = -1;   /* no C reference */
    hd_lcc *kept = hd_arena_alloc(&s->store, sizeof *kept);
    *kept = *c;
    s->lccs[s->m].comm = (hd_comm){ .kind = HD_COMM_LCC, .lcc = kept };
    s->m++;
    return HD_SPEC_OK;
}

/* lcc NAME [gather|scatter] (perm ... | matrix ...) [b BITS] */
static int directive_lcc(reader *r)
{
    hd_spec *s = r->spec;
    if (!s->n)
        return error(r, "'lcc' before 'n': give the hypercube dimension "
                     "first, e.g. 'n 8'");
    if (r->ntok < 2)
        return error(r, "'lcc' needs a name, e.g. 'lcc transpose perm ...'");
    const char *name = r->tok[1];
    if (is_keyword(name))
        return error(r, "'lcc' needs a name before '%s' (keywords are not "
                     "names)", name);
    if (!is_name(name))
        return error(r, "'%.40s' is not a valid lcc name: use letters, "
                     "digits, '_', '.', '-', starting with a letter or '_'",
                     name);
    for (int k = 0; k < s->m; k++)
        if (equal(s->lccs[k].name, name))
            return error(r, "duplicate lcc name '%s' (first defined on line "
                         "%d)", name, s->lccs[k].line);

    hd_lcc c = { HD_GATHER, hd_matrix_zero(s->n), 0 };
    int i = 2, rc;
    if (i < r->ntok && equal(r->tok[i], "scatter")) {
        c.dir = HD_SCATTER;
        i++;
    } else if (i < r->ntok && equal(r->tok[i], "gather")) {
        i++;
    }

    if (i >= r->ntok)
        return error(r, "lcc '%s' needs its form: 'perm' or 'matrix'", name);
    if (equal(r->tok[i], "perm")) {
        i++;
        rc = parse_perm(r, &i, name, &c.A);
    } else if (equal(r->tok[i], "matrix")) {
        i++;
        rc = parse_matrix(r, &i, name, &c.A);
    } else {
        return error(r, "unknown form '%.40s' for lcc '%s': expected 'perm' "
                     "or 'matrix'", r->tok[i], name);
    }
    if (rc != HD_SPEC_OK)
        return rc;

    if (i < r->ntok && equal(r->tok[i], "b")) {
        rc = parse_complement(r, &i, name, &c.b);
        if (rc != HD_SPEC_OK)
            return rc;
    }
    if (i < r->ntok)
        return error(r, "unexpected '%.40s' at the end of lcc '%s'",
                     r->tok[i], name);
    return add_lcc(r, name, &c);
}

/* ------------------------------------------------------- programs */

/* array NAME ... — the vectors of a program (Wu 1984's vector variables):
 * declared before the statements that use them, each once. */
static int directive_array(reader *r)
{
    hd_spec *s = r->spec;
    if (!s->n)
        return error(r, "'array' before 'n': give the hypercube dimension first, e.g. 'n 3'");
    if (r->ntok < 2)
        return error(r, "'array' needs the names of one or more vectors, e.g. 'array A B'");
    for (int i = 1; i < r->ntok; i++) {
        const char *name = r->tok[i];
        if (!is_name(name) || is_keyword(name))
            return error(r, "'%.40s' is not a valid array name: use letters, digits, '_', "
                         "'.', '-', starting with a letter or '_'", name);
        int v = vector_named(s, name);
        if (v >= 0)
            return error(r, "array '%s' declared twice (first on line %d)", name,
                         s->vector_lines[v]);
        int cap = r->vectorcap;
        hd_xreserve(&s->vectors, &r->vectorcap, s->nvectors + 1, sizeof *s->vectors);
        if (r->vectorcap != cap)
            s->vector_lines = hd_xrealloc(s->vector_lines,
                                          (size_t)r->vectorcap * sizeof *s->vector_lines);
        s->vectors[s->nvectors] = hd_xstrdup(name);
        s->vector_lines[s->nvectors++] = r->line;
    }
    return HD_SPEC_OK;
}

static void skip_blanks(reader *r)
{
    while (r->expr[r->at] == ' ')
        r->at++;
}

/* A name at the parser's position, copied into buf (empty when none). */
static void take_name(reader *r, char *buf, size_t size)
{
    size_t k = 0;
    skip_blanks(r);
    const char *p = r->expr + r->at;
    if (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
        while (p[k] == '_' || p[k] == '.' || p[k] == '-' || (p[k] >= 'A' && p[k] <= 'Z') ||
               (p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9'))
            k++;
    size_t copy = k < size - 1 ? k : size - 1;
    memcpy(buf, p, copy);
    buf[copy] = '\0';
    r->at += k;
}

static int add_node(reader *r, hd_spec_node node)
{
    hd_spec_stmt *st = r->stmt;
    hd_xreserve(&st->nodes, &r->nodecap, st->nnodes + 1, sizeof *st->nodes);
    st->nodes[st->nnodes] = node;
    return st->nnodes++;
}

static int parse_expr(reader *r, int *node);

/* factor = "(" expr ")" | NAME ("[" NAME "]")?
 * A leaf: the vector NAME read through the transfer of the lcc in
 * brackets (Wu's P_v; none: the identity), which must be a permutation. */
static int parse_factor(reader *r, int *node)
{
    hd_spec *s = r->spec;
    skip_blanks(r);
    if (r->expr[r->at] == '(') {
        r->at++;
        int rc = parse_expr(r, node);
        if (rc != HD_SPEC_OK)
            return rc;
        skip_blanks(r);
        if (r->expr[r->at] != ')')
            return error(r, "expected ')' in the statement, found '%.20s'", r->expr + r->at);
        r->at++;
        return HD_SPEC_OK;
    }
    char name[64];
    take_name(r, name, sizeof name);
    if (!name[0])
        return error(r, "expected an array name or '(' in the statement, found '%.20s'",
                     r->expr[r->at] ? r->expr + r->at : "the end of the line");
    int v = vector_named(s, name);
    if (v < 0)
        return error(r, "'%s' is not a declared array (declare it with 'array %s')", name, name);
    hd_spec_node leaf = { 0, -1, -1, v, -1 };
    skip_blanks(r);
    if (r->expr[r->at] == '[') {
        r->at++;
        char t[64];
        take_name(r, t, sizeof t);
        int k = t[0] ? lcc_named(s, t) : -1;
        if (!t[0])
            return error(r, "expected an lcc name in '%s[...]'", name);
        if (k < 0)
            return error(r, "'%s' is not an lcc defined above", t);
        if (hd_rank(&s->lccs[k].comm.lcc->A) != s->n)
            return error(r, "lcc '%s' is not a permutation: the transfers of Wu 1984's programs "
                         "are bijections", t);
        skip_blanks(r);
        if (r->expr[r->at] != ']')
            return error(r, "expected ']' after '%s[%s'", name, t);
        r->at++;
        leaf.lcc = k;
    }
    *node = add_node(r, leaf);
    return HD_SPEC_OK;
}

/* term = factor (("*" | "/") factor)*, and
 * expr = term (("+" | "-") term)*: binary operations, left to right. */
static int parse_binary(reader *r, int *node, const char *ops,
                        int (*operand)(reader *, int *))
{
    int rc = operand(r, node);
    for (;;) {
        if (rc != HD_SPEC_OK)
            return rc;
        skip_blanks(r);
        char op = r->expr[r->at];
        if (!op || !strchr(ops, op))
            return HD_SPEC_OK;
        r->at++;
        int right;
        rc = operand(r, &right);
        if (rc == HD_SPEC_OK)
            *node = add_node(r, (hd_spec_node){ op, *node, right, -1, -1 });
    }
}

static int parse_term(reader *r, int *node)
{
    return parse_binary(r, node, "*/", parse_factor);
}

static int parse_expr(reader *r, int *node)
{
    return parse_binary(r, node, "+-", parse_term);
}

/* stmt = "stmt" NAME "=" expr
 * One parallel assignment of Wu 1984 (Section 1.2): the vector NAME gets
 * the value of the expression tree, computed where NAME's elements live
 * (owner computes: the root's alignment is NAME's mapping). */
static int directive_stmt(reader *r)
{
    hd_spec *s = r->spec;
    if (!s->n)
        return error(r, "'stmt' before 'n': give the hypercube dimension first, e.g. 'n 3'");
    /* The tokens again as one text, blanks kept single. */
    size_t len = 0;
    for (int i = 1; i < r->ntok; i++)
        len += strlen(r->tok[i]) + 1;
    char *text = hd_xmalloc(len + 1), *p = text;
    for (int i = 1; i < r->ntok; i++)
        p += sprintf(p, "%s%s", i > 1 ? " " : "", r->tok[i]);
    *p = '\0';
    hd_spec_stmt st = { r->line, -1, 0, NULL };
    r->expr = text;
    r->at = 0;
    r->stmt = &st;
    r->nodecap = 0;
    char lhs[64];
    take_name(r, lhs, sizeof lhs);
    int rc = HD_SPEC_OK, root = -1;
    if (!lhs[0])
        rc = error(r, "'stmt' needs 'ARRAY = expression', e.g. 'stmt C = A[s] * B'");
    else if ((st.lhs = vector_named(s, lhs)) < 0)
        rc = error(r, "'%s' is not a declared array (declare it with 'array %s')", lhs, lhs);
    if (rc == HD_SPEC_OK) {
        skip_blanks(r);
        if (r->expr[r->at] != '=')
            rc = error(r, "expected '=' after '%s'", lhs);
        else
            r->at++;
    }
    if (rc == HD_SPEC_OK)
        rc = parse_expr(r, &root);
    if (rc == HD_SPEC_OK) {
        skip_blanks(r);
        if (r->expr[r->at])
            rc = error(r, "unexpected '%.20s' at the end of the statement", r->expr + r->at);
    }
    free(text);
    if (rc != HD_SPEC_OK) {
        free(st.nodes);
        return rc;
    }
    hd_xreserve(&s->stmts, &r->stmtcap, s->nstmts + 1, sizeof *s->stmts);
    s->stmts[s->nstmts++] = st;
    return HD_SPEC_OK;
}

/* loop = "loop" K, then statements and loops, then "end"
 * Wu 1984's programs repeat statements (the FFT's stages, the inversion's
 * steps); his algorithms take straight-line sequences, so a loop is its
 * body K times over, unrolled as it is read. */
static int directive_loop(reader *r)
{
    long times;
    if (!r->spec->n)
        return error(r, "'loop' before 'n': give the hypercube dimension first, e.g. 'n 3'");
    if (r->ntok != 2 || !parse_number(r->tok[1], &times) || times < 1 ||
        times > HD_SPEC_MAX_STMTS)
        return error(r, "'loop' needs a count from 1 to %d, e.g. 'loop 4'", HD_SPEC_MAX_STMTS);
    if (r->nloops == HD_SPEC_MAX_LOOP_DEPTH)
        return error(r, "loops nested deeper than %d", HD_SPEC_MAX_LOOP_DEPTH);
    r->loops[r->nloops++] = (struct open_loop){ r->line, times, r->spec->nstmts };
    return HD_SPEC_OK;
}

static int directive_end(reader *r)
{
    if (r->ntok != 1)
        return error(r, "'end' takes nothing after it");
    if (r->nloops == 0)
        return error(r, "'end' without a 'loop' to close");
    struct open_loop lp = r->loops[--r->nloops];
    hd_spec *s = r->spec;
    int body = s->nstmts - lp.first;
    if (body == 0)
        return error(r, "the loop of line %d has no statement", lp.line);
    if ((long)body * lp.times > HD_SPEC_MAX_STMTS - lp.first)
        return error(r, "the loop of line %d makes more than %d statements", lp.line,
                     HD_SPEC_MAX_STMTS);
    for (long t = 1; t < lp.times; t++)
        for (int k = 0; k < body; k++) {
            hd_spec_stmt st = s->stmts[lp.first + k];
            st.nodes = hd_xmalloc((size_t)st.nnodes * sizeof *st.nodes);
            memcpy(st.nodes, s->stmts[lp.first + k].nodes, (size_t)st.nnodes * sizeof *st.nodes);
            hd_xreserve(&s->stmts, &r->stmtcap, s->nstmts + 1, sizeof *s->stmts);
            s->stmts[s->nstmts++] = st;
        }
    return HD_SPEC_OK;
}

/* ------------------------------------------------------------ the file */

static int parse_line(reader *r)
{
    if (r->ntok == 0)
        return HD_SPEC_OK;
    if (equal(r->tok[0], "n"))
        return directive_n(r);
    if (equal(r->tok[0], "lcc"))
        return directive_lcc(r);
    if (equal(r->tok[0], "array"))
        return directive_array(r);
    if (equal(r->tok[0], "stmt"))
        return directive_stmt(r);
    if (equal(r->tok[0], "loop"))
        return directive_loop(r);
    if (equal(r->tok[0], "end"))
        return directive_end(r);
    return error(r, "unknown directive '%.40s': expected 'n', 'lcc', 'array', 'stmt', "
                 "'loop' or 'end'", r->tok[0]);
}

static int parse(const char *text, size_t len, const char *path,
                 hd_spec *out, hd_diag *err)
{
    hd_spec spec = { .lccs = NULL };
    reader r = { .path = path, .err = err, .spec = &spec };
    int rc = HD_SPEC_OK;
    const char *p = text, *end = text + len;

    while (rc == HD_SPEC_OK && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        r.line++;
        rc = tokenize(&r, p, (size_t)(eol - p));
        if (rc == HD_SPEC_OK && r.nloops && r.ntok && !equal(r.tok[0], "stmt") &&
            !equal(r.tok[0], "loop") && !equal(r.tok[0], "end"))
            rc = error(&r, "only 'stmt', 'loop' and 'end' may stand inside a loop (the loop "
                       "of line %d)", r.loops[r.nloops - 1].line);
        if (rc == HD_SPEC_OK)
            rc = parse_line(&r);
        p = nl ? nl + 1 : end;
    }
    if (rc == HD_SPEC_OK && r.nloops) {
        r.line = r.loops[r.nloops - 1].line;
        rc = error(&r, "the loop of this line has no 'end'");
    }
    if (rc == HD_SPEC_OK && spec.m == 0) {
        r.line = r.line ? r.line : 1;
        rc = error(&r, "no 'lcc' lines: nothing to analyze");
    }

    free(r.buf);
    free(r.tok);
    if (rc != HD_SPEC_OK)
        hd_spec_free(&spec);
    *out = spec;
    return rc;
}

int hd_spec_parse_string(const char *text, const char *path, hd_spec *out,
                         hd_diag *err)
{
    return parse(text, strlen(text), path, out, err);
}

int hd_spec_read(FILE *in, const char *path, hd_spec *out, hd_diag *err)
{
    size_t len = 0, cap = 4096;
    char *text = hd_xmalloc(cap);
    out->n = out->n_line = out->m = 0;
    out->lccs = NULL;
    err->path = path;
    err->line = 0;
    for (;;) {
        if (len == cap)
            text = hd_xrealloc(text, cap *= 2);
        size_t got = fread(text + len, 1, cap - len, in);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(in)) {
        int e = errno;
        free(text);
        snprintf(err->message, sizeof err->message, "cannot read '%s': %s",
                 path, strerror(e));
        return HD_SPEC_EIO;
    }
    int rc = parse(text, len, path, out, err);
    free(text);
    return rc;
}
