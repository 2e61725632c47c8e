/*
 * test_cfront.c — the libclang C reader (frontend/cfront.c) end to end:
 * small annotated C programs are written to a temporary directory, read
 * with hd_c_read (runtime/include as the helpers' include directory) and
 * turned into a spec with hd_program_spec.
 *
 * The expected communications are derived here, independently, by brute
 * force.  Every index expression of the tables below is written once, in a
 * macro that both pastes its text into the generated program and compiles
 * it into this test as a C function of `int i` (with the real
 * hyperdo/bits.h), so the test knows, for every iteration i, which element
 * the program reads.  The owners of that element and of the element the
 * iteration writes follow from the distribution by the formulas of
 * docs/annotations.md (cyclic: the low n bits; block: the high n bits;
 * block_cyclic(B): bits log2 B .. log2 B + n - 1; 2^n elements: the
 * element itself).  From the (source, destination) pairs:
 *   - local when source == destination for every i (the read is absent
 *     from the spec);
 *   - a gather y = A x + b when every processor is a source and each
 *     source has one destination, that map being affine: b = y(0), column
 *     j = y(2^j) ^ b, checked on all 2^n processors;
 *   - else a scatter x = A y + b when the mirror image holds;
 *   - else general.
 * Positions in diagnostics and spec entries are marked in the program
 * text with '@' (removed before writing it), so the expected line and
 * column come from the text, not from the reader.
 *
 * Each (index form, distribution) pair and each rejected program is a
 * cmocka test of its own, so one failure does not hide the others;
 * HYPERDO_TEST_FILTER (a cmocka pattern) runs a subset.
 */
#include "testutil.h"

#include "frontend.h"

#include <hyperdo/bits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef HYPERDO_INCLUDE_DIR
#error "HYPERDO_INCLUDE_DIR (the source tree's runtime/include) must be defined"
#endif

/* Shared by the generated programs and the functions compiled here. */
#define SHARED_DECLS enum { N = 8, MASK = 0x0f, SHIFT = 2 };
SHARED_DECLS
#define STR_(...) #__VA_ARGS__
#define STR(...) STR_(__VA_ARGS__)

/* ------------------------------------------------------ temp files */

static char tmpdir[256];
static int nfiles;

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/hyperdo-cfront-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char path[512];
    for (int k = 0; k < nfiles; k++) {
        snprintf(path, sizeof path, "%s/p%d.c", tmpdir, k);
        unlink(path);
    }
    rmdir(tmpdir);
    return 0;
}

/* Removes the '@' markers from `marked` into out; marks[m] receives the
 * 1-based line and column (in bytes, as compilers count) of marker m. */
typedef struct {
    int line, col;
} pos;

static int strip_markers(const char *marked, char *out, size_t size,
                         pos *marks, int max)
{
    int nmarks = 0, line = 1, col = 1;
    size_t n = 0;
    for (const char *p = marked; *p; p++) {
        if (*p == '@') {
            if (nmarks < max) {
                marks[nmarks].line = line;
                marks[nmarks].col = col;
            }
            nmarks++;
            continue;
        }
        if (n + 1 < size)
            out[n++] = *p;
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    out[n] = '\0';
    return nmarks;
}

/* Line `line` (1-based) of text, without its newline. */
static void line_of(const char *text, int line, char *out, size_t size)
{
    const char *p = text;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    size_t n = 0;
    while (p && *p && *p != '\n' && n + 1 < size)
        out[n++] = *p++;
    out[n] = '\0';
}

/* The reader and then the analysis into its sink, as `hyperdo analyze`
 * runs them: the diagnostics (NULL: none); the program and the results
 * to release either way. */
static char *read_and_analyse(const char *path, const hd_c_options *opt, hd_program *prog,
                              hd_analysis *results, int *errors)
{
    hd_diags d;
    hd_c_read(path, opt, prog, &d);
    *errors = hd_analyse_program(prog, &d, results);
    char *text = hd_diags_text(&d);
    hd_diags_free(&d);
    return text;
}

typedef struct {
    char path[512];
    hd_program prog;
    hd_analysis results;
    hd_spec spec;
    char *diag;
    int errors;
    bool have_spec;
} reading;

/* Writes the program and reads it; on success also makes the spec. */
static void read_program(reading *r, const char *text, int dim)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s/p%d.c", tmpdir, nfiles++);
    FILE *f = fopen(r->path, "w");
    TU_CHECK(f != NULL, "cannot write %s", r->path);
    fputs(text, f);
    fclose(f);
    hd_c_options opt;
    memset(&opt, 0, sizeof opt);
    opt.dim = dim;
    opt.include_dir = HYPERDO_INCLUDE_DIR;
    r->diag = read_and_analyse(r->path, &opt, &r->prog, &r->results, &r->errors);
    if (r->errors == 0) {
        TU_CHECK_EQ(hd_program_spec(&r->prog, &r->results, &r->spec), HD_SPEC_OK,
                    "hd_program_spec");
        r->have_spec = true;
    }
}

static void release(reading *r)
{
    if (r->have_spec)
        hd_spec_free(&r->spec);
    hd_program_free(&r->prog);
    hd_analysis_free(&r->results);
    free(r->diag);
    r->diag = NULL;
}

/* The program must read cleanly, without any diagnostic. */
static void expect_clean(const reading *r, const char *what, const char *text)
{
    TU_CHECK(r->errors == 0 && r->diag == NULL, "%s: %d errors reading\n%s\n"
             "diagnostics:\n%s", what, r->errors, text,
             r->diag ? r->diag : "(none)");
}

/* ------------------------------------------------------ brute force */

typedef enum { BF_LOCAL, BF_GATHER, BF_SCATTER, BF_GENERAL } bf_kind;

static const char *const bf_names[] = { "local", "gather", "scatter", "general" };

typedef struct {
    bf_kind kind;
    int n;
    uint64_t row[64];     /* row t bit j = a_tj */
    uint64_t b;
} bf_comm;

/* How the elements of an array of 2^log2_size lie on the 2^n processors. */
typedef struct {
    hd_dist_kind dist;
    int log2_size;
    int block_log2;       /* BLOCK_CYCLIC */
} layout;

static uint64_t owner(const layout *l, int n, uint64_t element)
{
    uint64_t low = (UINT64_C(1) << n) - 1;
    switch (l->dist) {
    case HD_DIST_EXACT: return element;
    case HD_DIST_CYCLIC: return element & low;
    case HD_DIST_BLOCK: return element >> (l->log2_size - n);
    case HD_DIST_BLOCK_CYCLIC: return (element >> l->block_log2) & low;
    default: return 0;
    }
}

/* Whether `to` is a function of `from` over the pairs, defined on all 2^n
 * processors and affine; if so fills the matrix and vector. */
static bool affine_function(int n, const uint64_t *from, const uint64_t *to,
                            uint64_t count, bf_comm *out)
{
    uint64_t size = UINT64_C(1) << n, *table = malloc(size * sizeof *table);
    bool ok = table != NULL;
    for (uint64_t x = 0; ok && x < size; x++)
        table[x] = UINT64_MAX;
    for (uint64_t t = 0; ok && t < count; t++) {
        if (table[from[t]] == UINT64_MAX)
            table[from[t]] = to[t];
        else if (table[from[t]] != to[t])
            ok = false;
    }
    for (uint64_t x = 0; ok && x < size; x++)
        ok = table[x] != UINT64_MAX;
    if (ok) {
        uint64_t col[64];
        memset(out->row, 0, sizeof out->row);
        out->b = table[0];
        for (int j = 0; j < n; j++) {
            col[j] = table[UINT64_C(1) << j] ^ table[0];
            for (int t = 0; t < n; t++)
                out->row[t] |= ((col[j] >> t) & 1) << j;
        }
        /* table[x] = b ^ sum of the columns of x's bits, by induction. */
        for (uint64_t x = 1; ok && x < size; x++)
            ok = table[x] == (table[x & (x - 1)] ^ col[__builtin_ctzll(x)]);
    }
    free(table);
    return ok;
}

static bf_comm classify(int n, const uint64_t *src, const uint64_t *dst,
                        uint64_t count)
{
    bf_comm c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.kind = BF_LOCAL;
    for (uint64_t t = 0; t < count && c.kind == BF_LOCAL; t++)
        if (src[t] != dst[t])
            c.kind = BF_GENERAL;
    if (c.kind == BF_LOCAL)
        return c;
    if (affine_function(n, src, dst, count, &c))
        c.kind = BF_GATHER;
    else if (affine_function(n, dst, src, count, &c))
        c.kind = BF_SCATTER;
    else
        c.kind = BF_GENERAL;
    return c;
}

/* The communication of a read: iteration i (0 <= i < 2^k) writes element
 * w(i) of an array laid out as `wl` and reads element e(i) of one laid out
 * as `rl`. */
typedef long long (*index_fn)(int i);

static long long identity_index(int i)
{
    return i;
}

static bf_comm expected_comm(int n, int k, const layout *rl, index_fn e,
                             const layout *wl, index_fn w, const char *what)
{
    uint64_t count = UINT64_C(1) << k;
    uint64_t *src = malloc(count * sizeof *src), *dst = malloc(count * sizeof *dst);
    TU_CHECK(src && dst, "out of memory");
    for (uint64_t i = 0; i < count; i++) {
        long long ev = e((int)i), wv = w((int)i);
        TU_CHECK(ev >= 0 && ev < (1LL << rl->log2_size), "%s: the table's "
                 "index is out of bounds at i = %llu (test bug)", what,
                 (unsigned long long)i);
        src[i] = owner(rl, n, (uint64_t)ev);
        dst[i] = owner(wl, n, (uint64_t)wv);
    }
    bf_comm c = classify(n, src, dst, count);
    free(src);
    free(dst);
    return c;
}

static void print_rows(char *buf, size_t size, int n, const uint64_t *row,
                       uint64_t b)
{
    size_t at = 0;
    for (int t = 0; t < n && at + n + 2 < size; t++) {
        for (int j = 0; j < n; j++)
            buf[at++] = (char)('0' + ((row[t] >> j) & 1));
        buf[at++] = ' ';
    }
    at += (size_t)snprintf(buf + at, size - at, "b=");
    for (int t = 0; t < n && at + 1 < size; t++)
        buf[at++] = (char)('0' + ((b >> t) & 1));
    buf[at] = '\0';
}

/* The spec entry for a read, or its absence, against the brute force.
 * `by_design_general`: the index is not affine, so the reader may call the
 * read general even where the owners happen to be related affinely. */
static void check_entry(const char *what, const reading *r, int entry,
                        const bf_comm *want, bool by_design_general)
{
    char got_s[700], want_s[700];
    if (want->kind == BF_LOCAL) {
        TU_CHECK(entry >= r->spec.m, "%s: brute force says local, but the "
                 "spec has entry %d ('%s', %s)", what, entry,
                 entry < r->spec.m ? r->spec.lccs[entry].name : "",
                 entry < r->spec.m && r->spec.lccs[entry].comm.reason
                     ? r->spec.lccs[entry].comm.reason : "an LCC");
        return;
    }
    TU_CHECK(entry < r->spec.m, "%s: brute force says %s, but the spec has "
             "no entry %d (m = %d)", what, bf_names[want->kind], entry, r->spec.m);
    const hd_named_lcc *e = &r->spec.lccs[entry];
    if (want->kind == BF_GENERAL || (by_design_general && e->comm.reason)) {
        TU_CHECK(e->comm.reason != NULL, "%s: brute force says general, the spec "
                 "an LCC (%s)", what, e->comm.lcc->dir == HD_GATHER ? "gather" : "scatter");
        TU_CHECK(e->comm.reason[0] != '\0', "%s: general without a reason", what);
        return;
    }
    TU_CHECK(e->comm.reason == NULL, "%s: brute force says %s, the spec general: "
             "%s", what, bf_names[want->kind], e->comm.reason);
    print_rows(got_s, sizeof got_s, e->comm.lcc->A.n, e->comm.lcc->A.row, e->comm.lcc->b);
    print_rows(want_s, sizeof want_s, want->n, want->row, want->b);
    TU_CHECK(e->comm.lcc->dir == (want->kind == BF_GATHER ? HD_GATHER : HD_SCATTER),
             "%s: direction: got %s, brute force %s", what,
             e->comm.lcc->dir == HD_GATHER ? "gather" : "scatter", bf_names[want->kind]);
    TU_CHECK(e->comm.lcc->A.n == want->n, "%s: A is %d x %d, want n = %d", what,
             e->comm.lcc->A.n, e->comm.lcc->A.n, want->n);
    bool same = e->comm.lcc->b == want->b;
    for (int t = 0; t < 64; t++)
        same = same && e->comm.lcc->A.row[t] == (t < want->n ? want->row[t] : 0);
    TU_CHECK(same, "%s: %s y = A x + b (rows a_t0..a_t,n-1):\n    got  %s\n"
             "    want %s", what, bf_names[want->kind], got_s, want_s);
}

/* ------------------------------------------------------ index forms */

/* X(name, by_design_general, expression of int i).  Every expression
 * stays in 0 .. 255. */
#define FORMS_1D(X)                                                        \
    X(constant, false, 5)                                                  \
    X(enum_constant, false, MASK)                                          \
    X(identity, false, i)                                                  \
    X(xor_const, false, i ^ 0x5a)                                          \
    X(xor_enum, false, i ^ MASK)                                           \
    X(and_const, false, i & 0xf0)                                          \
    X(or_const, false, i | 3)                                              \
    X(shl_masked, false, (i << 3) & 0xff)                                  \
    X(shl_enum, false, (i << SHIFT) & 255)                                 \
    X(shr, false, i >> 2)                                                  \
    X(not_masked, false, ~i & 255)                                         \
    X(n_minus_1_minus_i, false, (1 << N) - 1 - i)                          \
    X(literal_255_minus_i, false, 255 - i)                                 \
    X(n_minus_1_xor_i, false, ((1 << N) - 1) ^ i)                          \
    X(transpose_or, false, (i >> 4) | ((i & 15) << 4))                     \
    X(transpose_add, false, (i >> 4) + ((i & 15) << 4))                    \
    X(gray_expr, false, i ^ (i >> 1))                                      \
    X(parts_xor, false, ((i & 0x0f) << 4) ^ (i >> 4) ^ (i & 0x30))         \
    X(reverse, false, reverse(i, N))                                       \
    X(reverse_low, false, reverse(i & 15, 4) | (i & 240))                  \
    X(gray, false, gray(i))                                                \
    X(rotl, false, rotl(i, 3, N))                                          \
    X(rotr, false, rotr(i, 3, N))                                          \
    X(rotr_wide_r, false, rotr(i, 11, N))                                  \
    X(rotl_negative_r, false, rotl(i, -1, 6) | (i & 192))                  \
    X(rotr_negative_r, false, rotr(i, -2, 6) | (i & 192))                  \
    X(shuffle, false, shuffle(i, N))                                       \
    X(unshuffle, false, unshuffle(i, N))                                   \
    X(transpose, false, transpose(i, N))                                   \
    X(transpose_low, false, transpose(i, 4) | (i & 0xf0))                  \
    X(bit, false, bit(i, 3))                                               \
    X(bit_moved, false, (bit(i, 7) << 6) | (bit(i, 6) << 7) | (i & 63))    \
    X(mul_div_mod, false, (i % 16) * 16 + i / 16)                          \
    X(div2, false, i / 2)                                                  \
    X(mod_of_xor, false, (i ^ 0x5b) % 16 + (i & 0xf0))                     \
    X(mul2_mod, false, i * 2 % 256)                                        \
    X(cast_uchar_shl, false, (unsigned char)(i << 4))                      \
    X(cast_uchar_not, false, (unsigned char)~i)                            \
    X(cast_unsigned_xor, false, (int)((unsigned)i ^ 0x55u))                \
    X(cond_const, false, 1 ? i ^ 64 : 0)                                   \
    X(cond_sizeof, false, sizeof(int) == 4 ? i ^ 1 : i * 3)                \
    X(sar_negative, false, (~i >> 1) & 255)                                \
    X(sar_negative_28, false, (~i >> 28) & 255)                            \
    X(shr_unsigned_28, false, (~(unsigned)i >> 28) & 255)                  \
    X(minus_one_minus_i, false, (-1 - i) & 255)                            \
    X(sar_sign_from_i, false, ((int)((unsigned)i << 24) >> 28) & 255)      \
    X(sar_schar, false, ((signed char)i >> 4) & 255)                       \
    X(sar_long_sign, false, (int)((long)((unsigned long)i << 56) >> 60) & 255) \
    X(unsigned_loopvar_mix, false, (int)(((unsigned long)i << 60) >> 56))  \
    X(bool_cast_bit, false, (_Bool)(i & 1) | (i & 254))                    \
    X(ulong_compare_const, false, i ^ ((0ul - 1 > 5ul) << 7))              \
    X(bool_cast, true, (_Bool)i)                                           \
    X(ulong_compare, true, ((unsigned long)i - 1 < 127ul) ? i : 0)         \
    X(plus_one, true, (i + 1) & 255)                                       \
    X(times_three, true, (i * 3) & 255)                                    \
    X(square, true, (i * i) & 255)                                         \
    X(minus_one, true, (i - 1) & 255)                                      \
    X(variable_shift, true, (i << (i & 3)) & 255)                          \
    X(cond_on_i, true, (i & 1) ? i : 0)                                    \
    X(and_of_i, true, i & (i >> 1))                                        \
    X(plus_one_mod, true, (i + 1) % 256)                                   \
    X(cast_times_three, true, (unsigned char)(i * 3))                      \
    X(div3, true, i / 3)                                                   \
    X(div_negative, true, (~i / 4) & 255)

#define DEFINE_FORM(name, gen, ...)                                        \
    static long long form_##name(int i)                                    \
    {                                                                      \
        (void)i;                                                           \
        return (long long)(__VA_ARGS__);                                   \
    }
FORMS_1D(DEFINE_FORM)

typedef struct {
    const char *name;
    bool by_design_general;
    const char *text;
    index_fn fn;
} form;

#define FORM_ENTRY(name, gen, ...) { #name, gen, #__VA_ARGS__, form_##name },
static const form forms_1d[] = { FORMS_1D(FORM_ENTRY) };
#define NFORMS_1D ((int)(sizeof forms_1d / sizeof forms_1d[0]))

/* The generated program for r[<index>]: the read is on line 10, column 16,
 * the loop's for on line 9. */
static const char program_1d[] =
    "#include <hyperdo/bits.h>\n"
    STR(SHARED_DECLS) "\n"
    "%s\n"
    "double r[1 << N], b[1 << N];\n"
    "%s\n"
    "void kernel(void)\n"
    "{\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i < 1 << N; i++)\n"
    "        b[i] = r[%s];\n"
    "}\n";

/* One way of distributing r and b. */
typedef struct {
    const char *name;
    const char *cube;         /* line 3 */
    const char *distribute;   /* line 5 */
    int n;
    layout l;
} scenario;

static const scenario scenarios[] = {
    { "2^n elements (n = 8)", "", "", 8, { HD_DIST_EXACT, 8, 0 } },
    { "cyclic, n = 4", "#pragma hyperdo cube(4)",
      "#pragma hyperdo distribute(r, b : cyclic)", 4, { HD_DIST_CYCLIC, 8, 0 } },
    { "block, n = 4", "#pragma hyperdo cube(4)",
      "#pragma hyperdo distribute(r, b : block)", 4, { HD_DIST_BLOCK, 8, 0 } },
    { "block_cyclic(4), n = 4", "#pragma hyperdo cube(4)",
      "#pragma hyperdo distribute(r, b : block_cyclic(4))", 4,
      { HD_DIST_BLOCK_CYCLIC, 8, 2 } },
    { "cyclic, n = 6", "#pragma hyperdo cube(6)",
      "#pragma hyperdo distribute(b, r : cyclic)", 6, { HD_DIST_CYCLIC, 8, 0 } },
};

/* The spec entry's position and names for the 1-D program. */
static void check_entry_position(const char *what, const reading *r,
                                 const char *array, const char *text)
{
    if (r->spec.m < 1)
        return;
    const hd_named_lcc *e = &r->spec.lccs[0];
    char name[256];
    snprintf(name, sizeof name, "%s[%s]", array, text);
    TU_CHECK_EQ(e->line, 10, what);
    TU_CHECK_EQ(e->col, 16, what);
    TU_CHECK_EQ(e->loop_line, 9, what);
    TU_CHECK(e->array && strcmp(e->array, array) == 0, "%s: array '%s'",
             what, e->array ? e->array : "(null)");
    TU_CHECK(e->name && strcmp(e->name, name) == 0, "%s: name '%s', want '%s'",
             what, e->name ? e->name : "(null)", name);
}

/* One form under one distribution: its own cmocka test, so that a
 * failing form does not hide the others. */
typedef struct {
    const scenario *s;
    const form *f;
    char name[200];
} form_case;

static void test_form(void **state)
{
    const form_case *c = *state;
    const scenario *sc = c->s;
    const form *fm = c->f;
    char text[4096], what[256];
    reading r;
    tu_rng_init(c->name);
    snprintf(what, sizeof what, "r[%s], %s", fm->text, sc->name);
    snprintf(text, sizeof text, program_1d, sc->cube, sc->distribute, fm->text);
    read_program(&r, text, 0);
    expect_clean(&r, what, text);
    TU_CHECK_EQ(r.spec.n, sc->n, what);
    TU_CHECK_EQ(r.prog.n, sc->n, what);
    TU_CHECK(r.spec.m <= 1, "%s: %d spec entries", what, r.spec.m);
    bf_comm want = expected_comm(sc->n, 8, &sc->l, fm->fn, &sc->l,
                                 identity_index, what);
    /* The table's own tags, on 2^n elements: affine forms are LCCs or
     * local, the others truly general. */
    if (sc->l.dist == HD_DIST_EXACT)
        TU_CHECK((want.kind == BF_GENERAL) == fm->by_design_general,
                 "%s: brute force says %s (test table bug)", what,
                 bf_names[want.kind]);
    check_entry(what, &r, 0, &want, fm->by_design_general);
    check_entry_position(what, &r, "r", fm->text);
    release(&r);
}

/* ------------------------------------------------ multi-dimensional */

/* X(name, by_design_general, f, g): a[f][g] on double a[16][16]. */
#define FORMS_2D(X)                                                        \
    X(rows, false, i >> 4, i & 15)                                         \
    X(transpose, false, i & 15, i >> 4)                                    \
    X(reverse_row, false, reverse(i >> 4, 4), i & 15)                      \
    X(complemented, false, (i >> 4) ^ 3, ~i & 15)                          \
    X(gray_cols, false, i & 15, gray(i >> 4))                              \
    X(broadcast_row, false, 0, i & 15)                                     \
    X(plus_one_col, true, i >> 4, (i + 1) & 15)

#define DEFINE_FORM2(name, gen, f, g)                                      \
    static long long form2_##name(int i)                                   \
    {                                                                      \
        long long row = (f), col = (g);                                    \
        TU_CHECK(row >= 0 && row < 16 && col >= 0 && col < 16,             \
                 "a[%s][%s] out of its extents (test bug)", #f, #g);       \
        return row * 16 + col;                                             \
    }
FORMS_2D(DEFINE_FORM2)

typedef struct {
    const char *name;
    bool by_design_general;
    const char *f, *g;
    index_fn fn;
} form2;

#define FORM2_ENTRY(name, gen, f, g) { #name, gen, #f, #g, form2_##name },
static const form2 forms_2d[] = { FORMS_2D(FORM2_ENTRY) };

/* 3-D: c[f][g][h] on double c[2][16][8]. */
static long long form3_rows(int i) { return ((i >> 7) * 16 + ((i >> 3) & 15)) * 8 + (i & 7); }
static long long form3_mixed(int i) { return ((i & 1) * 16 + ((i >> 1) & 15)) * 8 + (i >> 5); }
static long long form3_reversed(int i)
{
    return (((i >> 7) ^ 1) * 16 + (long long)reverse((i >> 3) & 15, 4)) * 8 + (i & 7);
}

static void test_multidimensional(void **state)
{
    (void)state;
    tu_rng_init("cfront.multidimensional");
    static const char program[] =
        "#include <hyperdo/bits.h>\n"
        STR(SHARED_DECLS) "\n"
        "double a[16][16], b[1 << N];\n"
        "\n"
        "\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 1 << N; i++)\n"
        "        b[i] = a[%s][%s];\n"
        "}\n";
    layout l = { HD_DIST_EXACT, 8, 0 };
    char text[4096], what[256], name[256];
    for (size_t f = 0; f < sizeof forms_2d / sizeof forms_2d[0]; f++) {
        const form2 *fm = &forms_2d[f];
        reading r;
        snprintf(what, sizeof what, "a[%s][%s]", fm->f, fm->g);
        snprintf(text, sizeof text, program, fm->f, fm->g);
        read_program(&r, text, 0);
        expect_clean(&r, what, text);
        TU_CHECK_EQ(r.spec.n, 8, what);
        bf_comm want = expected_comm(8, 8, &l, fm->fn, &l, identity_index, what);
        TU_CHECK((want.kind == BF_GENERAL) == fm->by_design_general,
                 "%s: brute force says %s (test table bug)", what, bf_names[want.kind]);
        check_entry(what, &r, 0, &want, fm->by_design_general);
        if (r.spec.m == 1) {
            snprintf(name, sizeof name, "a[%s][%s]", fm->f, fm->g);
            TU_CHECK(strcmp(r.spec.lccs[0].name, name) == 0, "%s: name '%s'",
                     what, r.spec.lccs[0].name);
            TU_CHECK(strcmp(r.spec.lccs[0].array, "a") == 0, "%s: array", what);
            TU_CHECK_EQ(r.spec.lccs[0].col, 16, what);
        }
        /* One reference for a[f][g], not one per subscript. */
        TU_CHECK(r.prog.nloops == 1 && r.prog.loops[0].nrefs == 2,
                 "%s: %d references", what, r.prog.nloops ? r.prog.loops[0].nrefs : -1);
        release(&r);
    }

    static const struct {
        const char *subscripts;
        index_fn fn;
    } three[] = {
        { "[i >> 7][(i >> 3) & 15][i & 7]", form3_rows },
        { "[i & 1][(i >> 1) & 15][i >> 5]", form3_mixed },
        { "[(i >> 7) ^ 1][reverse((i >> 3) & 15, 4)][i & 7]", form3_reversed },
    };
    static const char program3[] =
        "#include <hyperdo/bits.h>\n"
        "double c[2][16][8], b[256];\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 256; i++)\n"
        "        b[i] = c%s;\n"
        "}\n";
    for (size_t f = 0; f < sizeof three / sizeof three[0]; f++) {
        reading r;
        snprintf(what, sizeof what, "c%s", three[f].subscripts);
        snprintf(text, sizeof text, program3, three[f].subscripts);
        read_program(&r, text, 0);
        expect_clean(&r, what, text);
        bf_comm want = expected_comm(8, 8, &l, three[f].fn, &l, identity_index, what);
        check_entry(what, &r, 0, &want, false);
        release(&r);
    }
}

/* ------------------------------------------ data-dependent, replicated */

static void test_general_and_local_reads(void **state)
{
    (void)state;
    tu_rng_init("cfront.general_and_local_reads");
    static const char program[] =
        "#include <hyperdo/bits.h>\n"
        "double r[256], b[256], w[16];\n"
        "int idx[256], m;\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 256; i++)\n"
        "        b[i] = r[%s];\n"
        "}\n";
    static const struct {
        const char *index;
        const char *reason_word;   /* the reason names what the index uses */
    } general[] = {
        { "idx[i] & 255", "idx" },
        { "i + m", "m" },
        { "(i + m) & 255", "m" },
    };
    char text[2048];
    for (size_t c = 0; c < sizeof general / sizeof general[0]; c++) {
        reading r;
        snprintf(text, sizeof text, program, general[c].index);
        read_program(&r, text, 0);
        expect_clean(&r, general[c].index, text);
        /* idx[i] itself is a local read (idx has 2^n elements). */
        TU_CHECK_EQ(r.spec.m, 1, general[c].index);
        TU_CHECK(r.spec.lccs[0].comm.reason != NULL, "r[%s] must be general",
                 general[c].index);
        TU_CHECK(strstr(r.spec.lccs[0].comm.reason, general[c].reason_word) != NULL,
                 "r[%s]: the reason '%s' does not name '%s'", general[c].index,
                 r.spec.lccs[0].comm.reason, general[c].reason_word);
        release(&r);
    }
    /* An outer variable XORed in is an LCC family (docs/layouts.md,
     * "Parametric indices"): an LCC, the bits of b it reaches known at run
     * time only; + of it may carry, which is general (above). */
    static const char *const families[] = { "i ^ m", "(i ^ m) & 255", "i ^ (m & 3)" };
    for (size_t c = 0; c < sizeof families / sizeof families[0]; c++) {
        reading r;
        snprintf(text, sizeof text, program, families[c]);
        read_program(&r, text, 0);
        expect_clean(&r, families[c], text);
        TU_CHECK_EQ(r.spec.m, 1, families[c]);
        TU_CHECK(r.spec.lccs[0].comm.kind == HD_COMM_LCC, "r[%s] must be an LCC family",
                 families[c]);
        TU_CHECK(r.spec.lccs[0].comm.b_runtime != 0, "r[%s]: no bit of b is known at run "
                 "time only", families[c]);
        release(&r);
    }
    /* w has 16 elements and no distribute pragma: replicated, so reading
     * it is local whatever the index. */
    static const char replicated[] =
        "double r[256], b[256], w[16];\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 256; i++)\n"
        "        b[i] = w[(i * 7) & 15] + w[i >> 4] + r[i];\n"
        "}\n";
    reading r;
    read_program(&r, replicated, 0);
    expect_clean(&r, "replicated", replicated);
    TU_CHECK_EQ(r.spec.m, 0, "reads of a replicated array and r[i] are local");
    release(&r);
}

/* ------------------------------------------------ positions in the spec */

#define POS_XOR i ^ 1
#define POS_REVERSE reverse(i, 8)
#define POS_TRANSPOSE (i >> 4) | ((i & 15) << 4)
#define POS_NOT ~i & 255
DEFINE_FORM(pos_xor, false, POS_XOR)
DEFINE_FORM(pos_reverse, false, POS_REVERSE)
DEFINE_FORM(pos_transpose, false, POS_TRANSPOSE)
DEFINE_FORM(pos_not, false, POS_NOT)

static void test_spec_positions(void **state)
{
    (void)state;
    tu_rng_init("cfront.spec_positions");
    /* Tabs count as one column, as in compilers' diagnostics. */
    static const char marked_fmt[] =
        "#include <hyperdo/bits.h>\n"
        "double r[256], b[256], c[256];\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "  @for (int i = 0; i < 256; i++) {\n"
        "\tb[i] = @r[%s] + @c[%s];\n"
        "        double t = @r[%s];\n"
        "\t\tb[i] = b[i] + t + r[i];\n"
        "  }\n"
        "   /* a comment */\n"
        "#pragma hyperdo doall\n"
        "\t   @for (int i = 0; i < 256; i++) c[i] = @r[%s] + b[i];\n"
        "}\n";
    static const struct {
        const char *array, *index;
        index_fn fn;
        int mark, loop_mark;
    } refs[] = {
        { "r", STR(POS_XOR), form_pos_xor, 1, 0 },
        { "c", STR(POS_REVERSE), form_pos_reverse, 2, 0 },
        { "r", STR(POS_TRANSPOSE), form_pos_transpose, 3, 0 },
        { "r", STR(POS_NOT), form_pos_not, 5, 4 },
    };
    char marked[2048], text[2048], name[128];
    snprintf(marked, sizeof marked, marked_fmt, refs[0].index, refs[1].index,
             refs[2].index, refs[3].index);
    pos marks[8];
    int nm = strip_markers(marked, text, sizeof text, marks, 8);
    TU_CHECK_EQ(nm, 6, "markers");
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "positions", text);
    TU_CHECK_EQ(r.spec.m, 4, "spec entries (b[i], t and r[i] are local)");
    layout l = { HD_DIST_EXACT, 8, 0 };
    for (int k = 0; k < 4 && k < r.spec.m; k++) {
        const hd_named_lcc *e = &r.spec.lccs[k];
        const pos *at = &marks[refs[k].mark];
        snprintf(name, sizeof name, "%s[%s]", refs[k].array, refs[k].index);
        TU_CHECK(strcmp(e->name, name) == 0, "entry %d is '%s', want '%s'",
                 k, e->name, name);
        TU_CHECK(strcmp(e->array, refs[k].array) == 0, "entry %d array '%s'",
                 k, e->array);
        TU_CHECK(e->line == at->line && e->col == at->col,
                 "'%s' at %d:%d, the text has it at %d:%d", name, e->line,
                 e->col, at->line, at->col);
        TU_CHECK(e->loop_line == marks[refs[k].loop_mark].line,
                 "'%s': loop on line %d, the text has it on %d", name,
                 e->loop_line, marks[refs[k].loop_mark].line);
        bf_comm want = expected_comm(8, 8, &l, refs[k].fn, &l, identity_index, name);
        check_entry(name, &r, k, &want, false);
    }
    /* The loops' own positions. */
    TU_CHECK_EQ(r.prog.nloops, 2, "loops");
    TU_CHECK(r.prog.loops[0].line == marks[0].line && r.prog.loops[0].col == marks[0].col,
             "loop 1 at %d:%d, the text has it at %d:%d", r.prog.loops[0].line,
             r.prog.loops[0].col, marks[0].line, marks[0].col);
    TU_CHECK(r.prog.loops[1].line == marks[4].line && r.prog.loops[1].col == marks[4].col,
             "loop 2 at %d:%d, the text has it at %d:%d", r.prog.loops[1].line,
             r.prog.loops[1].col, marks[4].line, marks[4].col);
    TU_CHECK_EQ(r.prog.loops[0].pragma_line, marks[0].line - 1, "pragma line of loop 1");
    TU_CHECK_EQ(r.prog.loops[1].pragma_line, marks[4].line - 1, "pragma line of loop 2");
    release(&r);
}

/* ------------------------------------------------------ loop headers */

#define XOR3 i ^ 3
DEFINE_FORM(xor3, false, XOR3)

/* Canonical headers written in every accepted way. */
static void test_loop_headers(void **state)
{
    (void)state;
    tu_rng_init("cfront.loop_headers");
    static const char fmt[] =
        "#include <hyperdo/bits.h>\n"
        "#define SIZE 256\n"
        "#define LOG 8\n"
        "enum { E_SIZE = 256 };\n"
        "double r[256], b[256];\n"
        "void kernel(void)\n"
        "{\n"
        "%s\n"
        "#pragma hyperdo doall\n"
        "    for (%s)\n"
        "        b[i] = r[" STR(XOR3) "];\n"
        "}\n";
    static const struct {
        const char *before, *header;
    } headers[] = {
        { "", "int i = 0; i < 256; i++" },
        { "", "int i = 0; i < SIZE; i++" },
        { "", "int i = 0; i < E_SIZE; i++" },
        { "", "int i = 0; i < 1 << LOG; i++" },
        { "", "int i = 0; i < (1 << 8); ++i" },
        { "", "int i = 0; i < (int)(sizeof r / sizeof r[0]); i += 1" },
        { "", "int i = 0; i < 0x100; i = i + 1" },
        { "", "int i = 0; i < 256; i = 1 + i" },
        { "    int i;", "i = 0; i < 256; i++" },
        { "    int i;", "i = 0; i < SIZE; ++i" },
        { "    long i;", "i = 0; i < 256; i += 1" },
        { "", "unsigned i = 0; i < 256u; i++" },
        { "", "long i = 0; i < 256L; i++" },
        { "", "short i = 0; i < 256; i++" },
        { "", "unsigned long i = 0; i < E_SIZE; i++" },
        /* Comments ending the line before the pragma do not hide it. */
        { "    r[0] = 1; /* x */", "int i = 0; i < 256; i++" },
        { "    r[0] = 1; /* a\n       b */", "int i = 0; i < 256; i++" },
        { "    r[0] = 1; // x /*", "int i = 0; i < 256; i++" },
        { "    /* x */ r[0] = 1; /**/", "int i = 0; i < 256; i++" },
    };
    layout l = { HD_DIST_EXACT, 8, 0 };
    char text[2048], what[256];
    for (size_t h = 0; h < sizeof headers / sizeof headers[0]; h++) {
        reading r;
        snprintf(what, sizeof what, "for (%s)", headers[h].header);
        snprintf(text, sizeof text, fmt, headers[h].before, headers[h].header);
        read_program(&r, text, 0);
        expect_clean(&r, what, text);
        TU_CHECK_EQ(r.prog.nloops, 1, what);
        TU_CHECK_EQ(r.prog.loops[0].k, 8, what);
        TU_CHECK(r.prog.loops[0].var && strcmp(r.prog.loops[0].var, "i") == 0,
                 "%s: loop variable '%s'", what,
                 r.prog.loops[0].var ? r.prog.loops[0].var : "(null)");
        TU_CHECK_EQ(r.spec.n, 8, what);
        bf_comm want = expected_comm(8, 8, &l, form_xor3, &l, identity_index, what);
        TU_CHECK(want.kind == BF_GATHER, "%s: brute force %s", what, bf_names[want.kind]);
        check_entry(what, &r, 0, &want, false);
        release(&r);
    }
}

/* ------------------------------------------------ the cube's dimension */

#define XOR35 i ^ 0x35
DEFINE_FORM(xor35, false, XOR35)
#define REVERSE8 reverse(i, 8)
DEFINE_FORM(reverse8, false, REVERSE8)

static void test_cube_and_dim(void **state)
{
    (void)state;
    tu_rng_init("cfront.cube_and_dim");
    static const char fmt[] =
        "#include <hyperdo/bits.h>\n"
        "#pragma hyperdo cube(4)\n"
        "double r[256], b[256];\n"
        "#pragma hyperdo distribute(r, b : cyclic)\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 256; i++)\n"
        "        b[i] = r[%s];\n"
        "}\n";
    static const struct {
        const char *text;
        index_fn fn;
    } reads[] = {
        { STR(XOR35), form_xor35 },
        { STR(REVERSE8), form_reverse8 },
    };
    /* dim 0: the pragma's 4; otherwise --dim wins over it. */
    static const int dims[] = { 0, 1, 2, 5, 6, 7, 8 };
    char text[2048], what[256];
    for (size_t f = 0; f < sizeof reads / sizeof reads[0]; f++)
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
            int n = dims[d] ? dims[d] : 4;
            layout l = { HD_DIST_CYCLIC, 8, 0 };
            reading r;
            snprintf(what, sizeof what, "r[%s], cube(4), dim %d", reads[f].text, dims[d]);
            snprintf(text, sizeof text, fmt, reads[f].text);
            read_program(&r, text, dims[d]);
            expect_clean(&r, what, text);
            TU_CHECK_EQ(r.prog.n, n, what);
            TU_CHECK_EQ(r.spec.n, n, what);
            bf_comm want = expected_comm(n, 8, &l, reads[f].fn, &l, identity_index, what);
            check_entry(what, &r, 0, &want, false);
            release(&r);
        }

    /* A loop of 16 iterations on an 8-cube: only 16 processors take part,
     * so the read is general, not an LCC of the 8-cube. */
    static const char small[] =
        "#pragma hyperdo cube(8)\n"
        "double r[256], b[256];\n"
        "void kernel(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 16; i++)\n"
        "        b[i] = r[" STR(XOR35) "];\n"
        "}\n";
    layout l = { HD_DIST_EXACT, 8, 0 };
    reading r;
    read_program(&r, small, 0);
    expect_clean(&r, "16 iterations on an 8-cube", small);
    TU_CHECK_EQ(r.prog.loops[0].k, 4, "k");
    bf_comm want = expected_comm(8, 4, &l, form_xor35, &l, identity_index, "small");
    TU_CHECK(want.kind == BF_GENERAL, "brute force: %s", bf_names[want.kind]);
    check_entry("16 iterations on an 8-cube", &r, 0, &want, false);
    release(&r);
}

/* ------------------------------------------------------- diagnostics */

/* Count of lines with ": error: " in the diagnostics. */
static int error_lines(const char *diag)
{
    int n = 0;
    for (const char *p = diag; p && (p = strstr(p, ": error: ")) != NULL; p++)
        n++;
    return n;
}

/* The program marked with one '@' must be rejected with an error at the
 * marker whose message contains `keyword`, followed by the source line and
 * a caret line with the caret under the marked column. */
static void check_rejected(const char *what, const char *marked,
                           const char *keyword)
{
    char text[4096], prefix[700], src_line[512];
    pos mk[2];
    int nm = strip_markers(marked, text, sizeof text, mk, 2);
    TU_CHECK_EQ(nm, 1, what);
    reading r;
    read_program(&r, text, 0);
    TU_CHECK(r.errors > 0, "%s: accepted:\n%s", what, text);
    TU_CHECK(r.diag != NULL, "%s: rejected without diagnostics", what);
    TU_CHECK_EQ(error_lines(r.diag), r.errors, "errors returned and printed");
    snprintf(prefix, sizeof prefix, "%s:%d:%d: error: ", r.path, mk[0].line, mk[0].col);
    line_of(text, mk[0].line, src_line, sizeof src_line);

    bool found = false;
    const char *p = r.diag;
    while (*p && !found) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        if (strncmp(line, prefix, strlen(prefix)) == 0 && strstr(line, keyword)) {
            found = true;
            char next[1024] = "", caret[1024] = "";
            const char *q = eol ? eol + 1 : p + len;
            const char *e2 = strchr(q, '\n');
            if (e2) {
                snprintf(next, sizeof next, "%.*s", (int)(e2 - q), q);
                const char *e3 = strchr(e2 + 1, '\n');
                snprintf(caret, sizeof caret, "%.*s",
                         (int)(e3 ? e3 - (e2 + 1) : (long)strlen(e2 + 1)), e2 + 1);
            }
            TU_CHECK(strcmp(next, src_line) == 0, "%s: after '%s' comes '%s', "
                     "not the source line '%s'", what, line, next, src_line);
            bool caret_ok = (int)strlen(caret) == mk[0].col &&
                            caret[mk[0].col - 1] == '^';
            for (int k = 0; caret_ok && k < mk[0].col - 1; k++)
                caret_ok = caret[k] == (src_line[k] == '\t' ? '\t' : ' ');
            TU_CHECK(caret_ok, "%s: the caret line\n'%s'\ndoes not put '^' under "
                     "column %d of\n'%s'", what, caret, mk[0].col, src_line);
        }
        p = eol ? eol + 1 : p + len;
    }
    TU_CHECK(found, "%s: no line '%s...%s...' in the diagnostics:\n%s", what,
             prefix, keyword, r.diag);
    release(&r);
}

#define PROLOGUE                                                           \
    "#include <hyperdo/bits.h>\n"                                          \
    "double r[256], b[256], w[16];\n"                                      \
    "int m = 256;\n"                                                       \
    "int f(int);\n"                                                        \
    "double s;\n"                                                          \
    "void kernel(void)\n"                                                  \
    "{\n"

typedef struct {
    const char *what, *text, *keyword;
} rejection;

static const rejection rejections[] = {
    { "start below 0", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = @-1; i < 255; i++)\n"
      "        b[i + 1] = r[i + 1];\n}\n", "not start below 0" },
    { "<=", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; @i <= 255; i++)\n"
      "        b[i] = r[i];\n}\n", "'i < N'" },
    { "i += 2", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; @i += 2)\n"
      "        b[i] = r[i];\n}\n", "step by one" },
    { "i--", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; @i--)\n"
      "        b[i] = r[i];\n}\n", "step by one" },
    { "bound reads an array", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < @w[0]; i++)\n"
      "        b[i] = r[i];\n}\n", "only constants and integer variables" },
    { "run-time bound, no x[i] written", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < @m; i++)\n"
      "        b[i ^ 1] = r[i];\n}\n", "constant expression, or the loop must write" },
    { "bound too big for the type", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (unsigned char i = 0; i < @256; i++)\n"
      "        b[i] = r[i];\n}\n", "cannot hold" },
    { "two iterations write one element", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        @b[i / 2] = r[i];\n}\n", "both write element" },
    { "non-pure call", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        b[i] = @f(i);\n}\n", "'f'" },
    { "clang: undeclared identifier", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        b[i] = @q[i];\n}\n", "undeclared identifier 'q'" },
    { "outer scalar written", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++) {\n"
      "        @s = r[i];\n"
      "        b[i] = s;\n"
      "    }\n}\n", "declared outside" },
    { "unknown pragma", "#pragma hyperdo @xyz\n" PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        b[i] = r[i];\n}\n", "unknown '#pragma hyperdo xyz'" },
    { "nested doall", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 16; i++) {\n"
      "#pragma hyperdo doall\n"
      "        @for (int j = 0; j < 16; j++)\n"
      "            b[i * 16 + j] = r[j];\n"
      "    }\n}\n", "nested doall" },
    { "index out of bounds (i + 256)", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        b[i] = @r[i + 256];\n}\n", "out of bounds" },
    { "index out of bounds (~i is negative)", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        b[i] = @r[~i];\n}\n", "out of bounds" },
    { "index out of bounds (general index)", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "        b[i] = @r[i * 3];\n}\n", "out of bounds" },
    { "doall not followed by a for", PROLOGUE
      "@#pragma hyperdo doall\n"
      "    {\n"
      "        for (int i = 0; i < 256; i++)\n"
      "            b[i] = r[i];\n"
      "    }\n}\n", "must be followed by a for loop" },
    { "write to a replicated array", PROLOGUE
      "#pragma hyperdo doall\n"
      "    for (int i = 0; i < 256; i++)\n"
      "\t@w[i & 15] = r[i];\n}\n", "not distributed" },
};

#define NREJECTIONS ((int)(sizeof rejections / sizeof rejections[0]))

static void test_rejection(void **state)
{
    const rejection *c = *state;
    tu_rng_init(c->what);
    check_rejected(c->what, c->text, c->keyword);
}

/* A file that does not exist: one error, no position. */
static void test_missing_file(void **state)
{
    (void)state;
    char path[600], *diag = NULL;
    hd_program prog;
    hd_analysis results;
    hd_c_options opt;
    memset(&opt, 0, sizeof opt);
    opt.include_dir = HYPERDO_INCLUDE_DIR;
    snprintf(path, sizeof path, "%s/does-not-exist.c", tmpdir);
    int errors;
    diag = read_and_analyse(path, &opt, &prog, &results, &errors);
    hd_program_free(&prog);
    hd_analysis_free(&results);
    TU_CHECK(errors > 0, "a missing file was read");
    TU_CHECK(diag && strstr(diag, "does-not-exist.c"), "the diagnostic names "
             "the file: %s", diag ? diag : "(null)");
    free(diag);
}

#define NSCENARIOS ((int)(sizeof scenarios / sizeof scenarios[0]))

/* ------------------------------------------------- conflict degrees */

/* The owner of element e of an array of 2^log2 elements with distribution
 * `dist` on the n-cube, from docs/annotations.md and docs/layouts.md by
 * arithmetic: skew puts A(i, j) (e = i 2^n + j) on xi(i) XOR j, xi
 * rotating i's n bits left by floor(n/2) (the swap of halves for even n). */
static uint64_t owner_by_kind(hd_dist_kind dist, int log2, int block_log2, int n, uint64_t e)
{
    uint64_t size = UINT64_C(1) << n;
    if (dist == HD_DIST_SKEW || dist == HD_DIST_SKEW_ROT) {
        uint64_t i = e / size, j = e % size;
        int h = n / 2;
        uint64_t xi = (i * (UINT64_C(1) << h)) % size + i / (size >> h);
        return xi ^ j;
    }
    layout l = { dist, log2, block_log2 };
    return owner(&l, n, e);
}

/* Every reference of a distributed array: its conflict degree (the most
 * iterations whose element is on one processor) against a count over all
 * iterations, the elements from the reader's evaluator and the owners
 * from the formulas above; and a few written out. */
/* The test's own owner of element e of array a. */
typedef uint64_t (*owner_fn)(const hd_program *p, const hd_array *a, uint64_t e);

/* ref's conflict degree counted over its iterations (those its guard does
 * not rule out) with the test's owners. */
static uint64_t counted_conflict(const hd_program *p, const hd_loop *l, const hd_ref *ref,
                                 owner_fn owner_of)
{
    const hd_array *a = &p->arrays[ref->array];
    uint64_t most = 0, *count = calloc((size_t)1 << p->n, sizeof *count);
    assert_non_null(count);
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
        if (ref->guard >= 0 && hd_guard_at(l, ref->guard, i) == HD_GUARD_NO)
            continue;
        uint64_t e;
        char why[64];
        TU_CHECK(hd_expr_eval(ref->index, i, &e, why, sizeof why),
                 "'%s' at i = %llu: %s", ref->text, (unsigned long long)i, why);
        uint64_t o = owner_of(p, a, e);
        TU_CHECK(o < (UINT64_C(1) << p->n), "'%s': owner %llu", ref->text, (unsigned long long)o);
        if (++count[o] > most)
            most = count[o];
    }
    free(count);
    return most;
}

/* The reference of loop l written `text`. */
static const hd_ref *ref_named(const hd_loop *l, const char *text)
{
    for (int k = 0; k < l->nrefs; k++)
        if (strcmp(l->refs[k].text, text) == 0)
            return &l->refs[k];
    TU_CHECK(false, "no reference '%s'", text);
    return NULL;
}

static uint64_t owner_1d(const hd_program *p, const hd_array *a, uint64_t e)
{
    return owner_by_kind(a->dist, a->log2_size, a->block_log2, p->n, e);
}

static void test_conflict_degrees(void **state)
{
    (void)state;
    static const char *const text =
        "#include <hyperdo/bits.h>\n"
        "#pragma hyperdo cube(4)\n"
        "double C[16][16], B[16][16], S[16][16], R[16][16], v[16], w[256];\n"
        "#pragma hyperdo distribute(C : cyclic)\n"
        "#pragma hyperdo distribute(B : block)\n"
        "#pragma hyperdo distribute(S, R : skew)\n"
        "#pragma hyperdo distribute(w : block_cyclic(4))\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 16; i++)\n"
        "        v[i] = C[i][5] + B[i][5] + S[i][5] + C[3][i] + B[3][i] + S[3][i];\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = S[4 + (p >> 2)][8 + (p & 3)] + S[(p >> 2) * 4 + 1][(p & 3) * 4 + 2]\n"
        "             + S[p][p] + S[p][15 - p] + C[p][p] + B[p][15 - p];\n"
        "#pragma hyperdo doall\n"
        "    for (int k = 0; k < 256; k++)\n"
        "        R[k / 16][k % 16] = S[k % 16][k / 16] + C[k % 16][k / 16] + w[k]\n"
        "             + S[reverse(k, 8) * 7 % 256 / 16][k % 16]\n"
        "             + (k > 7 ? B[k % 8][k / 16] : 0.0);\n"
        "    return 0;\n"
        "}\n";
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "conflict degrees", text);
    const hd_program *p = &r.prog;
    int checked = 0, general = 0;
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        for (int k = 0; k < l->nrefs; k++) {
            const hd_ref *ref = &l->refs[k];
            const hd_array *a = &p->arrays[ref->array];
            if (a->dist == HD_DIST_NONE)
                continue;
            uint64_t most = counted_conflict(p, l, ref, owner_1d);
            long long got = hd_ref_result(&r.results, ref)->conflict;
            TU_CHECK(got == (long long)most, "'%s' (line %d): conflict degree %lld, "
                     "counted %llu", ref->text, ref->line, got, (unsigned long long)most);
            general += hd_ref_result(&r.results, ref)->map == NULL || ref->guard >= 0;
            checked++;
        }
    }
    TU_CHECK(checked == 20 && general == 2, "checked %d references, %d by enumeration",
             checked, general);
    /* Written out: a column, a row, both blocks, the diagonals. */
    static const struct { int loop; const char *text; long long conflict; } known[] = {
        { 0, "C[i][5]", 16 },   /* cyclic puts a column on one processor */
        { 0, "B[i][5]", 1 },    /* block spreads it */
        { 0, "S[i][5]", 1 },    /* Property 1 */
        { 0, "C[3][i]", 1 },
        { 0, "B[3][i]", 16 },   /* block puts a row on one processor */
        { 0, "S[3][i]", 1 },    /* Property 2 */
        { 1, "S[4 + (p >> 2)][8 + (p & 3)]", 1 },              /* Property 3 */
        { 1, "S[(p >> 2) * 4 + 1][(p & 3) * 4 + 2]", 1 },      /* Property 4 */
        { 1, "S[p][p]", 4 },    /* the diagonal is no template */
    };
    for (size_t t = 0; t < sizeof known / sizeof known[0]; t++) {
        const hd_ref *ref = ref_named(&p->loops[known[t].loop], known[t].text);
        long long got = hd_ref_result(&r.results, ref)->conflict;
        TU_CHECK(got == known[t].conflict, "'%s': conflict degree %lld, expected %lld",
                 ref->text, got, known[t].conflict);
    }
    release(&r);
}

/* The owner of A(i, j) (e = i C + j) of T A[R][C] on the n-cube under the
 * layouts of docs/layouts.md that are 2-D, by arithmetic: a Pr x Pc grid
 * with Pr the least power of two whose square is at least 2^n; (BLOCK,
 * BLOCK) on (i / (R/Pr)) Pc + j / (C/Pc), (CYCLIC, CYCLIC) on (i mod Pr)
 * Pc + j mod Pc, xor (R = C = 2^n) on i XOR j. */
static uint64_t owner_2d(hd_dist_kind dist, uint64_t R, uint64_t C, int n, uint64_t e)
{
    uint64_t P = UINT64_C(1) << n, pr = 1;
    while (pr * pr < P)
        pr *= 2;
    uint64_t pc = P / pr, i = e / C, j = e % C;
    if (dist == HD_DIST_BLOCK_2D)
        return i / (R / pr) * pc + j / (C / pc);
    if (dist == HD_DIST_CYCLIC_2D)
        return i % pr * pc + j % pc;
    return i ^ j;
}

static uint64_t owner_of_2d(const hd_program *p, const hd_array *a, uint64_t e)
{
    return owner_2d(a->dist, (uint64_t)a->extent[0], (uint64_t)a->extent[1], p->n, e);
}

/* The same check as test_conflict_degrees for the 2-D layouts and xor on
 * the 3-cube (a 4 x 2 grid): rows, columns, a diagonal, an anti-diagonal
 * through a rectangle, a transpose, and a general (not affine) index
 * counted by enumeration. */
/*
 * Issue 13's cross product: the four templates of Lee and Aboelaze
 * (row 3, column 5, contiguous block 1,2 and distributed block 3,1 of a
 * 16 x 16 matrix on the 4-cube) and both diagonals, each under cyclic,
 * block, block_cyclic(4) and skew: the analysis's conflict degree of every
 * one against the test's own count, and the values docs/layouts.md's table
 * gives (skew 1 on every template and 4 on the diagonals; a row on one
 * processor under block, a column under cyclic; 4 for block_cyclic(4)).
 */
static void test_conflict_degrees_templates(void **state)
{
    (void)state;
    static const char *const text =
        "#pragma hyperdo cube(4)\n"
        "double Cy[16][16], Bl[16][16], Bc[16][16], Sk[16][16], v[16];\n"
        "#pragma hyperdo distribute(Cy : cyclic)\n"
        "#pragma hyperdo distribute(Bl : block)\n"
        "#pragma hyperdo distribute(Bc : block_cyclic(4))\n"
        "#pragma hyperdo distribute(Sk : skew)\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = Cy[3][p] + Bl[3][p] + Bc[3][p] + Sk[3][p];\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = Cy[p][5] + Bl[p][5] + Bc[p][5] + Sk[p][5];\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = Cy[1 * 4 + (p >> 2)][2 * 4 + (p & 3)] + Bl[1 * 4 + (p >> 2)][2 * 4 + (p & 3)]"
        "            + Bc[1 * 4 + (p >> 2)][2 * 4 + (p & 3)] + Sk[1 * 4 + (p >> 2)][2 * 4 + (p & 3)];\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = Cy[(p >> 2) * 4 + 3][(p & 3) * 4 + 1] + Bl[(p >> 2) * 4 + 3][(p & 3) * 4 + 1]"
        "            + Bc[(p >> 2) * 4 + 3][(p & 3) * 4 + 1] + Sk[(p >> 2) * 4 + 3][(p & 3) * 4 + 1];\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = Cy[p][p] + Bl[p][p] + Bc[p][p] + Sk[p][p];\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = Cy[p][15 - p] + Bl[p][15 - p] + Bc[p][15 - p] + Sk[p][15 - p];\n"
        "    return 0;\n"
        "}\n";
    /* Per doall, the degree under cyclic, block, block_cyclic(4), skew. */
    static const long long want[6][4] = {
        { 1, 16, 4, 1 },   /* row 3 */
        { 16, 1, 4, 1 },   /* column 5 */
        { 4, 4, 4, 1 },    /* contiguous block 1,2 */
        { 4, 4, 4, 1 },    /* distributed block 3,1 */
        { 1, 1, 1, 4 },    /* diagonal */
        { 1, 1, 1, 4 },    /* anti-diagonal */
    };
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "the templates' conflict degrees", text);
    const hd_program *p = &r.prog;
    TU_CHECK_EQ(p->nloops, 6, "doalls");
    int checked = 0;
    for (int d = 0; d < p->nloops && d < 6; d++) {
        const hd_loop *l = &p->loops[d];
        for (int k = 0; k < l->nrefs; k++) {
            const hd_ref *ref = &l->refs[k];
            const hd_array *a = &p->arrays[ref->array];
            if (ref->is_write)
                continue;
            int col = a->dist == HD_DIST_CYCLIC ? 0 : a->dist == HD_DIST_BLOCK ? 1
                    : a->dist == HD_DIST_BLOCK_CYCLIC ? 2 : 3;
            long long got = hd_ref_result(&r.results, ref)->conflict;
            uint64_t most = counted_conflict(p, l, ref, owner_1d);
            TU_CHECK(got == (long long)most && got == want[d][col],
                     "doall %d, %s (%s): conflict degree %lld, counted %llu, the table %lld",
                     d, ref->text, a->name, got, (unsigned long long)most, want[d][col]);
            checked++;
        }
    }
    TU_CHECK_EQ(checked, 24, "references checked");
    release(&r);
}

static void test_conflict_degrees_2d(void **state)
{
    (void)state;
    static const char *const text =
        "#pragma hyperdo cube(3)\n"
        "double Bb[8][16], Bt[8][16], Cc[16][8], Ct[16][8], X[8][8], Xt[8][8], v[8];\n"
        "#pragma hyperdo distribute(Bb, Bt : block, block)\n"
        "#pragma hyperdo distribute(Cc, Ct : cyclic, cyclic)\n"
        "#pragma hyperdo distribute(X, Xt : xor)\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 8; i++)\n"
        "        v[i] = Bb[i][3] + Bb[5][i] + Bb[i][15 - 2 * i] + Cc[i][2] + Cc[3][i]\n"
        "             + Cc[2 * i][i] + Cc[(i * 3) % 16][i] + X[i][3] + X[3][i] + X[i][i]\n"
        "             + X[i][7 - i];\n"
        "#pragma hyperdo doall\n"
        "    for (int k = 0; k < 128; k++)\n"
        "        Bt[k / 16][k % 16] = Bb[k % 8][k / 8] + Bb[k / 16][k % 16];\n"
        "#pragma hyperdo doall\n"
        "    for (int k = 0; k < 128; k++)\n"
        "        Ct[k / 8][k % 8] = Cc[k % 16][k / 16] + Cc[k / 8][k % 8];\n"
        "#pragma hyperdo doall\n"
        "    for (int k = 0; k < 64; k++)\n"
        "        Xt[k / 8][k % 8] = X[k % 8][k / 8];\n"
        "    return 0;\n"
        "}\n";
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "conflict degrees, 2-D", text);
    const hd_program *p = &r.prog;
    int checked = 0, general = 0;
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        for (int k = 0; k < l->nrefs; k++) {
            const hd_ref *ref = &l->refs[k];
            const hd_array *a = &p->arrays[ref->array];
            if (a->dist != HD_DIST_BLOCK_2D && a->dist != HD_DIST_CYCLIC_2D &&
                a->dist != HD_DIST_XOR)
                continue;
            uint64_t most = counted_conflict(p, l, ref, owner_of_2d);
            long long got = hd_ref_result(&r.results, ref)->conflict;
            TU_CHECK(got == (long long)most, "'%s' (line %d): conflict degree %lld, "
                     "counted %llu", ref->text, ref->line, got, (unsigned long long)most);
            general += hd_ref_result(&r.results, ref)->map == NULL;
            checked++;
        }
    }
    TU_CHECK(checked == 19 && general == 1, "checked %d references, %d by enumeration",
             checked, general);
    /* Written out: on the 4 x 2 grid a column of Bb (8 x 16, blocks of 2 x
     * 8) meets 4 processors, a row 2; Batcher's layout spreads rows and
     * columns and puts the diagonal on processor 0. */
    static const struct { const char *text; long long conflict; } known[] = {
        { "Bb[i][3]", 2 }, { "Bb[5][i]", 8 }, { "Cc[i][2]", 2 }, { "Cc[3][i]", 4 },
        { "X[i][3]", 1 }, { "X[3][i]", 1 }, { "X[i][i]", 8 }, { "X[i][7 - i]", 8 },
    };
    for (size_t t = 0; t < sizeof known / sizeof known[0]; t++) {
        const hd_ref *ref = ref_named(&p->loops[0], known[t].text);
        long long got = hd_ref_result(&r.results, ref)->conflict;
        TU_CHECK(got == known[t].conflict, "'%s': conflict degree %lld, expected %lld",
                 ref->text, got, known[t].conflict);
    }
    release(&r);
}

/* A loop far shorter than the cube (4 iterations on the 8-cube): the
 * conflict degree of a general reference is counted by sorting the owners
 * rather than in a table over the 256 processors.  g[(i * 3) & 1023]
 * under block (owner e >> 2) reads elements 0, 3, 6, 9: owners 0, 0, 1,
 * 2, so 2. */
static void test_conflict_degree_sorted(void **state)
{
    (void)state;
    static const char *const text =
        "#pragma hyperdo cube(8)\n"
        "double g[1024], out[256];\n"
        "#pragma hyperdo distribute(g : block)\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 4; i++)\n"
        "        out[i] = g[(i * 3) & 1023];\n"
        "    return 0;\n"
        "}\n";
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "conflict degree, sorted", text);
    const hd_loop *l = &r.prog.loops[0];
    const hd_ref *ref = NULL;
    for (int k = 0; k < l->nrefs; k++)
        if (!l->refs[k].is_write)
            ref = &l->refs[k];
    TU_CHECK(ref != NULL && hd_ref_result(&r.results, ref)->map == NULL,
             "the read is a general reference");
    long long got = hd_ref_result(&r.results, ref)->conflict;
    TU_CHECK(got == 2, "'%s': conflict degree %lld, expected 2", ref->text, got);
    release(&r);
}

/* The layout advisor (analysis/advisor.c) on a program that gathers a
 * row and a column of a 16 x 16 matrix declared cyclic: under cyclic the
 * column is on one processor (conflict degree 16), under block the row
 * is, and Lee and Aboelaze's skew spreads both (Properties 1 and 2), so
 * it is the advice; every candidate's degrees are the counts of
 * test_conflict_degrees' kind, written out here.  The 2-D layouts on the
 * 4 x 4 grid put 4 elements of a row or a column on one processor;
 * Batcher's i XOR j spreads both as skew does, and ties with it on every
 * measure of the ranking (objective 1, contention 1 after mapping), so the
 * earlier candidate, skew, stays the advice. */
static void test_layout_advisor(void **state)
{
    (void)state;
    static const char *const text =
        "#pragma hyperdo cube(4)\n"
        "double A[16][16], v[16], w[16];\n"
        "#pragma hyperdo distribute(A : cyclic)\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 16; i++)\n"
        "        v[i] = A[i][5];\n"
        "#pragma hyperdo doall\n"
        "    for (int j = 0; j < 16; j++)\n"
        "        w[j] = A[3][j];\n"
        "    return 0;\n"
        "}\n";
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "layout advisor", text);
    hd_target t = hd_target_ecube(r.prog.n);
    hd_layout_advice adv;
    hd_advise_layouts(&r.prog, &t, HD_OBJ_MAX, &adv);
    TU_CHECK(r.prog.arrays[0].dist == HD_DIST_CYCLIC && r.prog.arrays[0].shift == 0,
             "the program's layouts are left as declared");
    const hd_array_advice *a = NULL;
    for (int k = 0; k < adv.narrays; k++)
        if (strcmp(adv.arrays[k].array, "A") == 0)
            a = &adv.arrays[k];
    TU_CHECK(a != NULL, "no advice for A");
    /* cyclic, block_cyclic(2), (4), (8), block, skew, then the 2-D ones
     * and xor: the column's and the row's degrees (A(i, 5) is e = 16 i +
     * 5; block_cyclic(2^b) puts it on bits b .. b+3 of e; on the 4 x 4
     * grid (BLOCK, BLOCK) puts A(i, 5) on i / 4 * 4 + 1 and A(3, j) on
     * j / 4, (CYCLIC, CYCLIC) on i % 4 * 4 + 1 and 12 + j % 4: four
     * elements each; xor on i ^ 5 and 3 ^ j: one each). */
    static const struct { const char *name; long long most, sum; } want[] = {
        { "cyclic", 16, 17 },           /* column 16, row 1 */
        { "block_cyclic(2)", 8, 10 },   /* the column: only bit 0 of i moves it */
        { "block_cyclic(4)", 4, 8 },
        { "block_cyclic(8)", 8, 10 },   /* the row: only bit 3 of j moves it */
        { "block", 16, 17 },            /* column 1, row 16 */
        { "skew", 1, 2 },
        { "block, block", 4, 8 },
        { "cyclic, cyclic", 4, 8 },
        { "xor", 1, 2 },
    };
    TU_CHECK(a->ncand == 9, "%d candidates", a->ncand);
    for (int c = 0; c < a->ncand; c++) {
        char name[48];
        hd_layout_candidate_name(&a->cand[c], name, sizeof name);
        TU_CHECK(strcmp(name, want[c].name) == 0, "candidate %d is %s", c, name);
        TU_CHECK(a->cand[c].accepted, "%s not accepted: %s", name, a->cand[c].why_not);
        TU_CHECK(a->cand[c].conflict == want[c].most && a->cand[c].conflict_sum == want[c].sum,
                 "%s: conflict %lld, sum %lld; expected %lld, %lld", name,
                 a->cand[c].conflict, a->cand[c].conflict_sum, want[c].most, want[c].sum);
    }
    TU_CHECK(a->declared == 0 && a->best == 5, "declared %d, best %d", a->declared, a->best);
    TU_CHECK(a->cand[8].general == a->cand[5].general && a->cand[8].cost == a->cand[5].cost &&
             a->cand[8].worst_after == a->cand[5].worst_after,
             "xor ties with skew: general %d/%d, objective %llu/%llu, after %llu/%llu",
             a->cand[8].general, a->cand[5].general, (unsigned long long)a->cand[8].cost,
             (unsigned long long)a->cand[5].cost, (unsigned long long)a->cand[8].worst_after,
             (unsigned long long)a->cand[5].worst_after);
    TU_CHECK(strstr(a->reason, "largest conflict degree is 1 where the declared "
                    "layout's is 16") != NULL, "reason: %s", a->reason);
    hd_layout_advice_free(&adv);
    release(&r);
}

/* Where (CYCLIC, CYCLIC) is the advice: a 4 x 4 corner A(p / 4, p % 4)
 * of a 32 x 32 matrix declared block on the 4-cube (no skew or xor: the
 * matrix is not 16 x 16).  Its element A(i, j) is e = 32 i + j with i, j
 * < 4: bits 0, 1 (j) and 5, 6 (i) of e vary.  A bit field at shift s
 * spreads the corner over the 2^(varying bits of s .. s+3) processors it
 * takes; (BLOCK, BLOCK) on the 4 x 4 grid puts the whole corner on
 * processor 0 (i / 8 = j / 8 = 0), and (CYCLIC, CYCLIC) each element on
 * its own, (i % 4) * 4 + j % 4. */
static void test_layout_advisor_2d(void **state)
{
    (void)state;
    static const char *const text =
        "#pragma hyperdo cube(4)\n"
        "double A[32][32], v[16];\n"
        "#pragma hyperdo distribute(A : block)\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int p = 0; p < 16; p++)\n"
        "        v[p] = A[p / 4][p % 4];\n"
        "    return 0;\n"
        "}\n";
    reading r;
    read_program(&r, text, 0);
    expect_clean(&r, "layout advisor, 2-D", text);
    hd_target t = hd_target_ecube(r.prog.n);
    hd_layout_advice adv;
    hd_advise_layouts(&r.prog, &t, HD_OBJ_MAX, &adv);
    const hd_array_advice *a = NULL;
    for (int k = 0; k < adv.narrays; k++)
        if (strcmp(adv.arrays[k].array, "A") == 0)
            a = &adv.arrays[k];
    TU_CHECK(a != NULL, "no advice for A");
    static const struct { const char *name; long long conflict; } want[] = {
        { "cyclic", 4 },                /* bits 0..3: j's two */
        { "block_cyclic(2)", 8 },       /* bits 1..4: j1 */
        { "block_cyclic(4)", 8 },       /* bits 2..5: i0 */
        { "block_cyclic(8)", 4 },       /* bits 3..6: i0, i1 */
        { "block_cyclic(16)", 4 },
        { "block_cyclic(32)", 4 },      /* bits 5..8 */
        { "block", 8 },                 /* bits 6..9: i1 */
        { "block, block", 16 },
        { "cyclic, cyclic", 1 },
    };
    TU_CHECK(a->ncand == 9, "%d candidates", a->ncand);
    for (int c = 0; c < a->ncand; c++) {
        char name[48];
        hd_layout_candidate_name(&a->cand[c], name, sizeof name);
        TU_CHECK(strcmp(name, want[c].name) == 0, "candidate %d is %s", c, name);
        TU_CHECK(a->cand[c].accepted, "%s not accepted: %s", name, a->cand[c].why_not);
        TU_CHECK(a->cand[c].conflict == want[c].conflict &&
                 a->cand[c].conflict_sum == want[c].conflict,
                 "%s: conflict %lld, sum %lld; expected %lld", name,
                 a->cand[c].conflict, a->cand[c].conflict_sum, want[c].conflict);
    }
    TU_CHECK(a->declared == 6 && a->best == 8, "declared %d, best %d", a->declared, a->best);
    TU_CHECK(strstr(a->reason, "largest conflict degree is 1 where the declared "
                    "layout's is 8") != NULL, "reason: %s", a->reason);
    hd_layout_advice_free(&adv);
    release(&r);
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_multidimensional),
        cmocka_unit_test(test_conflict_degrees),
        cmocka_unit_test(test_conflict_degree_sorted),
        cmocka_unit_test(test_conflict_degrees_templates),
        cmocka_unit_test(test_conflict_degrees_2d),
        cmocka_unit_test(test_layout_advisor),
        cmocka_unit_test(test_layout_advisor_2d),
        cmocka_unit_test(test_general_and_local_reads),
        cmocka_unit_test(test_spec_positions),
        cmocka_unit_test(test_loop_headers),
        cmocka_unit_test(test_cube_and_dim),
        cmocka_unit_test(test_missing_file),
    };
    int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
    int total = nfixed + NSCENARIOS * NFORMS_1D + NREJECTIONS;
    struct CMUnitTest *tests = calloc((size_t)total, sizeof *tests);
    form_case *cases = calloc((size_t)(NSCENARIOS * NFORMS_1D), sizeof *cases);
    char (*rej_names)[160] = calloc((size_t)NREJECTIONS, sizeof *rej_names);
    if (!tests || !cases || !rej_names)
        return 1;
    int t = 0;
    for (int k = 0; k < nfixed; k++)
        tests[t++] = fixed[k];
    /* One test per form and distribution, one per rejected program. */
    for (int sc = 0; sc < NSCENARIOS; sc++)
        for (int f = 0; f < NFORMS_1D; f++) {
            form_case *c = &cases[sc * NFORMS_1D + f];
            c->s = &scenarios[sc];
            c->f = &forms_1d[f];
            snprintf(c->name, sizeof c->name, "form %s: r[%s]", scenarios[sc].name,
                     forms_1d[f].text);
            tests[t].name = c->name;
            tests[t].test_func = test_form;
            tests[t++].initial_state = c;
        }
    for (int k = 0; k < NREJECTIONS; k++) {
        snprintf(rej_names[k], sizeof rej_names[k], "rejected: %s", rejections[k].what);
        tests[t].name = rej_names[k];
        tests[t].test_func = test_rejection;
        tests[t++].initial_state = (void *)&rejections[k];
    }
    /* HYPERDO_TEST_FILTER="rejected*" runs some tests (a cmocka pattern). */
    const char *filter = getenv("HYPERDO_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    int failed = _cmocka_run_group_tests("test_cfront", tests, (size_t)total,
                                         setup, teardown);
    free(tests);
    free(cases);
    free(rej_names);
    return failed;
}
