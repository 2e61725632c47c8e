/*
 * codegen.c — writes the SPMD program (codegen.h; docs/codegen.md).
 *
 * The output is the input file with a few edits, applied in one pass from
 * the start of the file to its end:
 *
 *   - a comment at the top that gives the mapping and the contention
 *     before and after it (seed 000, Theorem 1 and Section 5);
 *   - before the first function definition, `#include <hyperdo.h>` and the
 *     host's record of where each distributed array's newest elements are;
 *   - before each function that holds doalls, their node functions: the
 *     SPMD code of Fig. 1d that every processor runs;
 *   - each doall itself becomes the host's side: ship the loop's
 *     environment, bring the arrays it uses to the processors, run it;
 *   - each statement of the sequential code that uses a distributed array
 *     first brings that array home (hd_to_host) if the processors hold
 *     newer elements;
 *   - main is renamed, and at the end of the file come the tables
 *     (to_virtual, to_physical, the arrays, the node functions) and the
 *     real main, which starts the processors (hd_run).
 *
 * `#line` directives after every multi-line edit keep the compiler's
 * messages and debuggers on the input's lines.
 */
#include "codegen.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loops with more iterations than this are not enumerated to check that
 * no iteration reads what another writes (2^22: 4 M entries). */
#define CHECK_MAX_BITS 22

/* ------------------------------------------------------------ text */

typedef struct {
    char *s;
    size_t len, cap;
    int lines;         /* newlines so far */
    bool failed;
} text;

static void put_n(text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *grown = realloc(t->s, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->s = grown;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    for (size_t k = 0; k < n; k++)
        t->lines += s[k] == '\n';
    t->len += n;
    t->s[t->len] = '\0';
}

static void put(text *t, const char *s)
{
    put_n(t, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void putf(text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof buf) {
        put_n(t, buf, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        t->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put_n(t, big, (size_t)n);
    free(big);
}

/* A file name inside a C string literal (#line, the program's table). */
static void put_quoted(text *t, const char *name)
{
    put(t, "\"");
    for (const char *c = name; *c; c++) {
        char buf[8];
        if (*c == '"' || *c == '\\')
            snprintf(buf, sizeof buf, "\\%c", *c);
        else if ((unsigned char)*c < 0x20 || *c == 0x7f)
            snprintf(buf, sizeof buf, "\\%03o", (unsigned char)*c);
        else
            snprintf(buf, sizeof buf, "%c", *c);
        put(t, buf);
    }
    put(t, "\"");
}

/* A file name inside a comment: a star-slash would end it. */
static void put_commented(text *t, const char *name)
{
    for (const char *c = name; *c; c++) {
        char buf[2] = { *c, 0 };
        put(t, buf);
        if (c[0] == '*' && c[1] == '/')
            put(t, " ");
    }
}

static char *take(text *t)
{
    char *s = t->s;
    t->s = NULL;
    t->len = t->cap = 0;
    return s;
}

/* ------------------------------------------------------ the generator */

/* How a reference of a doall body reaches its element. */
typedef enum {
    REF_REPLICATED,   /* an array every processor has: the text stays */
    REF_LOCAL,        /* always this processor's: hd_<a>[offset] */
    REF_MESSAGE,      /* possibly another's: (*hd_r<k>), fetched first */
    REF_REQUEST,      /* its index reads distributed arrays (a[q[i]]): the
                       * iteration's processor asks the owner for it */
} ref_way;

typedef struct {
    ref_way way;
    int array;        /* in the runtime's table (distributed arrays) */
    char *index;      /* the flattened element index, as C */
} ref_plan;

typedef struct {
    const hd_program *prog;
    const char *src;
    size_t len;
    const hd_codegen_options *opt;
    text diag;
    int errors;
    int *array_id;    /* program array -> runtime array, or -1 */
    int ndist;
    hd_order order;
    size_t *line_start; /* offset where each line of src starts */
    int nlines;
} gen;

/* Where each line starts, once: every edit asks for a line number. */
static bool index_lines(gen *g)
{
    int n = 1;
    for (size_t k = 0; k < g->len; k++)
        n += g->src[k] == '\n';
    g->line_start = malloc((size_t)n * sizeof *g->line_start);
    if (!g->line_start)
        return false;
    g->line_start[0] = 0;
    g->nlines = 1;
    for (size_t k = 0; k < g->len; k++)
        if (g->src[k] == '\n')
            g->line_start[g->nlines++] = k + 1;
    return true;
}

static int line_of(const gen *g, size_t offset)
{
    int lo = 0, hi = g->nlines - 1;      /* the last line starting <= offset */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (g->line_start[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo + 1;
}

__attribute__((format(printf, 3, 4)))
static void error_at(gen *g, size_t offset, const char *fmt, ...)
{
    size_t b = offset, e = offset;
    while (b > 0 && g->src[b - 1] != '\n')
        b--;
    while (e < g->len && g->src[e] != '\n' && g->src[e] != '\r')
        e++;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    putf(&g->diag, "%s:%d:%d: error: %s\n", g->prog->path, line_of(g, offset),
         (int)(offset - b) + 1, msg);
    put_n(&g->diag, g->src + b, e - b);
    put(&g->diag, "\n");
    for (size_t k = b; k < offset; k++)
        put(&g->diag, g->src[k] == '\t' ? "\t" : " ");
    put(&g->diag, "^\n");
    g->errors++;
}

static void put_source(text *t, const gen *g, size_t b, size_t e)
{
    if (b < e && e <= g->len)
        put_n(t, g->src + b, e - b);
}

/* `#line` back to the input: the text that follows comes from offset. */
static void line_directive(text *t, const gen *g, size_t offset)
{
    if (t->len && t->s[t->len - 1] != '\n')
        put(t, "\n");
    putf(t, "#line %d ", line_of(g, offset));
    put_quoted(t, g->prog->path);
    put(t, "\n");
}

/* `#line` to the output itself: what follows is the generator's code, and
 * diagnostics about it should say where it is. */
static void own_line_directive(text *t, const gen *g)
{
    if (!g->opt->out_path)
        return;
    if (t->len && t->s[t->len - 1] != '\n')
        put(t, "\n");
    putf(t, "#line %d ", t->lines + 2);
    put_quoted(t, g->opt->out_path);
    put(t, "\n");
}

/* --------------------------------------------------------- checks */

/* Iteration i must read no element that an earlier iteration wrote (a
 * flow dependence: the loop is not a doall).  Elements that later
 * iterations write are fine: every processor sends its elements before it
 * computes and runs its own iterations in order, so a read always sees the
 * old value, as the sequential loop does. */
static void check_dependences(gen *g, const hd_loop *l)
{
    if (l->k > CHECK_MAX_BITS)
        return;
    uint64_t count = UINT64_C(1) << l->k;
    for (int w = 0; w < l->nrefs; w++) {
        const hd_ref *wr = &l->refs[w];
        const hd_array *a = &g->prog->arrays[wr->array];
        bool seen_array = false;
        for (int v = 0; v < w; v++)
            seen_array |= l->refs[v].is_write && l->refs[v].array == wr->array;
        if (!wr->is_write || seen_array || a->log2_size > CHECK_MAX_BITS)
            continue;
        /* Which iteration writes each element (one at most: the front end
         * checked), or ~0. */
        size_t size = (size_t)1 << a->log2_size;
        uint64_t *writer = malloc(size * sizeof *writer);
        if (!writer)
            return;
        memset(writer, 0xff, size * sizeof *writer);
        char why[256];
        for (int v = 0; v < l->nrefs; v++) {
            const hd_ref *x = &l->refs[v];
            if (!x->is_write || x->array != wr->array)
                continue;
            for (uint64_t i = 0; i < count; i++) {
                uint64_t e;
                if (hd_expr_eval(x->index, i, &e, why, sizeof why) && e < size)
                    writer[e] = i;
            }
        }
        for (int r = 0; r < l->nrefs; r++) {
            const hd_ref *rd = &l->refs[r];
            if (rd->is_write || rd->array != wr->array)
                continue;
            for (uint64_t i = 0; i < count; i++) {
                uint64_t e;
                if (!hd_expr_eval(rd->index, i, &e, why, sizeof why)) {
                    error_at(g, rd->begin, "'%s' is written in this doall, so "
                             "the element '%s' reads must be known when "
                             "translating (%s)", a->name, rd->text, why);
                    break;
                }
                if (e < size && writer[e] != ~UINT64_C(0) && writer[e] < i) {
                    error_at(g, rd->begin, "iteration %s = %llu reads element "
                             "%llu of '%s', which the earlier iteration %s = %llu "
                             "writes: the loop carries a dependence and is not "
                             "a doall",
                             l->var, (unsigned long long)i, (unsigned long long)e,
                             a->name, l->var, (unsigned long long)writer[e]);
                    break;
                }
            }
        }
        free(writer);
    }
}

/* Does the doall write every element of program array `arr`?  Then the
 * host need not send the old elements before it. */
static bool writes_all(const gen *g, const hd_loop *l, int arr)
{
    const hd_array *a = &g->prog->arrays[arr];
    if (l->k > CHECK_MAX_BITS || a->log2_size > CHECK_MAX_BITS)
        return false;
    size_t size = (size_t)1 << a->log2_size;
    uint8_t *seen = calloc(size, 1);
    if (!seen)
        return false;
    size_t covered = 0;
    char why[64];
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        if (!ref->is_write || ref->array != arr || ref->partial)
            continue;
        for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
            uint64_t e;
            if (!hd_expr_eval(ref->index, i, &e, why, sizeof why)) {
                free(seen);
                return false;
            }
            if (e < size && !seen[e]) {
                seen[e] = 1;
                covered++;
            }
        }
    }
    free(seen);
    return covered == size;
}

/* Is reference `in` part of the index of `out`? */
static bool inside(const hd_ref *in, const hd_ref *out)
{
    return in != out && in->begin >= out->begin && in->end <= out->end &&
           !(in->begin == out->begin && in->end == out->end);
}

static bool uses_array(const hd_loop *l, int arr, bool is_write);

/* The things the node code cannot do, each reported where it is. */
static void check_loop(gen *g, const hd_loop *l)
{
    const hd_program *p = g->prog;
    for (int k = 0; k < l->nouters; k++) {
        const hd_outer *o = &l->outers[k];
        if (!o->is_value || strchr(o->type, '(')) {
            /* Offsets of outers are not kept: report at the loop. */
            char what[400];
            if (strchr(o->type, '['))
                snprintf(what, sizeof what, "'%s' (line %d) is an array used "
                         "without a subscript in this doall (its address or "
                         "size): the processors get its elements, not the "
                         "array; use %s[...] only", o->name, o->line, o->name);
            else if (o->is_value)
                snprintf(what, sizeof what, "'%s' (line %d) is read in this "
                         "doall but its type '%s' has no name the processors' "
                         "code can declare: give it a typedef or a tag",
                         o->name, o->line, o->type);
            else
                snprintf(what, sizeof what, "'%s' (line %d) is read in this "
                         "doall but is a pointer or a function ('%s'): its "
                         "value means nothing on another processor", o->name,
                         o->line, o->type);
            error_at(g, l->begin, "%s", what);
        }
    }
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        const hd_array *a = &p->arrays[ref->array];
        if (a->dist == HD_DIST_NONE) {
            if (strchr(a->elem_type, '('))
                error_at(g, ref->begin, "the elements of '%s' have a type "
                         "without a name ('%s'): give it a typedef or a tag",
                         a->name, a->elem_type);
            continue;
        }
        if (ref->in_macro)
            error_at(g, ref->begin, "'%s' is distributed, and this reference "
                     "to it comes from a macro: the translator rewrites each "
                     "reference in the text, so write it out", a->name);
        if (strchr(a->elem_type, '('))
            error_at(g, ref->begin, "the elements of '%s' have a type without "
                     "a name ('%s'): give it a typedef or a tag", a->name,
                     a->elem_type);
        /* a[q[i]] with q distributed: the iteration's processor asks for
         * the element (REF_REQUEST); q[i] itself must be known there
         * before the loop runs, so q must not be written by the loop, and
         * its own index must not read distributed arrays in turn. */
        for (int j = 0; j < l->nrefs; j++) {
            const hd_ref *in = &l->refs[j];
            if (j == k || !inside(in, ref) || p->arrays[in->array].dist == HD_DIST_NONE)
                continue;
            if (ref->is_write)
                continue;     /* reported below: the element written */
            if (uses_array(l, in->array, true))
                error_at(g, in->begin, "the index of '%s' reads '%s', which "
                         "this doall writes: the element to fetch must be "
                         "known before the loop runs", ref->text, in->text);
            for (int m = 0; m < l->nrefs; m++)
                if (m != j && inside(&l->refs[m], in) &&
                    p->arrays[l->refs[m].array].dist != HD_DIST_NONE) {
                    error_at(g, in->begin, "the index of '%s' reads '%s', "
                             "whose own index reads a distributed array: "
                             "one level of indirection is supported",
                             ref->text, in->text);
                    break;
                }
        }
        if (ref->reason && strstr(ref->reason, "a variable of the loop body"))
            error_at(g, ref->begin, "the index of '%s' uses a variable of the "
                     "loop body; the processor that holds the element must "
                     "compute it too: write its expression into the index",
                     ref->text);
    }
    const hd_ref *home = &l->refs[l->home];
    char why[256];
    uint64_t e;
    if (!hd_expr_eval(home->index, 0, &e, why, sizeof why))
        error_at(g, home->begin, "the element '%s' writes must be known when "
                 "translating (%s)", home->text, why);
    check_dependences(g, l);
}

/* -------------------------------------------------- the node functions */

static const char *elem(const gen *g, int arr)
{
    return g->prog->arrays[arr].elem_type;
}

/* A replicated array's declaration inside the environment, or a pointer
 * to its rows inside the node function: double w[4][8] is shipped whole
 * and read through `const double (*const w)[8]`. */
static void put_array_field(text *t, const hd_array *a)
{
    putf(t, "    %s %s", a->elem_type, a->name);
    for (int d = 0; d < a->ndims; d++)
        putf(t, "[%lld]", (long long)a->extent[d]);
    put(t, ";\n");
}

static void put_array_view(text *t, const hd_array *a)
{
    if (a->ndims == 1) {
        putf(t, "    const %s *const %s = hd_env->%s;\n", a->elem_type, a->name,
             a->name);
    } else {
        putf(t, "    const %s (*const %s)", a->elem_type, a->name);
        for (int d = 1; d < a->ndims; d++)
            putf(t, "[%lld]", (long long)a->extent[d]);
        putf(t, " = hd_env->%s;\n", a->name);
    }
    putf(t, "    (void)%s;\n", a->name);
}

/* The arrays the body uses, each once, in order of first use: the
 * distributed ones, or the replicated ones. */
static int arrays_used(const gen *g, const hd_loop *l, bool distributed, int *out)
{
    int n = 0;
    for (int k = 0; k < l->nrefs; k++) {
        int a = l->refs[k].array;
        if ((g->prog->arrays[a].dist != HD_DIST_NONE) != distributed)
            continue;
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen |= out[j] == a;
        if (!seen)
            out[n++] = a;
    }
    return n;
}

static bool has_env(const gen *g, const hd_loop *l, int *repl, int *nrepl)
{
    *nrepl = arrays_used(g, l, false, repl);
    return l->nouters > 0 || *nrepl > 0;
}

static void put_owner(text *t, const gen *g, const char *index, int arr)
{
    putf(t, "hd_owner(%s, %d, %d)", index, g->prog->arrays[arr].shift, g->prog->n);
}

static void put_offset(text *t, const gen *g, const char *index, int arr)
{
    putf(t, "hd_local_offset(%s, %d, %d)", index, g->prog->arrays[arr].shift,
         g->prog->n);
}

static void put_for(text *t, const hd_loop *l)
{
    putf(t, "    for (%s %s = 0; %s < %llu; %s++) {\n", l->var_type, l->var, l->var,
         (unsigned long long)1 << l->k, l->var);
}

/* The body with every distributed reference rewritten (ref_plan). */
/* Text [begin, end) of the loop with every distributed reference in it
 * rewritten (ref_plan): local ones to the processor's own element, the
 * others to where their value waits: *hd_r<k> for one iteration at a time,
 * or *hd_p<k>[hd_t] when every iteration's were fetched first (`stored`). */
static void put_rewritten(text *t, const gen *g, const hd_loop *l,
                          const ref_plan *plan, size_t begin, size_t end,
                          bool stored)
{
    size_t at = begin;
    /* References in the order of the text (the front end lists an
     * assignment's right side before its target). */
    int *by_place = malloc((size_t)l->nrefs * sizeof *by_place);
    if (!by_place) {
        t->failed = true;
        return;
    }
    for (int k = 0; k < l->nrefs; k++) {
        int j = k;
        for (; j > 0 && l->refs[by_place[j - 1]].begin > l->refs[k].begin; j--)
            by_place[j] = by_place[j - 1];
        by_place[j] = k;
    }
    for (int kk = 0; kk < l->nrefs; kk++) {
        int k = by_place[kk];
        const hd_ref *ref = &l->refs[k];
        if (plan[k].way == REF_REPLICATED || ref->begin < at || ref->end > end)
            continue;
        put_source(t, g, at, ref->begin);
        const hd_array *a = &g->prog->arrays[ref->array];
        if (plan[k].way == REF_LOCAL) {
            putf(t, "hd_l_%s[", a->name);
            put_offset(t, g, plan[k].index, ref->array);
            put(t, "]");
        } else if (stored) {
            putf(t, "(*hd_p%d[hd_t])", k);
        } else {
            putf(t, "(*hd_r%d)", k);
        }
        at = ref->end;
    }
    free(by_place);
    put_source(t, g, at, end);
}

static void put_body(text *t, const gen *g, const hd_loop *l, const ref_plan *plan,
                     bool stored)
{
    line_directive(t, g, l->body_begin);
    if (!l->body_is_block)
        put(t, "        { ");
    put_rewritten(t, g, l, plan, l->body_begin, l->body_end, stored);
    if (!l->body_is_block)
        put(t, "; }");
    put(t, "\n");
}

/* The flattened element index of a reference, as C: the subscripts as
 * written, row-major ((s0 * E1 + s1) * E2 + s2 ...).  With a plan (a
 * REF_REQUEST's index), the references inside them are rewritten for the
 * stored form. */
static char *index_text(const gen *g, const hd_ref *ref, const hd_loop *l,
                        const ref_plan *plan)
{
    const hd_array *a = &g->prog->arrays[ref->array];
    text t = { 0 };
    for (int d = 1; d < ref->nsubs; d++)
        put(&t, "(");
    for (int d = 0; d < ref->nsubs; d++) {
        if (d > 0)
            putf(&t, " * %lld + ", (long long)a->extent[d]);
        put(&t, "(hd_index)(");
        if (plan)
            put_rewritten(&t, g, l, plan, ref->sub_begin[d], ref->sub_end[d], true);
        else
            put_source(&t, g, ref->sub_begin[d], ref->sub_end[d]);
        put(&t, ")");
        if (d > 0)
            put(&t, ")");
    }
    return take(&t);
}

/* Opens the block of node code for one reference, named in a comment. */
static void put_ref_open(text *t, const hd_ref *ref)
{
    put(t, "        {   /* ");
    put_commented(t, ref->text);
    put(t, " */\n");
}

/* Where REF_MESSAGE k's element is for the current iteration: this
 * processor's own, or the next value from its owner's message; into
 * hd_r<k>, or hd_p<k>[hd_t] when every iteration's are fetched first. */
static void put_fetch(text *t, const gen *g, const hd_loop *l, const ref_plan *plan,
                      int k, bool stored)
{
    const hd_ref *ref = &l->refs[k];
    const char *name = g->prog->arrays[ref->array].name;
    char slot[48], value[48];
    snprintf(slot, sizeof slot, stored ? "hd_p%d[hd_t]" : "hd_r%d", k);
    snprintf(value, sizeof value, stored ? "hd_v%d[hd_t]" : "hd_v%d", k);
    put_ref_open(t, ref);
    putf(t, "            const hd_index hd_e = %s;\n"
            "            const int hd_from = ", plan[k].index);
    put_owner(t, g, "hd_e", ref->array);
    putf(t, ";\n            %s = hd_from == hd_me ? &hd_l_%s[", slot, name);
    put_offset(t, g, "hd_e", ref->array);
    putf(t, "]\n                   : hd_take(hd_msgs, hd_from, &%s, sizeof %s);\n"
            "        }\n", value, value);
}

/* A loop over the iterations, skipping those another processor runs. */
static void put_mine_loop(text *t, const gen *g, const hd_loop *l, const char *home_index)
{
    put_for(t, l);
    put(t, "        if (");
    put_owner(t, g, home_index, l->refs[l->home].array);
    put(t, " != hd_me)\n            continue;\n");
}

/*
 * The node code when some index reads a distributed array (a[q[i]]): only
 * the processor that runs the iteration can compute which element it
 * needs, so it asks the owner (inspector/executor).  Every iteration's
 * values are fetched before any runs: first the references whose element
 * anyone can compute (one exchange, as in put_node), then three more: how
 * many elements each processor asks of each other, the indices asked, and
 * the elements sent back in the order asked.
 */
static void put_requests(text *t, const gen *g, const hd_loop *l, ref_plan *plan,
                         const char *home_index)
{
    const hd_program *p = g->prog;
    int P = 1 << p->n;
    put(t, "    hd_index hd_mine = 0;\n");
    put_for(t, l);
    put(t, "        hd_mine += ");
    put_owner(t, g, home_index, l->refs[l->home].array);
    put(t, " == hd_me;\n    }\n");
    put(t, "    /* For each of my iterations, where each reference's element is:\n"
           "     * mine, or a copy that came in a message. */\n");
    for (int k = 0; k < l->nrefs; k++) {
        if (plan[k].way != REF_MESSAGE && plan[k].way != REF_REQUEST)
            continue;
        const char *e = elem(g, l->refs[k].array);
        putf(t, "    %s *const hd_v%d = hd_alloc(hd_mine, sizeof *hd_v%d);\n"
                "    const %s **const hd_p%d = hd_alloc(hd_mine, sizeof *hd_p%d);\n",
             e, k, k, e, k, k);
        if (plan[k].way == REF_REQUEST)
            putf(t, "    int *const hd_from%d = hd_alloc(hd_mine, sizeof *hd_from%d);\n",
                 k, k);
    }
    put(t, "    {\n        hd_index hd_t = 0;\n");
    put_mine_loop(t, g, l, home_index);
    for (int k = 0; k < l->nrefs; k++)
        if (plan[k].way == REF_MESSAGE)
            put_fetch(t, g, l, plan, k, true);
    put(t, "        hd_t++;\n    }\n    }\n");

    put(t, "    /* Ask the owners for the elements that indices through distributed\n"
           "     * arrays select, in the order of my iterations. */\n"
           "    hd_exchange *const hd_asks = hd_exchange_new();\n");
    putf(t, "    hd_index hd_asked[%d] = { 0 };\n", P);
    put(t, "    {\n        hd_index hd_t = 0;\n");
    put_mine_loop(t, g, l, home_index);
    for (int k = 0; k < l->nrefs; k++) {
        if (plan[k].way != REF_REQUEST)
            continue;
        const hd_ref *ref = &l->refs[k];
        char *index = index_text(g, ref, l, plan);
        put_ref_open(t, ref);
        putf(t, "            const hd_index hd_e = %s;\n"
                "            const int hd_from = ", index ? index : "0");
        free(index);
        put_owner(t, g, "hd_e", ref->array);
        putf(t, ";\n            hd_from%d[hd_t] = hd_from;\n"
                "            hd_p%d[hd_t] = &hd_v%d[hd_t];\n"
                "            if (hd_from == hd_me) {\n"
                "                hd_p%d[hd_t] = &hd_l_%s[", k, k, k, k,
             p->arrays[ref->array].name);
        put_offset(t, g, "hd_e", ref->array);
        putf(t, "];\n            } else {\n"
                "                const int hd_which = %d;   /* which reference: the owner's array */\n"
                "                hd_put(hd_asks, hd_from, &hd_which, sizeof hd_which);\n"
                "                hd_put(hd_asks, hd_from, &hd_e, sizeof hd_e);\n"
                "                hd_asked[hd_from]++;\n            }\n        }\n", k);
    }
    put(t, "        hd_t++;\n    }\n    }\n");
    putf(t, "    hd_exchange *const hd_counts = hd_exchange_new();\n"
            "    for (int hd_proc = 0; hd_proc < %d; hd_proc++)\n"
            "        if (hd_proc != hd_me) {\n"
            "            hd_put(hd_counts, hd_proc, &hd_asked[hd_proc], sizeof hd_asked[hd_proc]);\n"
            "            hd_expect(hd_counts, hd_proc, sizeof(hd_index));\n"
            "        }\n"
            "    hd_exchange_run(hd_counts);\n"
            "    hd_index hd_asks_of[%d] = { 0 };\n"
            "    for (int hd_proc = 0; hd_proc < %d; hd_proc++)\n"
            "        if (hd_proc != hd_me) {\n"
            "            hd_take(hd_counts, hd_proc, &hd_asks_of[hd_proc], sizeof hd_asks_of[hd_proc]);\n"
            "            hd_expect(hd_asks, hd_proc, (size_t)hd_asks_of[hd_proc] *\n"
            "                                     (sizeof(int) + sizeof(hd_index)));\n"
            "        }\n"
            "    hd_exchange_free(hd_counts);\n"
            "    hd_exchange_run(hd_asks);\n", P, P, P);
    /* Replies: per asking processor, its indices in order.  The requests
     * of one doall may name elements of several arrays: the index alone
     * does not say which, so each request names its reference first. */
    put(t, "    /* Answer: my elements, in the order they were asked. */\n"
           "    hd_exchange *const hd_answers = hd_exchange_new();\n");
    putf(t, "    for (int hd_proc = 0; hd_proc < %d; hd_proc++)\n"
            "        for (hd_index hd_n = 0; hd_n < hd_asks_of[hd_proc]; hd_n++) {\n"
            "            hd_index hd_e;\n"
            "            int hd_ref;\n"
            "            hd_take(hd_asks, hd_proc, &hd_ref, sizeof hd_ref);\n"
            "            hd_take(hd_asks, hd_proc, &hd_e, sizeof hd_e);\n"
            "            switch (hd_ref) {\n", P);
    for (int k = 0; k < l->nrefs; k++) {
        if (plan[k].way != REF_REQUEST)
            continue;
        const hd_ref *ref = &l->refs[k];
        putf(t, "            case %d:\n                hd_put(hd_answers, hd_proc, &hd_l_%s[", k,
             p->arrays[ref->array].name);
        put_offset(t, g, "hd_e", ref->array);
        putf(t, "], sizeof *hd_l_%s);\n                break;\n", p->arrays[ref->array].name);
    }
    put(t, "            }\n        }\n");
    put(t, "    hd_exchange_free(hd_asks);\n");
    /* What comes back: for each of my asks, in order. */
    put(t, "    {\n        hd_index hd_t = 0;\n");
    put_mine_loop(t, g, l, home_index);
    for (int k = 0; k < l->nrefs; k++) {
        if (plan[k].way != REF_REQUEST)
            continue;
        putf(t, "        if (hd_from%d[hd_t] != hd_me)\n"
                "            hd_expect(hd_answers, hd_from%d[hd_t], sizeof hd_v%d[hd_t]);\n",
             k, k, k);
    }
    put(t, "        hd_t++;\n    }\n    }\n    hd_exchange_run(hd_answers);\n");
    put(t, "    {\n        hd_index hd_t = 0;\n");
    put_mine_loop(t, g, l, home_index);
    for (int k = 0; k < l->nrefs; k++) {
        if (plan[k].way != REF_REQUEST)
            continue;
        putf(t, "        if (hd_from%d[hd_t] != hd_me)\n"
                "            hd_take(hd_answers, hd_from%d[hd_t], &hd_v%d[hd_t], "
                "sizeof hd_v%d[hd_t]);\n", k, k, k, k);
    }
    put(t, "        hd_t++;\n    }\n    }\n    hd_exchange_free(hd_answers);\n\n");
}

static void put_node(text *t, gen *g, int d)
{
    const hd_program *p = g->prog;
    const hd_loop *l = &p->loops[d];
    const hd_ref *home = &l->refs[l->home];
    int nrefs = l->nrefs;
    ref_plan *plan = calloc((size_t)nrefs, sizeof *plan);
    int *repl = malloc((size_t)nrefs * sizeof *repl);
    int *dist = malloc((size_t)nrefs * sizeof *dist);
    if (!plan || !repl || !dist) {
        free(plan); free(repl); free(dist);
        t->failed = true;
        return;
    }
    bool messages = false, requests = false;
    for (int k = 0; k < nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        const hd_array *a = &p->arrays[ref->array];
        plan[k].array = g->array_id[ref->array];
        if (a->dist == HD_DIST_NONE) {
            plan[k].way = REF_REPLICATED;
            continue;
        }
        plan[k].index = index_text(g, ref, l, NULL);
        plan[k].way = ref->is_write || ref->comm == HD_COMM_LOCAL ? REF_LOCAL
                                                                  : REF_MESSAGE;
        for (int j = 0; j < nrefs && !ref->is_write; j++)
            if (inside(&l->refs[j], ref) &&
                p->arrays[l->refs[j].array].dist != HD_DIST_NONE)
                plan[k].way = REF_REQUEST;
        messages |= plan[k].way == REF_MESSAGE;
        requests |= plan[k].way == REF_REQUEST;
    }
    char *home_index = plan[l->home].index;
    int nrepl, ndist = arrays_used(g, l, true, dist);
    bool env = has_env(g, l, repl, &nrepl);

    put(t, "/* hyperdo: the node program of the doall at ");
    put_commented(t, p->path);
    putf(t, ":%d (Fig. 1d).  Every\n * processor runs the iterations whose ",
         l->line);
    put_commented(t, home->text);
    put(t, " it holds (owner computes). */\n");
    if (env) {
        putf(t, "struct hd_env_%d {\n", d);
        for (int k = 0; k < l->nouters; k++)
            putf(t, "    %s %s;\n", l->outers[k].type, l->outers[k].name);
        for (int k = 0; k < nrepl; k++)
            put_array_field(t, &p->arrays[repl[k]]);
        put(t, "};\n\n");
    }
    putf(t, "static void hd_node_%d(const void *hd_arg)\n{\n", d);
    if (env) {
        putf(t, "    const struct hd_env_%d *hd_env = hd_arg;\n", d);
        for (int k = 0; k < l->nouters; k++)
            putf(t, "    const %s %s = hd_env->%s;\n    (void)%s;\n",
                 l->outers[k].type, l->outers[k].name, l->outers[k].name,
                 l->outers[k].name);
        for (int k = 0; k < nrepl; k++)
            put_array_view(t, &p->arrays[repl[k]]);
    } else {
        put(t, "    (void)hd_arg;\n");
    }
    put(t, "    const int hd_me = v_get_pid();\n");
    for (int k = 0; k < ndist; k++)
        putf(t, "    %s *const hd_l_%s = hd_local(%d);\n", elem(g, dist[k]),
             p->arrays[dist[k]].name, g->array_id[dist[k]]);

    if (messages) {
        put(t, "    hd_exchange *const hd_msgs = hd_exchange_new();\n\n");
        put(t, "    /* Pack my elements that iterations of other processors "
               "read: one\n     * batch per processor. */\n");
        put_for(t, l);
        put(t, "        const int hd_home = ");
        put_owner(t, g, home_index, home->array);
        put(t, ";\n        if (hd_home == hd_me)\n            continue;\n");
        for (int k = 0; k < nrefs; k++) {
            if (plan[k].way != REF_MESSAGE)
                continue;
            const hd_ref *ref = &l->refs[k];
            put_ref_open(t, ref);
            putf(t, "            const hd_index hd_e = %s;\n", plan[k].index);
            put(t, "            if (");
            put_owner(t, g, "hd_e", ref->array);
            putf(t, " == hd_me)\n                hd_put(hd_msgs, hd_home, &hd_l_%s[",
                 p->arrays[ref->array].name);
            put_offset(t, g, "hd_e", ref->array);
            putf(t, "], sizeof *hd_l_%s);\n        }\n", p->arrays[ref->array].name);
        }
        put(t, "    }\n");
        put(t, "    /* Count what my iterations read from each other "
               "processor. */\n");
        put_mine_loop(t, g, l, home_index);
        for (int k = 0; k < nrefs; k++) {
            if (plan[k].way != REF_MESSAGE)
                continue;
            const hd_ref *ref = &l->refs[k];
            put_ref_open(t, ref);
            put(t, "            const int hd_from = ");
            put_owner(t, g, plan[k].index, ref->array);
            putf(t, ";\n            if (hd_from != hd_me)\n"
                    "                hd_expect(hd_msgs, hd_from, sizeof *hd_l_%s);\n"
                    "        }\n", p->arrays[ref->array].name);
        }
        put(t, "    }\n");
        putf(t, "    /* One message to each processor whose iterations read my elements,\n"
                "     * one from each that holds elements mine read (Fig. 1d). */\n"
                "    for (int hd_k = 1; hd_k < %d; hd_k++) {\n"
                "        size_t hd_n;\n"
                "        const void *hd_out = hd_batch(hd_msgs, hd_me ^ hd_k, &hd_n);\n"
                "        if (hd_n)\n"
                "            v_send(hd_me ^ hd_k, hd_out, hd_n);\n"
                "    }\n"
                "    for (int hd_k = 1; hd_k < %d; hd_k++) {\n"
                "        size_t hd_n;\n"
                "        void *hd_in = hd_inbox(hd_msgs, hd_me ^ hd_k, &hd_n);\n"
                "        if (hd_n)\n"
                "            v_receive(hd_me ^ hd_k, hd_in, hd_n);\n"
                "    }\n\n", 1 << p->n, 1 << p->n);
    }

    if (requests) {
        /* Every iteration's values first (put_requests), then the body. */
        put_requests(t, g, l, plan, home_index);
        put(t, "    /* My iterations, in order. */\n    {\n        hd_index hd_t = 0;\n");
        put_mine_loop(t, g, l, home_index);
        put_body(t, g, l, plan, true);
        put(t, "        hd_t++;\n    }\n    }\n");
        for (int k = 0; k < nrefs; k++) {
            if (plan[k].way != REF_MESSAGE && plan[k].way != REF_REQUEST)
                continue;
            putf(t, "    free(hd_v%d);\n    free((void *)hd_p%d);\n", k, k);
            if (plan[k].way == REF_REQUEST)
                putf(t, "    free(hd_from%d);\n", k);
        }
    } else {
        /* Each iteration fetches its values as it runs. */
        put(t, "    /* My iterations, in order. */\n");
        put_mine_loop(t, g, l, home_index);
        for (int k = 0; k < nrefs; k++)
            if (plan[k].way == REF_MESSAGE)
                putf(t, "        %s hd_v%d;\n        const %s *hd_r%d;\n",
                     elem(g, l->refs[k].array), k, elem(g, l->refs[k].array), k);
        for (int k = 0; k < nrefs; k++)
            if (plan[k].way == REF_MESSAGE)
                put_fetch(t, g, l, plan, k, false);
        put_body(t, g, l, plan, false);
        put(t, "    }\n");
    }
    if (messages)
        put(t, "    hd_exchange_free(hd_msgs);\n");
    put(t, "}\n\n");
    for (int k = 0; k < nrefs; k++)
        free(plan[k].index);
    free(plan);
    free(repl);
    free(dist);
}

/* ------------------------------------------------------ the host side */

/* Does the doall read (or write) array arr? */
static bool uses_array(const hd_loop *l, int arr, bool is_write)
{
    for (int k = 0; k < l->nrefs; k++)
        if (l->refs[k].array == arr && l->refs[k].is_write == is_write)
            return true;
    return false;
}

/* Must the host send array `arr` to the processors before doall l?  Not
 * when the loop only writes it and writes every element. */
static bool sent_before(const gen *g, const hd_loop *l, int arr)
{
    return uses_array(l, arr, false) || !writes_all(g, l, arr);
}

/* Which of the prologue's helpers the program calls: clang warns about
 * unused static functions, inline or not. */
typedef struct {
    bool to_nodes, on_nodes, to_host, where;
} helpers_used;

static helpers_used helpers_needed(const gen *g)
{
    const hd_program *p = g->prog;
    helpers_used h = { false, false, p->nuses > 0, false };
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        for (int k = 0; k < l->nrefs; k++) {
            int arr = l->refs[k].array;
            const hd_array *a = &p->arrays[arr];
            if (a->dist == HD_DIST_NONE || a->host_escapes)
                continue;
            h.on_nodes |= l->refs[k].is_write;
            /* sent_before enumerates the loop: once an answer is known,
             * do not ask again per reference. */
            h.to_nodes = h.to_nodes || sent_before(g, l, arr);
        }
    }
    for (int a = 0; a < p->narrays; a++)
        h.where |= g->array_id[a] >= 0 && p->arrays[a].decl_end;
    h.where |= h.to_nodes || h.on_nodes || h.to_host;
    return h;
}

/* What replaces the doall in its function: the host's side of it. */
static void put_host_doall(text *t, const gen *g, int d)
{
    const hd_program *p = g->prog;
    const hd_loop *l = &p->loops[d];
    int *repl = malloc((size_t)l->nrefs * sizeof *repl);
    int *dist = malloc((size_t)l->nrefs * sizeof *dist);
    if (!repl || !dist) {
        free(repl);
        free(dist);
        t->failed = true;
        return;
    }
    int nrepl, ndist = arrays_used(g, l, true, dist);
    bool env = has_env(g, l, repl, &nrepl);
    putf(t, "    {   /* hyperdo: the doall of line %d runs on every processor "
            "(hd_node_%d) */\n", l->line, d);
    if (env) {
        putf(t, "        static struct hd_env_%d hd_env;   /* off the stack: it may be large */\n", d);
        for (int k = 0; k < l->nouters; k++)
            putf(t, "        memcpy((void *)&hd_env.%s, &%s, sizeof hd_env.%s);\n",
                 l->outers[k].name, l->outers[k].name, l->outers[k].name);
        for (int k = 0; k < nrepl; k++)
            putf(t, "        memcpy((void *)hd_env.%s, %s, sizeof hd_env.%s);\n",
                 p->arrays[repl[k]].name, p->arrays[repl[k]].name,
                 p->arrays[repl[k]].name);
    }
    for (int k = 0; k < ndist; k++) {
        const hd_array *a = &p->arrays[dist[k]];
        if (!sent_before(g, l, dist[k]))
            continue;                /* every element is overwritten */
        if (a->host_escapes)
            putf(t, "        hd_scatter(%d, %s);\n", g->array_id[dist[k]], a->name);
        else
            putf(t, "        hd_to_nodes(%d, %s);\n", g->array_id[dist[k]], a->name);
    }
    if (env)
        putf(t, "        hd_doall(%d, &hd_env, sizeof hd_env);\n", d);
    else
        putf(t, "        hd_doall(%d, NULL, 0);\n", d);
    for (int k = 0; k < ndist; k++) {
        const hd_array *a = &p->arrays[dist[k]];
        if (!uses_array(l, dist[k], true))
            continue;
        if (a->host_escapes)
            putf(t, "        hd_gather(%d, %s);\n", g->array_id[dist[k]], a->name);
        else
            putf(t, "        hd_on_nodes(%d);\n", g->array_id[dist[k]]);
    }
    if (l->var_outside)
        putf(t, "        %s = %llu;\n", l->var, (unsigned long long)1 << l->k);
    put(t, "    }\n");
    free(repl);
    free(dist);
}

/* -------------------------------------------------------- the edits */

typedef enum {
    EDIT_PROLOGUE,     /* insert */
    EDIT_NODES,        /* insert the node functions of one function */
    EDIT_DOALL,        /* replace */
    EDIT_USE_OPEN,     /* insert */
    EDIT_USE_CLOSE,    /* insert */
    EDIT_RESET,        /* insert after a local array's declaration */
    EDIT_MAIN,         /* replace main's name */
    EDIT_PRAGMA,       /* comment out a cube or distribute pragma */
} edit_kind;

typedef struct {
    size_t begin, end;
    edit_kind kind;
    int item;          /* loop, use or array */
    int seq;
} edit;

static int edit_order(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    /* At one offset: close a wrapped use before what opens next. */
    bool xc = x->kind == EDIT_USE_CLOSE, yc = y->kind == EDIT_USE_CLOSE;
    if (xc != yc)
        return xc ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void put_prologue(text *t, const gen *g)
{
    put(t, "\n/* hyperdo: the run-time library, and where the newest elements "
           "of each\n * distributed array are: on the host, on the processors, "
           "or both. */\n#include <hyperdo.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    helpers_used h = helpers_needed(g);
    if (!h.where)
        return;
    put(t, "enum { HD_ON_HOST = 1, HD_ON_NODES = 2 };\n");
    putf(t, "static unsigned char hd_where[%d] = {", g->ndist);
    for (int k = 0; k < g->ndist; k++)
        put(t, k ? ", HD_ON_HOST" : " HD_ON_HOST");
    put(t, " };\n\n");
    if (h.to_nodes)
        put(t, "/* Before a doall: the processors need the host's elements. */\n"
               "static void hd_to_nodes(int a, const void *host)\n{\n"
               "    if (!(hd_where[a] & HD_ON_NODES))\n        hd_scatter(a, host);\n"
               "    hd_where[a] |= HD_ON_NODES;\n}\n\n");
    if (h.on_nodes)
        put(t, "/* After a doall that wrote the array. */\n"
               "static void hd_on_nodes(int a)\n{\n"
               "    hd_where[a] = HD_ON_NODES;\n}\n\n");
    if (h.to_host)
        put(t, "/* Before sequential code that uses the array (and may change it). */\n"
               "static void hd_to_host(int a, void *host)\n{\n"
               "    if (!(hd_where[a] & HD_ON_HOST))\n        hd_gather(a, host);\n"
               "    hd_where[a] = HD_ON_HOST;\n}\n\n");
}

static void put_edit(text *t, gen *g, const edit *e)
{
    const hd_program *p = g->prog;
    switch (e->kind) {
    case EDIT_PROLOGUE:
        own_line_directive(t, g);
        put_prologue(t, g);
        line_directive(t, g, e->end);
        break;
    case EDIT_NODES:
        own_line_directive(t, g);
        put(t, "\n");
        for (int d = 0; d < p->nloops; d++)
            if (p->loops[d].func_begin == e->begin)
                put_node(t, g, d);
        line_directive(t, g, e->end);
        break;
    case EDIT_DOALL:
        own_line_directive(t, g);
        put_host_doall(t, g, e->item);
        line_directive(t, g, e->end);
        break;
    case EDIT_USE_OPEN: {
        const hd_host_use *u = &p->uses[e->item];
        if (u->wrap)
            put(t, "{ ");
        for (int k = 0; k < u->narrays; k++)
            putf(t, "hd_to_host(%d, %s); ", g->array_id[u->arrays[k]],
                 p->arrays[u->arrays[k]].name);
        break;
    }
    case EDIT_USE_CLOSE:
        put(t, " }");
        break;
    case EDIT_RESET:
        putf(t, " hd_where[%d] = HD_ON_HOST;", g->array_id[e->item]);
        break;
    case EDIT_MAIN:
        put(t, "hd_user_main");
        break;
    case EDIT_PRAGMA:
        /* Read already; a compiler would warn about it (-Wunknown-pragmas). */
        put(t, "// ");
        break;
    }
}

/* ------------------------------------------------------ the tables */

static void put_header(text *t, gen *g, hd_codegen_summary *sum)
{
    const hd_program *p = g->prog;
    int n = p->n;
    put(t, "/*\n * Generated by hyperdo translate from ");
    put_commented(t, p->path);
    putf(t, ": do not edit.\n"
            " * The SPMD program of seed 000's Fig. 1d for the %d-cube "
            "(%d processors),\n * mapping %s", n, 1 << n,
         g->opt->mapping == HD_MAPPING_IDENTITY ? "identity" : "optimal");
    if (g->opt->mapping == HD_MAPPING_OPTIMAL)
        putf(t, " (Section 5, objective %s)",
             g->opt->objective == HD_OBJ_MAX ? "max"
             : g->opt->objective == HD_OBJ_MAXSUM ? "maxsum" : "sum");
    put(t, ": R(L_n) = (");
    for (int k = 0; k < n; k++)
        putf(t, k ? ",%d" : "%d", g->order.r[k]);
    put(t, "),\n * i.e. bit k of a physical processor's number is bit r_k of "
           "the virtual one's.\n *\n");
    put(t, " * Channel contention of each communication under e-cube routing "
           "(Theorem 1;\n * T_i = paths sharing a channel of dimension i, "
           "degree = max T_i), before -> after:\n");
    sum->nlccs = 0;
    sum->worst_before = sum->worst_after = 0;
    int general = 0;
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        for (int k = 0; k < l->nrefs; k++) {
            const hd_ref *ref = &l->refs[k];
            if (ref->is_write || ref->comm == HD_COMM_LOCAL)
                continue;
            if (ref->comm != HD_COMM_LCC) {
                general++;
                continue;
            }
            uint64_t before[HD_MAX_DIM], after[HD_MAX_DIM];
            hd_contention(&ref->lcc, before);
            hd_contention_after(&ref->lcc, &g->order, after);
            uint64_t db = hd_contention_degree(before, n);
            uint64_t da = hd_contention_degree(after, n);
            sum->nlccs++;
            if (db > sum->worst_before)
                sum->worst_before = db;
            if (da > sum->worst_after)
                sum->worst_after = da;
            putf(t, " *   line %d: %s  T = (", ref->line, ref->text);
            for (int i = 0; i < n; i++)
                putf(t, i ? ",%llu" : "%llu", (unsigned long long)before[i]);
            put(t, ") -> (");
            for (int i = 0; i < n; i++)
                putf(t, i ? ",%llu" : "%llu", (unsigned long long)after[i]);
            putf(t, "), degree %llu -> %llu\n", (unsigned long long)db,
                 (unsigned long long)da);
        }
    }
    if (sum->nlccs == 0)
        put(t, " *   (no linear-complement communication)\n");
    if (general)
        putf(t, " * and %d general communication%s (not LCCs: computed at run "
                "time).\n", general, general > 1 ? "s" : "");
    putf(t, " * Worst degree: %llu -> %llu.\n */\n",
         (unsigned long long)sum->worst_before, (unsigned long long)sum->worst_after);
}

static void put_tables(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    int P = 1 << p->n;
    put(t, "\n/* hyperdo: the mapping (seed 000, Section 3, Fig. 1d): virtual "
           "processor v runs\n * on physical processor to_physical[v]; "
           "v_get_pid() returns to_virtual[p]. */\n");
    putf(t, "static const int to_physical[%d] = {", P);
    for (int v = 0; v < P; v++)
        putf(t, "%s%s%llu", v ? "," : "", v % 16 ? " " : "\n    ",
             (unsigned long long)hd_order_apply(&g->order, (uint64_t)v));
    put(t, "\n};\n");
    hd_order inv = hd_order_inverse(&g->order);
    putf(t, "static const int to_virtual[%d] = {", P);
    for (int v = 0; v < P; v++)
        putf(t, "%s%s%llu", v ? "," : "", v % 16 ? " " : "\n    ",
             (unsigned long long)hd_order_apply(&inv, (uint64_t)v));
    put(t, "\n};\n\n");
    put(t, "/* Distributed arrays: element e lives on virtual processor "
           "hd_owner(e, shift, n). */\n");
    putf(t, "static const hd_array_desc hd_arrays[%d] = {\n", g->ndist ? g->ndist : 1);
    for (int a = 0; a < p->narrays; a++) {
        if (g->array_id[a] < 0)
            continue;
        const hd_array *x = &p->arrays[a];
        putf(t, "    { \"%s\", %lld, %d, %d },   /* %s */\n", x->name,
             x->elem_size, x->log2_size, x->shift, x->elem_type);
    }
    if (!g->ndist)
        put(t, "    { 0, 0, 0, 0 },\n");
    put(t, "};\n\n");
    putf(t, "static const hd_node_fn hd_doalls[%d] = {", p->nloops ? p->nloops : 1);
    for (int d = 0; d < p->nloops; d++)
        putf(t, "%s hd_node_%d", d ? "," : "", d);
    if (!p->nloops)
        put(t, " 0");
    put(t, " };\n\n");
    if (p->main_params == 0)
        put(t, "static int hd_main(int argc, char **argv)\n{\n"
               "    (void)argc;\n    (void)argv;\n    return hd_user_main();\n}\n\n");
    put(t, "static const hd_program_desc hd_program = {\n    ");
    put_quoted(t, p->path);
    putf(t, ", %d, to_virtual, to_physical,\n"
            "    %d, hd_arrays, %d, hd_doalls, %s\n};\n\n",
         p->n, g->ndist, p->nloops,
         p->main_params == 0 ? "hd_main" : "hd_user_main");
    put(t, "int main(int argc, char **argv)\n{\n"
           "    return hd_run(&hd_program, argc, argv);\n}\n");
}

/* ---------------------------------------------------------- driver */

static int compute_order(gen *g)
{
    const hd_program *p = g->prog;
    if (g->opt->mapping == HD_MAPPING_IDENTITY) {
        g->order = hd_order_identity(p->n);
        return 0;
    }
    int m = 0;
    for (int d = 0; d < p->nloops; d++)
        for (int k = 0; k < p->loops[d].nrefs; k++)
            m += !p->loops[d].refs[k].is_write &&
                 p->loops[d].refs[k].comm == HD_COMM_LCC;
    hd_lcc *set = malloc((size_t)(m ? m : 1) * sizeof *set);
    if (!set)
        return -1;
    m = 0;
    for (int d = 0; d < p->nloops; d++)
        for (int k = 0; k < p->loops[d].nrefs; k++)
            if (!p->loops[d].refs[k].is_write &&
                p->loops[d].refs[k].comm == HD_COMM_LCC)
                set[m++] = p->loops[d].refs[k].lcc;
    uint64_t cost;
    int rc = hd_optimize_set(set, m, p->n, g->opt->objective, &g->order, &cost);
    free(set);
    return rc == HD_OK ? 0 : -1;
}

int hd_codegen(const hd_program *prog, const char *src, size_t len,
               const hd_codegen_options *opt, char **out, size_t *out_len,
               hd_codegen_summary *summary, char **diagnostics)
{
    gen g;
    memset(&g, 0, sizeof g);
    g.prog = prog;
    g.src = src;
    g.len = len;
    g.opt = opt;
    *out = NULL;
    *out_len = 0;
    *diagnostics = NULL;
    hd_codegen_summary unused;
    if (!summary)
        summary = &unused;
    if (!index_lines(&g)) {
        *diagnostics = strdup("hyperdo: error: out of memory\n");
        return 1;
    }

    if (prog->n == 0) {
        /* No doall and no dimension: the front end read nothing else. */
        putf(&g.diag, "%s: error: no '#pragma hyperdo doall' loop and no cube "
             "dimension: nothing to translate (give --dim n or '#pragma hyperdo "
             "cube(n)' to translate it anyway)\n", prog->path);
        *diagnostics = take(&g.diag);
        free(g.line_start);
        return 1;
    }
    if (prog->n > 16) {
        putf(&g.diag, "%s: error: a %d-cube: the translator's tables handle "
             "1 to 16 dimensions\n", prog->path, prog->n);
        g.errors++;
    }
    if (!prog->has_main) {
        putf(&g.diag, "%s: error: no definition of main: the translated "
             "program's host runs the file's own main\n", prog->path);
        g.errors++;
    } else if (prog->main_params != 0 && prog->main_params != 2) {
        error_at(&g, prog->main_name, "main must take no parameters or "
                 "(int argc, char **argv)");
    }
    for (int d = 0; d < prog->nloops; d++)
        check_loop(&g, &prog->loops[d]);
    g.array_id = malloc((size_t)(prog->narrays ? prog->narrays : 1) * sizeof *g.array_id);
    if (!g.array_id || g.errors || compute_order(&g) != 0) {
        if (!g.errors) {
            putf(&g.diag, "hyperdo: error: out of memory\n");
            g.errors++;
        }
        free(g.array_id);
        free(g.line_start);
        *diagnostics = take(&g.diag);
        return g.errors;
    }
    for (int a = 0; a < prog->narrays; a++)
        g.array_id[a] = prog->arrays[a].dist == HD_DIST_NONE ? -1 : g.ndist++;

    /* The edits, in file order. */
    int nedits = 0, cap = 4 + prog->nloops * 2 + prog->nuses * 2 + prog->narrays +
                          prog->npragmas;
    edit *edits = calloc((size_t)cap, sizeof *edits);
    if (!edits) {
        free(g.array_id);
        free(g.line_start);
        return 1;
    }
    edits[nedits++] = (edit){ prog->first_function, prog->first_function,
                              EDIT_PROLOGUE, 0, nedits };
    for (int d = 0; d < prog->nloops; d++) {
        const hd_loop *l = &prog->loops[d];
        bool first_here = true;
        for (int e = 0; e < d; e++)
            first_here &= prog->loops[e].func_begin != l->func_begin;
        if (first_here)
            edits[nedits++] = (edit){ l->func_begin, l->func_begin, EDIT_NODES,
                                      d, nedits };
        edits[nedits++] = (edit){ l->pragma_begin, l->stmt_end, EDIT_DOALL, d,
                                  nedits };
    }
    for (int u = 0; u < prog->nuses; u++) {
        const hd_host_use *use = &prog->uses[u];
        edits[nedits++] = (edit){ use->begin, use->begin, EDIT_USE_OPEN, u, nedits };
        if (use->wrap)
            edits[nedits++] = (edit){ use->end, use->end, EDIT_USE_CLOSE, u, nedits };
    }
    for (int a = 0; a < prog->narrays; a++)
        if (g.array_id[a] >= 0 && prog->arrays[a].decl_end)
            edits[nedits++] = (edit){ prog->arrays[a].decl_end,
                                      prog->arrays[a].decl_end, EDIT_RESET, a,
                                      nedits };
    edits[nedits++] = (edit){ prog->main_name, prog->main_name + 4, EDIT_MAIN, 0,
                              nedits };
    for (int k = 0; k < prog->npragmas; k++)
        edits[nedits++] = (edit){ prog->pragmas[k], prog->pragmas[k], EDIT_PRAGMA,
                                  k, nedits };
    qsort(edits, (size_t)nedits, sizeof *edits, edit_order);

    text t = { 0 };
    put_header(&t, &g, summary);
    summary->order = g.order;
    put(&t, "#line 1 ");
    put_quoted(&t, prog->path);
    put(&t, "\n");
    size_t at = 0;
    for (int k = 0; k < nedits; k++) {
        const edit *e = &edits[k];
        if (e->begin < at) {
            error_at(&g, e->begin, "internal error: overlapping edits");
            break;
        }
        put_source(&t, &g, at, e->begin);
        if (e->kind == EDIT_PROLOGUE || e->kind == EDIT_NODES || e->kind == EDIT_DOALL)
            if (t.len && t.s[t.len - 1] != '\n')
                put(&t, "\n");
        put_edit(&t, &g, e);
        at = e->end;
    }
    put_source(&t, &g, at, len);
    own_line_directive(&t, &g);
    put_tables(&t, &g);
    free(edits);
    free(g.array_id);
    free(g.line_start);
    if (t.failed && !g.errors) {
        putf(&g.diag, "hyperdo: error: out of memory\n");
        g.errors++;
    }
    *diagnostics = take(&g.diag);
    if (g.errors) {
        free(t.s);
        return g.errors;
    }
    *out_len = t.len;
    *out = take(&t);
    return 0;
}
