/*
 * analyze.c — `hyperdo analyze`: read a set of LCCs, compute each one's
 * channel contention (Theorem 1), its own optimal reordering mapping
 * (Section 4) and one mapping for the whole set (Section 5), and print
 * either a report for people or one JSON object for programs.
 *
 * Section numbers are those of Hou et al. 2001 (Hou, Wang, Ku, Hsu, "Optimal
 * processor mapping for linear-complement communication on hypercubes").
 *
 * Nothing reaches stdout until the whole answer has been built, so a
 * failure leaves stdout empty and a diagnostic on stderr.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis.h"
#include "commands.h"
#include "frontend.h"

/* ------------------------------------------------------- command line */

typedef struct {
    bool json;
    hd_objective objective;
    const char *path;
    int dim;                  /* --dim for C files, 0 when absent */
    const char *build_dir;    /* -p */
    int nclang;               /* compiler arguments after FILE -- */
    char **clang;
    int kind;                 /* --spec (1), --c (2), or 0: by the name */
} options;

static const char usage_line[] =
    "usage: hyperdo analyze [--json] [--objective max|maxsum|sum] [--dim n] "
    "[-p builddir] [--spec|--c] FILE [-- clang args...]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Reads a set of linear-complement communications (LCCs) and reports,\n"
        "for an e-cube routed hypercube, how many paths share a channel of\n"
        "each dimension (Hou et al. 2001, Theorem 1), the best renaming of\n"
        "processors for each LCC alone (its Fig. 3 and Theorem 4) and the best\n"
        "one for the whole set (its Section 5 dynamic program).  References:\n"
        "docs/references.md.\n"
        "\n"
        "FILE is a C file annotated with '#pragma hyperdo doall' loops (see\n"
        "docs/annotations.md), or an LCC spec: a spec when its name ends in\n"
        "  .lcc or it is - (standard input), C otherwise; --spec and --c\n"
        "  decide instead.  Example of a spec:\n"
        "  n 8\n"
        "  lcc transpose perm 4 5 6 7 0 1 2 3     # y_i = x_{p_i}\n"
        "  lcc revflip perm 7 6 5 4 3 2 1 0 b 11111111\n"
        "  lcc scale scatter matrix 01000000 00100000 00010000 00000000 "
        "00000100 00000010 00000001 00000000\n"
        "\n"
        "Options:\n"
        "  --json              print one JSON object instead of the report\n"
        "  --spec, --c         read FILE as an LCC spec, or as C, whatever its name\n"
        "  --dim n             C files: the cube has 2^n processors (wins over\n"
        "                      '#pragma hyperdo cube(n)')\n"
        "  -p builddir         C files: take compiler flags from\n"
        "                      builddir/compile_commands.json\n"
        "  -- ARGS             after FILE: extra arguments for clang\n"
        "  --objective OBJ     what the set mapping minimises (default max):\n"
        "                        max     the largest T(A_r, b_r) of any LCC\n"
        "                        maxsum  the largest sum over LCCs of T_i\n"
        "                        sum     the sum over LCCs and dimensions\n"
        "  -h, --help          show this help and exit\n",
        usage_line);
}

/* analyze's options; --spec and --c say how FILE is read. */
static int take_kind(const hd_command_line *cl, options *opt, int kind)
{
    if (opt->kind && opt->kind != kind)
        return hd_option_error(cl, "'--spec' and '--c' exclude each other");
    opt->kind = kind;
    return -1;
}

static int take_spec(const hd_command_line *cl, void *dest, const char *value)
{
    (void)value;
    return take_kind(cl, dest, 1);
}

static int take_c(const hd_command_line *cl, void *dest, const char *value)
{
    (void)value;
    return take_kind(cl, dest, 2);
}

static int take_objective(const hd_command_line *cl, void *dest, const char *value)
{
    if (!value)
        return hd_option_error(cl, "option '--objective' needs a value: max, "
                               "maxsum or sum");
    if (!hd_objective_parse(value, &((options *)dest)->objective))
        return hd_option_error(cl, "unknown objective '%s': expected max, "
                               "maxsum or sum", value);
    return -1;
}

static int take_dim(const hd_command_line *cl, void *dest, const char *value)
{
    long v;
    if (!hd_option_long(value, 1, HD_DP_MAX_DIM, &v))
        return hd_option_error(cl, "option '--dim' needs an integer from 1 to "
                               "%d", HD_DP_MAX_DIM);
    ((options *)dest)->dim = (int)v;
    return -1;
}

static int take_build_dir(const hd_command_line *cl, void *dest, const char *value)
{
    if (!value)
        return hd_option_error(cl, "option '-p' needs a build directory");
    ((options *)dest)->build_dir = value;
    return -1;
}

static const hd_option analyze_options[] = {
    { "--json", false, NULL, offsetof(options, json) },
    { "--spec", false, take_spec, 0 },
    { "--c", false, take_c, 0 },
    { "--objective", true, take_objective, 0 },
    { "--dim", true, take_dim, 0 },
    { "-p", true, take_build_dir, 0 },
    { NULL, false, NULL, 0 },
};

/* Returns -1 to go on, or the exit status to leave with. */
static int parse_options(int argc, char **argv, options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->objective = HD_OBJ_MAX;
    /* FILE -- ARGS: the rest goes to clang, as in clang tools; "--"
     * before FILE ends the options. */
    hd_command_line cl = {
        .command = "analyze", .usage_line = usage_line, .help = print_help,
        .operand = "FILE",
        .missing = "missing FILE (an .lcc spec, or - for standard input)",
        .dashdash_ends_options = true, .rest_after_operand = true,
        .tables = { { analyze_options, opt }, { NULL, NULL } },
    };
    hd_operands ops;
    int rc = hd_parse_command_line(&cl, argc, argv, &ops);
    if (rc >= 0)
        return rc;
    opt->path = ops.operand;
    opt->nclang = ops.nrest;
    opt->clang = ops.rest;
    return -1;
}

/* ------------------------------------------------------- reading */

/* Which reader understands a file, by its extension.  Standard input is
 * taken to be a spec. */
typedef struct {
    const char *extension;
    int (*read)(FILE *in, const char *path, hd_spec *out, hd_diag *err);
} reader;

static const reader readers[] = {
    { ".lcc", hd_spec_read },
};

/* The spec reader, or NULL for the C reader (every other file). */
static const reader *reader_for(const char *path)
{
    size_t len = strlen(path);
    if (strcmp(path, "-") == 0)
        return &readers[0];
    for (size_t k = 0; k < sizeof readers / sizeof readers[0]; k++) {
        size_t e = strlen(readers[k].extension);
        if (len > e && strcmp(path + len - e, readers[k].extension) == 0)
            return &readers[k];
    }
    return NULL;
}

static int read_c(const options *opt, hd_spec *spec)
{
    hd_program prog;
    hd_c_options copt = { opt->dim, opt->nclang, (const char *const *)opt->clang,
                          opt->build_dir, NULL, false };
    if (hd_read_c_program(opt->path, copt, &prog) != HD_EXIT_OK)
        return HD_EXIT_FAILURE;
    hd_program_spec(&prog, spec);
    hd_program_free(&prog);
    return HD_EXIT_OK;
}

static void print_diag(const hd_diag *d)
{
    if (d->line > 0)
        fprintf(stderr, "%s:%d: error: %s\n", d->path, d->line, d->message);
    else
        fprintf(stderr, "hyperdo: error: %s\n", d->message);
}

/* How the kind of an input was decided, said when reading it failed and
 * the name did not make it plain (standard input is a spec, as the help
 * says, unless --c). */
static void say_kind(const options *opt)
{
    const char *path = opt->path;
    size_t len = strlen(path);
    bool plain = opt->kind || strcmp(path, "-") == 0 || (len > 4 && strcmp(path + len - 4, ".lcc") == 0) ||
                 (len > 2 && (strcmp(path + len - 2, ".c") == 0 || strcmp(path + len - 2, ".h") == 0));
    if (plain)
        return;
    fprintf(stderr, "hyperdo: note: '%s' was read as C because its name does not "
                        "end in .lcc; '--spec' reads it as an LCC spec\n", path);
}

static int read_input(const options *opt, hd_spec *spec)
{
    const char *path = opt->path;
    const reader *rd = opt->kind == 2 ? NULL : opt->kind == 1 ? &readers[0] : reader_for(path);
    if (!rd) {
        int status = read_c(opt, spec);
        if (status == HD_EXIT_FAILURE)
            say_kind(opt);
        return status;
    }
    if (opt->dim || opt->build_dir || opt->nclang) {
        fprintf(stderr, "hyperdo: error: --dim, -p and clang arguments apply "
                        "to C files, not to the spec '%s'\n", path);
        return HD_EXIT_USAGE;
    }
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *in = is_stdin ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "hyperdo: error: cannot open '%s': %s\n", path,
                strerror(errno));
        return HD_EXIT_FAILURE;
    }
    hd_diag diag;
    int rc = rd->read(in, name, spec, &diag);
    if (!is_stdin)
        fclose(in);
    if (rc != HD_SPEC_OK) {
        print_diag(&diag);
        return HD_EXIT_FAILURE;
    }
    /* The format allows n up to 64, but the set optimizer keeps a table
     * over all 2^n subsets of address bits (Theorem 5). */
    if (spec->n > HD_DP_MAX_DIM) {
        fprintf(stderr, "%s:%d: error: n = %d is too large: the set "
                "optimizer (Hou et al. 2001, Section 5) handles at most n = %d (its dynamic program "
                "keeps a table over all 2^n subsets of address bits)\n",
                name, spec->n_line, spec->n, HD_DP_MAX_DIM);
        hd_spec_free(spec);
        return HD_EXIT_FAILURE;
    }
    return HD_EXIT_OK;
}

/* ------------------------------------------------------- analysis */

/* The plan (analysis.h) and the input's name, for the report. */
typedef hd_plan_comm lcc_result;

typedef struct {
    const char *name;
    hd_plan p;
} result;

/* ------------------------------------------------------- JSON */

static const char *kind_name(hd_direction dir)
{
    return dir == HD_GATHER ? "gather" : "scatter";
}

/* Character j is bit j: a matrix row a_i0 .. a_i,n-1, or b_0 .. b_{n-1}. */
static void bit_string(uint64_t v, int n, char *s)
{
    for (int j = 0; j < n; j++)
        s[j] = ((v >> j) & 1) ? '1' : '0';
    s[n] = '\0';
}

static json_t *json_counts(const uint64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

static json_t *json_order(const hd_order *o)
{
    json_t *a = json_array();
    for (int k = 0; k < o->n; k++)
        json_array_append_new(a, json_integer(o->r[k]));
    return a;
}

/* The fields an LCC's entry shares with every entry of an equal LCC, up
 * to contention_before (contention_after waits for the set's order). */
static json_t *json_lcc_before(const lcc_result *l, int n)
{
    const hd_lcc *c = &l->in->lcc;
    char bits[HD_MAX_DIM + 1];
    json_t *o = json_object(), *rows = json_array();
    for (int i = 0; i < n; i++) {
        bit_string(c->A.row[i], n, bits);
        json_array_append_new(rows, json_string(bits));
    }
    json_object_set_new(o, "class", json_string(hd_lcc_class_name(l->price->class)));
    json_object_set_new(o, "kind", json_string(kind_name(c->dir)));
    json_object_set_new(o, "bpc", json_boolean(l->price->bpc));
    json_object_set_new(o, "rank", json_integer(l->price->rank));
    json_object_set_new(o, "A", rows);
    bit_string(c->b, n, bits);
    json_object_set_new(o, "b", json_string(bits));
    json_object_set_new(o, "contention_before", json_counts(l->price->before, n));
    return o;
}

/* The shared fields after contention_after. */
static json_t *json_lcc_alone(const lcc_result *l, int n)
{
    json_t *o = json_object();
    json_object_set_new(o, "alone_order", json_order(&l->price->alone_order));
    json_object_set_new(o, "alone_contention", json_counts(l->price->alone, n));
    return o;
}

/* The members of object o as jansson encodes them, without the braces
 * ("" for an empty object, NULL when out of memory); takes o. */
static char *members(json_t *o)
{
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return NULL;
    size_t len = strlen(text);
    memmove(text, text + 1, len - 2);
    text[len - 2] = '\0';
    return text;
}

static void put_members(FILE *out, json_t *o)
{
    char *text = members(o);
    if (text)
        fputs(text, out);
    free(text);
}

/* Length of the valid UTF-8 sequence at s (RFC 3629), or 0. */
static size_t utf8_length(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
             : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||     /* overlong */
        (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||    /* surrogates */
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
        (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))      /* beyond U+10FFFF */
        return 0;
    return n;
}

/* s with every byte that is not part of valid UTF-8 replaced by U+FFFD, as
 * text editors show it: a C file's bytes need not be UTF-8, but JSON's
 * must. */
static char *valid_utf8(const char *s)
{
    size_t len = strlen(s);
    char *d = hd_xmalloc(3 * len + 1), *o = d;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_length(p);
        if (n) {
            memcpy(o, p, n);
            o += n;
            p += n;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            p++;
        }
    }
    *o = '\0';
    return d;
}

/* A string as jansson encodes it, quotes and all (NULL: out of memory). */
static char *encoded(const char *s)
{
    json_t *j = json_string(s);
    if (!j) {
        char *fixed = valid_utf8(s);
        j = json_string(fixed);
        free(fixed);
    }
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return text;
}

/*
 * Strings already encoded, by their text: a C file's entries repeat names
 * (8,541 entries, 3,204 names in the benchmark), and each json_dumps call
 * sets up more than the string costs.  Open addressing; keys are the
 * caller's strings, which outlive the table.
 */
typedef struct {
    size_t slots;
    const char **key;
    char **text;
} string_cache;

static size_t string_hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

/* s encoded, from the cache when it can be; NULL when out of memory. */
static const char *cached(string_cache *c, const char *s)
{
    size_t k = string_hash(s) & (c->slots - 1);
    while (c->key[k] && strcmp(c->key[k], s) != 0)
        k = (k + 1) & (c->slots - 1);
    if (!c->key[k]) {
        c->text[k] = encoded(s);
        if (!c->text[k])
            return NULL;
        c->key[k] = s;
    }
    return c->text[k];
}

static void put_key(FILE *out, const char *key)
{
    fputc('"', out);
    fputs(key, out);
    fputs("\":", out);
}

/* Writes `"key":s` after sep, as a jansson object would have it: not at
 * all when s cannot be encoded (not UTF-8).  Returns the next separator. */
static const char *put_member(FILE *out, string_cache *c, const char *sep,
                              const char *key, const char *s)
{
    const char *text = cached(c, s);
    if (!text)
        return sep;
    fputs(sep, out);
    put_key(out, key);
    fputs(text, out);
    return ",";
}

/* `,"key":v` with v as jansson writes an integer ("%lld"), without the
 * cost of a printf per number. */
static void put_integer(FILE *out, const char *sep, const char *key, json_int_t v)
{
    char digits[32], *p = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    *--p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    fputs(sep, out);
    put_key(out, key);
    fputs(p, out);
}

/*
 * The pieces of the JSON that do not depend on the set's order, encoded
 * while the set optimizer runs: every entry's strings, and for each
 * distinct LCC its shared fields before and after contention_after.
 */
typedef struct {
    string_cache strings;
    char **before, **alone;    /* at the LCC's first entry */
} json_parts;

static void free_parts(json_parts *p, int m)
{
    for (size_t k = 0; p->strings.text && k < p->strings.slots; k++)
        free(p->strings.text[k]);
    for (int r = 0; r < m; r++) {
        if (p->before)
            free(p->before[r]);
        if (p->alone)
            free(p->alone[r]);
    }
    free(p->strings.key);
    free(p->strings.text);
    free(p->before);
    free(p->alone);
}

static void encode_parts(const result *res, json_parts *p)
{
    /* At most three strings per entry, so at most half the slots used. */
    p->strings.slots = 16;
    while (p->strings.slots < 6 * (size_t)res->p.m)
        p->strings.slots *= 2;
    p->strings.key = hd_xcalloc(p->strings.slots, sizeof *p->strings.key);
    p->strings.text = hd_xcalloc(p->strings.slots, sizeof *p->strings.text);
    p->before = hd_xcalloc((size_t)res->p.m + 1, sizeof *p->before);
    p->alone = hd_xcalloc((size_t)res->p.m + 1, sizeof *p->alone);
    for (int r = 0; r < res->p.m; r++) {
        const lcc_result *l = &res->p.comm[r];
        cached(&p->strings, l->in->name);
        if (l->in->reason)
            cached(&p->strings, l->in->reason);
        if (l->in->array)
            cached(&p->strings, l->in->array);
        if (!l->in->reason && l->first == r) {
            p->before[r] = members(json_lcc_before(l, res->p.n));
            p->alone[r] = members(json_lcc_alone(l, res->p.n));
        }
    }
}

/*
 * The whole answer as one newly allocated, newline-terminated string, in
 * compact form.  A C file gives thousands of entries, most of them sharing
 * an LCC; a single jansson tree of it all cost more than parsing the file,
 * so every entry is joined from pieces: the fields of each distinct LCC
 * encoded once by jansson, each entry's strings encoded by jansson, and
 * the fixed keys and integers written as jansson writes them ("%lld", no
 * spaces), which costs a tenth of a jansson object per entry.
 */
static char *render_json(const result *res, json_parts *parts)
{
    char *text = NULL, **after = hd_xcalloc((size_t)res->p.m + 1, sizeof *after);
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) {
        free(after);
        return NULL;
    }
    json_t *head = json_object();
    json_object_set_new(head, "n", json_integer(res->p.n));
    json_object_set_new(head, "objective",
                        json_string(hd_objective_name(res->p.objective)));
    json_object_set_new(head, "order", json_order(&res->p.order));
    json_object_set_new(head, "cost", json_integer((json_int_t)res->p.cost));
    fputc('{', out);
    put_members(out, head);
    fputs(",\"lccs\":[", out);
    string_cache *strings = &parts->strings;
    for (int r = 0; r < res->p.m; r++) {
        const lcc_result *l = &res->p.comm[r];
        fputs(r ? ",{" : "{", out);
        const char *sep = put_member(out, strings, "", "name", l->in->name);
        if (l->in->reason) {
            fputs(sep, out);
            fputs("\"class\":\"general\"", out);
            put_member(out, strings, ",", "reason", l->in->reason);
        } else {
            /* The shared fields, as one jansson object would have them. */
            int f = l->first;
            if (!after[f]) {
                json_t *o = json_object();
                json_object_set_new(o, "contention_after",
                                    json_counts(l->price->after, res->p.n));
                after[f] = members(o);
            }
            const char *pieces[3] = { parts->before[f], after[f], parts->alone[f] };
            fputc(',', out);
            sep = "";
            for (int k = 0; k < 3; k++)
                if (pieces[k] && pieces[k][0]) {
                    fputs(sep, out);
                    fputs(pieces[k], out);
                    sep = ",";
                }
        }
        /* Where a reference of a C file is; nothing for spec entries. */
        if (l->in->array) {
            sep = put_member(out, strings, ",", "array", l->in->array);
            put_integer(out, sep, "line", l->in->line);
            put_integer(out, ",", "col", l->in->col);
            put_integer(out, ",", "loop_line", l->in->loop_line);
        }
        fputc('}', out);
    }
    fputs("]}\n", out);
    for (int r = 0; r < res->p.m; r++)
        free(after[r]);
    free(after);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* ------------------------------------------------------- the report */

/* Prints row i of a matrix as the paper does, a_i0 first, with the i-th
 * entry of a vector beside it. */
static void print_matrix(FILE *out, const char *title, const hd_matrix *a,
                         const char *vtitle, const uint64_t *v)
{
    int n = a->n;
    /* Each row is "    i  | a_i0 .. a_i,n-1 |  | v_i |": the entries start
     * in column 12, the vector's in column 2n + 17. */
    if (v) {
        int pad = 2 * n + 5 - (int)strlen(title);
        fprintf(out, "%12s%s%*s%s\n", "", title, pad > 1 ? pad : 1, "",
                vtitle);
    } else {
        fprintf(out, "%12s%s\n", "", title);
    }
    for (int i = 0; i < n; i++) {
        fprintf(out, "    %4d  |", i);
        for (int j = 0; j < n; j++)
            fprintf(out, " %d", (int)((a->row[i] >> j) & 1));
        fprintf(out, " |");
        if (v)
            fprintf(out, "  | %d |", (int)((*v >> i) & 1));
        fputc('\n', out);
    }
}

static int digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Wide enough for every count and for the header "T_<n-1>". */
static int count_width(const result *res)
{
    int w = 2 + digits((uint64_t)(res->p.n - 1));
    for (int r = 0; r < res->p.m; r++)
        for (int i = 0; res->p.comm[r].price && i < res->p.n; i++) {
            const lcc_result *l = &res->p.comm[r];
            uint64_t v[3] = { l->price->before[i], l->price->alone[i], l->price->after[i] };
            for (int k = 0; k < 3; k++)
                if (digits(v[k]) > w)
                    w = digits(v[k]);
        }
    return w;
}

static void print_counts_header(FILE *out, const char *lead, int n, int w)
{
    fprintf(out, "%s", lead);
    for (int i = 0; i < n; i++)
        fprintf(out, " %*s%d", w - digits((uint64_t)i), "T_", i);
}

static void print_counts(FILE *out, const char *lead, const uint64_t *T,
                         int n, int w)
{
    fprintf(out, "%s", lead);
    for (int i = 0; i < n; i++)
        fprintf(out, " %*llu", w, (unsigned long long)T[i]);
}

static void print_order(FILE *out, const hd_order *o)
{
    fprintf(out, "R(L_%d) = (", o->n);
    for (int k = 0; k < o->n; k++)
        fprintf(out, "%s%d", k ? ", " : "", o->r[k]);
    fputc(')', out);
}

static void print_general(FILE *out, const lcc_result *l, int index, int m)
{
    fprintf(out, "\n== Communication %d of %d: %s (line %d, column %d) ==\n",
            index + 1, m, l->in->name, l->in->line, l->in->col);
    fprintf(out, "  General, not an LCC: %s.\n"
            "  The mapping optimizer (Section 5) weighs LCCs only.\n",
            l->in->reason);
}

static void print_lcc(FILE *out, const lcc_result *l, int index, int m,
                      int w)
{
    const hd_lcc *c = &l->in->lcc;
    int n = c->A.n;
    bool gather = c->dir == HD_GATHER;

    if (l->in->reason) {
        print_general(out, l, index, m);
        return;
    }

    if (l->in->array)
        fprintf(out, "\n== LCC %d of %d: %s (line %d, column %d, loop on line "
                "%d) ==\n", index + 1, m, l->in->name, l->in->line, l->in->col,
                l->in->loop_line);
    else
        fprintf(out, "\n== LCC %d of %d: %s (line %d) ==\n", index + 1, m,
                l->in->name, l->in->line);
    if (gather)
        fprintf(out, "  %s: every source x sends to y = A x + b "
                "(Definition 1).\n", l->price->class == HD_LCP ? "permutation"
                                                         : "gather");
    else
        fprintf(out, "  scatter: every destination y receives from "
                "x = A y + b (Definition 4).\n");
    fprintf(out, "  Class %s", hd_lcc_class_name(l->price->class));
    if (l->price->class == HD_LCP)
        fprintf(out, " (A nonsingular, Definition 2)");
    else if (l->price->class == HD_LCG)
        fprintf(out, " (rank(A) < n, Definition 3)");
    else
        fprintf(out, " (rank(A) < n, Definition 4)");
    if (l->price->bpc)
        fprintf(out, ", BPC (A permutes the address bits)");
    fprintf(out, "; rank(A) = %d.\n\n", l->price->rank);
    print_matrix(out, "A", &c->A, "b", &c->b);

    fprintf(out, "\n  Contention as given: T_i paths share the busiest "
            "channel of dimension i\n");
    if (gather)
        fprintf(out, "  (Theorem 1: 2^(i - rank A[L_{i+1}, L_i]), or 0 where "
                "no message changes bit i).\n");
    else
        fprintf(out, "  (Theorem 1 mirrored for a scatter: "
                "2^((n-1-i) - rank A[H_i, H_{i+1}]), H_k = {k..n-1}).\n");
    print_counts_header(out, "          ", n, w);
    fputc('\n', out);
    print_counts(out, "          ", l->price->before, n, w);
    fprintf(out, "    degree T = %llu (Definition 6)\n",
            (unsigned long long)hd_contention_degree(l->price->before, n));

    fprintf(out, "\n  Best mapping for this LCC alone ");
    if (l->price->class == HD_LCP)
        fprintf(out, "(Fig. 3's LCP_Optimizer; Corollary 1: no contention):\n");
    else
        fprintf(out, "(Theorem 4; Corollary 2: the minimum "
                "2^((n-1) - rank A) = %llu):\n",
                (unsigned long long)(UINT64_C(1) << ((n - 1) - l->price->rank)));
    fprintf(out, "    ");
    print_order(out, &l->price->alone_order);
    fputc('\n', out);
    print_counts_header(out, "          ", n, w);
    fputc('\n', out);
    print_counts(out, "          ", l->price->alone, n, w);
    fprintf(out, "    degree T = %llu\n",
            (unsigned long long)hd_contention_degree(l->price->alone, n));
}

static const char *objective_meaning(hd_objective obj)
{
    switch (obj) {
    case HD_OBJ_MAX:
        return "the largest degree T(A_r, b_r) of any LCC\n"
               "  (for LCCs that run one at a time)";
    case HD_OBJ_MAXSUM:
        return "max over dimensions i of the sum over LCCs of T_i\n"
               "  (for LCCs that run simultaneously)";
    case HD_OBJ_SUM:
        return "the sum of T_i over all LCCs and dimensions";
    }
    return "?";
}

static int count_lccs(const result *res)
{
    int lccs = 0;
    for (int r = 0; r < res->p.m; r++)
        lccs += res->p.comm[r].in->reason == NULL;
    return lccs;
}

static void print_set_mapping(FILE *out, const result *res, int w)
{
    int n = res->p.n;
    hd_matrix q = hd_order_matrix(&res->p.order);

    int lccs = count_lccs(res);
    fprintf(out, "\n== One mapping for all %d LCC%s (Section 5) ==\n", lccs,
            lccs == 1 ? "" : "s");
    fprintf(out, "  Objective %s: minimise %s.\n",
            hd_objective_name(res->p.objective),
            objective_meaning(res->p.objective));
    fprintf(out, "  Theorem 5's dynamic program over subsets of address bits "
            "finds\n    ");
    print_order(out, &res->p.order);
    fprintf(out, "    cost = %llu\n", (unsigned long long)res->p.cost);
    if (res->p.objective != HD_OBJ_SUM)
        fprintf(out, "  (of the optimal orderings, one with the least total "
                "contention).\n");
    fprintf(out, "  New address bit k takes old bit r_k: processor x is "
            "renamed x' = Q x\n"
            "  (Definitions 7, 8), where row k of Q has its 1 in column "
            "r_k:\n\n");
    print_matrix(out, "Q", &q, NULL, NULL);
    fprintf(out, "\n  Theorem 2: under the new names a gather becomes "
            "y' = (Q A Q^-1) x' + Q b\n"
            "  (a scatter likewise x' = (Q A Q^-1) y' + Q b).\n");

    for (int r = 0; r < res->p.m; r++) {
        const lcc_result *l = &res->p.comm[r];
        if (l->in->reason)
            continue;
        fprintf(out, "\n  %s after the mapping:\n", l->in->name);
        print_matrix(out, "Q A Q^-1", &l->price->mapped.A, "Q b", &l->price->mapped.b);
        print_counts_header(out, "          ", n, w);
        fputc('\n', out);
        print_counts(out, "          ", l->price->after, n, w);
        fprintf(out, "    degree T = %llu\n",
                (unsigned long long)hd_contention_degree(l->price->after, n));
    }
}

static void print_summary(FILE *out, const result *res, int w)
{
    int n = res->p.n, namew = 3;
    for (int r = 0; r < res->p.m; r++) {
        int len = (int)strlen(res->p.comm[r].in->name);
        if (len > namew)
            namew = len;
    }
    fprintf(out, "\n== Contention before and after the mapping ==\n");
    fprintf(out, "  %-*s  %-6s ", namew, "LCC", "");
    print_counts_header(out, "", n, w);
    fprintf(out, "   %*s\n", w, "T");
    for (int r = 0; r < res->p.m; r++) {
        const lcc_result *l = &res->p.comm[r];
        if (l->in->reason) {
            fprintf(out, "  %-*s  general (not an LCC)\n", namew, l->in->name);
            continue;
        }
        fprintf(out, "  %-*s  %-6s ", namew, l->in->name, "before");
        print_counts(out, "", l->price->before, n, w);
        fprintf(out, "   %*llu\n", w,
                (unsigned long long)hd_contention_degree(l->price->before, n));
        fprintf(out, "  %-*s  %-6s ", namew, "", "after");
        print_counts(out, "", l->price->after, n, w);
        fprintf(out, "   %*llu\n", w,
                (unsigned long long)hd_contention_degree(l->price->after, n));
    }
}

static char *render_report(const result *res)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    int w = count_width(res);
    fprintf(out, "Hyperdo analysis of %s\n", res->name);
    int lccs = count_lccs(res);
    if (res->p.n == 0) {
        fprintf(out, "No '#pragma hyperdo doall' loop, no cube(n) and no "
                "--dim: there is nothing to map.\n");
    } else {
        fprintf(out, "%d-cube (%llu processors), e-cube wormhole routing, "
                "%d LCC%s", res->p.n, 1ULL << res->p.n, lccs, lccs == 1 ? "" : "s");
        if (res->p.m > lccs)
            fprintf(out, " and %d general communication%s", res->p.m - lccs,
                    res->p.m - lccs == 1 ? "" : "s");
        fprintf(out, ".\nNode x = sum x_i 2^i; row i of a matrix is printed "
                "a_i0 .. a_i,n-1 as in Hou et al. 2001, whose\n"
                "sections, definitions, theorems and figures are cited below.\n");
        for (int r = 0; r < res->p.m; r++)
            print_lcc(out, &res->p.comm[r], r, res->p.m, w);
        print_set_mapping(out, res, w);
        print_summary(out, res, w);
    }
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* ------------------------------------------------------- the command */

int hd_cmd_analyze(int argc, char **argv)
{
    options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;

    hd_spec spec;
    status = read_input(&opt, &spec);
    if (status != HD_EXIT_OK)
        return status;

    result res;
    res.name = strcmp(opt.path, "-") == 0 ? "<stdin>" : opt.path;
    hd_target target = hd_target_ecube(spec.n);
    int rc = hd_plan_build(&spec, &target, opt.objective, HD_MAPPING_OPTIMAL, &res.p);
    if (rc != HD_OK) {
        fprintf(stderr, "hyperdo: error: the set optimizer failed (internal error)\n");
        status = HD_EXIT_FAILURE;
    } else {
        json_parts parts;
        memset(&parts, 0, sizeof parts);
        if (opt.json)
            encode_parts(&res, &parts);
        status = hd_print_text(opt.json ? render_json(&res, &parts) : render_report(&res));
        free_parts(&parts, res.p.m);
        hd_plan_free(&res.p);
    }
    hd_spec_free(&spec);
    return status;
}
