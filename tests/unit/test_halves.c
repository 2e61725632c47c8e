/*
 * test_halves.c — reading a C file in two halves at once (frontend/halves.h,
 * docs/frontend-performance.md) must give what reading it whole gives.
 *
 * - The plan: hand-written texts with their function bodies, braces in
 *   comments, strings and character constants, struct bodies and
 *   initializers, and each construct the plan refuses.
 * - Files: every annotated C file of the repository (tests/frontend and its
 *   reject/ and sys/, tests/e2e, samples, tests/unit/halves) read with
 *   HD_PARSE_WHOLE and with HD_PARSE_HALVES: the same number of errors, the
 *   same diagnostics byte for byte, and the same program, field by field.
 *   The files of tests/unit/halves that can be split must be (units == 2).
 * - Random programs of several functions of doall loops over shared, local
 *   and static arrays, with random index forms, each split and compared.
 *
 * The whole reading is the reference: it is the reader every other test
 * checks against hand-derived expectations.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"
#include "halves.h"
#include "harness.h"
#include "testutil.h"

/* ------------------------------------------------------------- the plan */

static hd_halves plan_of(const char *text)
{
    hd_halves p;
    hd_halves_plan(text, strlen(text), &p);
    return p;
}

/* The text of body k. */
static char *body_text(const char *text, const hd_halves *p, int k)
{
    size_t n = p->bodies[k].end - p->bodies[k].begin;
    char *s = malloc(n + 1);
    memcpy(s, text + p->bodies[k].begin, n);
    s[n] = '\0';
    return s;
}

static void test_plan_bodies(void **state)
{
    (void)state;
    const char *text =
        "#include <stdio.h>\n"
        "struct s { int a[2]; } v = { { 1, 2 } };\n"
        "union u { int x; };\n"
        "enum { E = 1 };\n"
        "const char *t = \"{ not } a body\", c = '}';\n"
        "/* { */ // }\n"
        "int f(int x)\n{\n"
        "    // a comment with a brace { and a splice \\\n"
        "       that goes on {\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 4; i++) { v.a[0] = '{'; }\n"
        "    return x;\n}\n"
        "static void helper(void) { puts(\"}\"); }\n"
        "void g(void) __attribute__((noinline));\n"
        "void g(void) __attribute__((noinline)) {\n"
        "  #  pragma   hyperdo doall\n"
        "  for (int i = 0; i < 4; i++) ;\n"
        "}\n";
    hd_halves p = plan_of(text);
    TU_CHECK(p.bodies != NULL, "no plan: %s", p.why ? p.why : "");
    TU_CHECK_EQ(p.nbodies, 3, "function bodies");
    char *b0 = body_text(text, &p, 0), *b1 = body_text(text, &p, 1),
         *b2 = body_text(text, &p, 2);
    TU_CHECK(strncmp(b0, "{\n    // a comment", 18) == 0 && strstr(b0, "return x;\n}"),
             "body 0: %s", b0);
    TU_CHECK(strcmp(b1, "{ puts(\"}\"); }") == 0, "body 1: %s", b1);
    TU_CHECK(b2[0] == '{' && b2[strlen(b2) - 1] == '}', "body 2: %s", b2);
    TU_CHECK(p.bodies[0].doall && !p.bodies[1].doall && p.bodies[2].doall,
             "doall bodies");
    TU_CHECK(p.bodies[0].half == 0 && p.bodies[1].half == -1 &&
             p.bodies[2].half == 1, "halves %d %d %d", p.bodies[0].half,
             p.bodies[1].half, p.bodies[2].half);
    TU_CHECK(hd_halves_body_at(&p, p.bodies[2].begin) == &p.bodies[2] &&
             hd_halves_body_at(&p, p.bodies[2].end - 1) == &p.bodies[2] &&
             hd_halves_body_at(&p, p.bodies[2].end) == NULL &&
             hd_halves_body_at(&p, 0) == NULL, "body_at");

    /* Half 0 keeps body 0 and the helper, and has body 2 as a `;`. */
    size_t len = strlen(text);
    for (int h = 0; h < 2; h++) {
        char *t = hd_halves_text(text, len, &p, h);
        TU_CHECK_EQ(strlen(t), len, "length kept");
        const hd_body *gone = &p.bodies[h == 0 ? 2 : 0];
        const hd_body *kept = &p.bodies[h == 0 ? 0 : 2];
        TU_CHECK(t[gone->begin] == ';', "a ';' where the body was");
        for (size_t k = gone->begin + 1; k < gone->end; k++)
            TU_CHECK(t[k] == (text[k] == '\n' ? '\n' : ' '), "blanked at %zu", k);
        TU_CHECK(memcmp(t + kept->begin, text + kept->begin,
                        kept->end - kept->begin) == 0, "own body kept");
        TU_CHECK(memcmp(t + p.bodies[1].begin, text + p.bodies[1].begin,
                        p.bodies[1].end - p.bodies[1].begin) == 0,
                 "a body without doalls is in both");
        TU_CHECK(memcmp(t, text, p.bodies[0].begin) == 0, "file scope kept");
        free(t);
    }
    free(b0);
    free(b1);
    free(b2);
    hd_halves_free(&p);
}

/* Splices and ends of lines as clang reads them: a comment opener split
 * by a splice, CR LF and lone CR line ends, a directive continued. */
static void test_plan_lines(void **state)
{
    (void)state;
    const char *text =
        "/\\\n* { a comment, though split */\r\n"
        "#define TWO \\\r\n  2 /* { */\r"
        "void f(void)\r\n{\r\n#pragma hyperdo doall\r\n}\r\n"
        "void g(void) {\r#pragma hyperdo doall\r}\r"
        "int x = 1; /\\\n/ a line comment {\n";
    hd_halves p = plan_of(text);
    TU_CHECK(p.bodies != NULL, "no plan: %s", p.why ? p.why : "");
    TU_CHECK_EQ(p.nbodies, 2, "bodies");
    const char *f = strstr(text, "{\r\n#pragma"), *g = strstr(text, "{\r#pragma");
    TU_CHECK_EQ(p.bodies[0].begin, (size_t)(f - text), "f's body begins");
    TU_CHECK_EQ(p.bodies[0].end, (size_t)(strstr(f, "}") + 1 - text), "f's body ends");
    TU_CHECK_EQ(p.bodies[1].begin, (size_t)(g - text), "g's body begins");
    TU_CHECK_EQ(p.bodies[1].end, (size_t)(strstr(g, "}") + 1 - text), "g's body ends");
    TU_CHECK(p.bodies[0].doall && p.bodies[1].doall, "both have doalls");
    hd_halves_free(&p);
}

/* The plan gives the bodies to halves by size, in file order. */
static void test_plan_balance(void **state)
{
    (void)state;
    char text[4096];
    int sizes[] = { 10, 300, 20, 20, 250, 10 };
    size_t n = 0;
    for (int k = 0; k < 6; k++) {
        n += (size_t)sprintf(text + n, "void f%d(void)\n{\n#pragma hyperdo doall\n", k);
        for (int j = 0; j < sizes[k]; j++)
            text[n++] = ' ';
        n += (size_t)sprintf(text + n, "\n}\n");
    }
    hd_halves p = plan_of(text);
    TU_CHECK_EQ(p.nbodies, 6, "bodies");
    /* Sizes with the braces and pragma: the first two are about half. */
    int expect[] = { 0, 0, 1, 1, 1, 1 };
    for (int k = 0; k < 6; k++)
        TU_CHECK_EQ(p.bodies[k].half, expect[k], "half of a body");
    hd_halves_free(&p);
}

static void test_plan_refusals(void **state)
{
    (void)state;
    static const struct { const char *text, *why; } cases[] = {
        { "void f(void) {\n#define N 4\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "directive inside" },
        { "void f(void) {\n#if 1\n#endif\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "directive inside" },
        { "void f(void) {\n#pragma omp parallel\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "directive inside" },
        { "void f(void) { extern int x;\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "'extern'" },
        { "void f(void) { ext\\\nern int x;\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "'extern'" },
        { "void f(void) { _Pragma(\"x\")\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "_Pragma would" },
        { "#define W _Pra\\\ngma(\"x\")\nvoid f(void) {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "_Pragma would" },
        { "#define C(a, b) a ## b\nvoid f(void) {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "token pasting" },
        { "const char *q = \"?\?/\";\nvoid f(void) {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "trigraph" },
        { "void f(void) {\r#define N 8\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "directive inside" },
        { "int c = __COUNTER__;\nvoid f(void) {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "__COUNTER__" },
        { "#define BEGIN {\nvoid f(void) {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "braces do not pair" },
        { "void f(void) <%\n#pragma hyperdo doall\n%>\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "digraph" },
        { "int f(a) int a; {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "neither" },
        { "#define ATTR\nvoid f(void) ATTR {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n}\n", "neither" },
        { "void f(void) {\n#pragma hyperdo doall\n}\n"
          "void g(void) {\n#pragma hyperdo doall\n/* }\n", "unterminated" },
        { "void f(void) {\n#pragma hyperdo doall\n}}\n", "without its '{'" },
        { "void f(void) {\n#pragma hyperdo doall\n\n", "without its '}'" },
        { "void f(void) {\n#pragma hyperdo doall\n}\nvoid g(void) { }\n",
          "fewer than two" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hd_halves p;
        bool ok = hd_halves_plan(cases[k].text, strlen(cases[k].text), &p);
        TU_CHECK(!ok, "case %zu was planned", k);
        TU_CHECK(p.bodies == NULL && p.nbodies == 0, "case %zu: bodies kept", k);
        TU_CHECK(p.why && strstr(p.why, cases[k].why), "case %zu: why '%s', "
                 "expected '%s'", k, p.why ? p.why : "(null)", cases[k].why);
    }
}

/* ------------------------------------------------ whole against halves */

static char tmpdir[64];

typedef struct {
    int errors;
    char *diag;
    char *dump;          /* the program, every field analyze uses */
    int units;
} reading;

static void dump_affine(FILE *f, const hd_affine *a)
{
    fprintf(f, " in=%d c=%llx rows", a->in, (unsigned long long)a->c);
    for (int t = 0; t < 64; t++)
        fprintf(f, " %llx", (unsigned long long)a->row[t]);
}

static void dump_expr(FILE *f, const hd_expr *e)
{
    if (!e) {
        fputs("()", f);
        return;
    }
    fprintf(f, "(%d %d%c op%d h%d v%llx %s", e->kind, e->bits,
            e->is_signed ? 's' : 'u', e->op, e->helper,
            (unsigned long long)e->value, e->reason ? e->reason : "");
    for (int k = 0; k < e->nkids; k++)
        dump_expr(f, e->kid[k]);
    fputc(')', f);
}

static char *dump_program(const hd_program *p)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    fprintf(f, "path %s n %d units-not-compared\n", p->path ? p->path : "", p->n);
    for (int k = 0; k < p->narrays; k++) {
        const hd_array *a = &p->arrays[k];
        fprintf(f, "array %d %s %d:%d dims %d", k, a->name, a->line, a->col, a->ndims);
        for (int d = 0; d < a->ndims; d++)
            fprintf(f, " %lld", (long long)a->extent[d]);
        fprintf(f, " log2 %d dist %d block %d shift %d\n", a->log2_size, a->dist,
                a->block_log2, a->shift);
    }
    for (int k = 0; k < p->nloops; k++) {
        const hd_loop *l = &p->loops[k];
        fprintf(f, "loop %d:%d pragma %d var %s k %d [%u,%u) home %d refs %d\n",
                l->line, l->col, l->pragma_line, l->var ? l->var : "", l->k,
                l->begin, l->end, l->home, l->nrefs);
        for (int j = 0; j < l->nrefs; j++) {
            const hd_ref *r = &l->refs[j];
            fprintf(f, "  ref %s array %d %c %d:%d [%u,%u) subs %d macro %d "
                    "partial %d affine %d comm %d reason %s\n   ", r->text, r->array,
                    r->is_write ? 'w' : 'r', r->line, r->col, r->begin, r->end,
                    r->nsubs, r->in_macro, r->partial, r->affine, r->comm,
                    r->reason ? r->reason : "-");
            for (int s = 0; s < r->nsubs; s++)
                fprintf(f, " [%u,%u)", r->sub_begin[s], r->sub_end[s]);
            dump_expr(f, r->index);
            if (r->affine)
                dump_affine(f, &r->map);
            if (r->comm == HD_COMM_LCC) {
                fprintf(f, " lcc n=%d b=%llx A", r->lcc.A.n, (unsigned long long)r->lcc.b);
                for (int t = 0; t < r->lcc.A.n; t++)
                    fprintf(f, " %llx", (unsigned long long)r->lcc.A.row[t]);
            }
            fputc('\n', f);
        }
    }
    fclose(f);
    return text;
}

static reading read_as(const char *path, int dim, int nargs, const char **args,
                       hd_parse_mode mode)
{
    hd_c_options opt;
    memset(&opt, 0, sizeof opt);
    opt.dim = dim;
    opt.nargs = nargs;
    opt.args = args;
    opt.include_dir = HYPERDO_INCLUDE_DIR;
    opt.parse = mode;
    hd_program prog;
    reading r;
    memset(&r, 0, sizeof r);
    r.errors = hd_c_read(path, &opt, &prog, &r.diag);
    r.units = prog.units;
    if (r.errors == 0) {
        r.dump = dump_program(&prog);
        hd_program_free(&prog);
    }
    return r;
}

static void free_reading(reading *r)
{
    free(r->diag);
    free(r->dump);
}

/* What differs between the two readings, or NULL. */
static const char *difference(const reading *w, const reading *h)
{
    if (w->errors != h->errors)
        return "errors";
    if (strcmp(w->diag ? w->diag : "", h->diag ? h->diag : "") != 0)
        return "diagnostics";
    if (strcmp(w->dump ? w->dump : "", h->dump ? h->dump : "") != 0)
        return "programs";
    return NULL;
}

/* Reads a file both ways and compares; returns the halves' unit count. */
static int compare_readings(const char *path, int dim, int nargs, const char **args)
{
    reading w = read_as(path, dim, nargs, args, HD_PARSE_WHOLE);
    reading h = read_as(path, dim, nargs, args, HD_PARSE_HALVES);
    TU_CHECK(w.units <= 1, "%s: read whole in %d units", path, w.units);
    const char *what = difference(&w, &h);
    TU_CHECK(!what, "%s: %s differ: %d and %d errors\n--- whole\n%s%s--- halves\n%s%s",
             path, what, w.errors, h.errors, w.diag ? w.diag : "",
             w.dump ? w.dump : "", h.diag ? h.diag : "", h.dump ? h.dump : "");
    free_reading(&w);
    free_reading(&h);
    return h.units;
}

/* Reads a file both ways with the arguments its header comments give
 * (hyperdo's --dim N; clang's after "--" and in "// compdb:"); returns
 * the halves' unit count. */
static int compare_file(const char *path)
{
    char *text = slurp(path, NULL);
    TU_CHECK(text != NULL, "cannot read %s", path);
    input_header h;
    read_input_header(text, &h);
    int dim = 0;
    for (int k = 0; k + 1 < h.before.n; k++)
        if (strcmp(h.before.v[k], "--dim") == 0)
            dim = atoi(h.before.v[k + 1]);
    words clang = { 0 };
    for (int k = 0; k < h.after.n; k++)
        words_add(&clang, h.after.v[k]);
    for (int k = 0; k < h.compdb.n; k++)
        words_add(&clang, h.compdb.v[k]);
    int units = compare_readings(path, dim, clang.n, (const char **)clang.v);
    words_free(&clang);
    input_header_free(&h);
    free(text);
    return units;
}

/* Compares every .c file of a directory; counts those split in halves. */
static int compare_directory(const char *dir, int *files)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HYPERDO_SOURCE_DIR, dir);
    DIR *d = opendir(path);
    TU_CHECK(d != NULL, "cannot list %s", path);
    int split = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".c") != 0 ||
            strncmp(e->d_name, "frontend_corpus", 15) == 0 ||
            strncmp(e->d_name, "test_", 5) == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", HYPERDO_SOURCE_DIR, dir, e->d_name);
        split += compare_file(path) == 2;
        (*files)++;
    }
    closedir(d);
    return split;
}

static void test_repository_files(void **state)
{
    (void)state;
    static const char *const dirs[] = {
        "tests/frontend", "tests/frontend/reject", "tests/frontend/sys",
        "tests/e2e", "samples",
    };
    int files = 0;
    for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++)
        compare_directory(dirs[k], &files);
    TU_CHECK(files >= 100, "only %d files compared", files);
}

/* tests/unit/halves: each file read both ways; these must be split. */
static void test_halves_files(void **state)
{
    (void)state;
    static const struct { const char *name; int units; } files[] = {
        { "shared.c", 2 }, { "late_error.c", 2 }, { "no_cube.c", 2 },
        { "names.c", 2 }, { "warning.c", 1 }, { "walk_error.c", 1 },
        { "define_in_body.c", 1 }, { "check_error.c", 1 },
        { "redefinition.c", 1 }, { "block_decl.c", 1 }, { "macro_extern.c", 1 },
        { "no_prototype.c", 1 }, { "undefined_static.c", 1 },
        { "included_twice.c", 2 }, { "split_comment.c", 2 }, { "cr_define.c", 1 },
        { "split_macro.c", 1 }, { "split_macro_decl.c", 1 }, { "c89_comment.c", 1 },
        { "nul_define.c", 1 }, { "unicode_space.c", 1 }, { "ms_pragma.c", 1 },
        { "statement_expr.c", 1 }, { "section.c", 1 }, { "self_include.c", 1 },
        { "werror.c", 1 }, { "cxx.c", 1 }, { "splice_blanks.c", 1 },
        { "splice_blanks_string.c", 1 }, { "digit_separator.c", 1 },
        { "wp_option.c", 1 }, { "stmt_expr_empty_macro.c", 1 },
        { "stmt_expr_macro_param.c", 1 }, { "stmt_expr_macro_paren.c", 1 },
        { "counter_macro.c", 1 },
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/unit/halves/%s",
                 HYPERDO_SOURCE_DIR, files[k].name);
        TU_CHECK_EQ(compare_file(path), files[k].units, files[k].name);
    }
    int all = 0;
    int split = compare_directory("tests/unit/halves", &all);
    TU_CHECK_EQ(all, (int)(sizeof files / sizeof files[0]), "files in tests/unit/halves");
    TU_CHECK_EQ(split, 6, "files split");
}

/* ---------------------------------------------------- random programs */

static const char *const forms[] = {
    "i", "i ^ %u", "%u - i", "(i << 1) & %u", "i >> 1", "reverse(i, %d)",
    "gray(i)", "(i + %u) & %u", "(i * 3) & %u", "~i & %u", "i & %u",
};

/* An index of n bits into an array of 2^n elements. */
static void random_index(FILE *f, int n)
{
    unsigned mask = (1u << n) - 1;
    int form = (int)tu_below(sizeof forms / sizeof forms[0]);
    char buf[64];
    switch (form) {
    case 1: case 3: case 8: case 9: case 10:
        snprintf(buf, sizeof buf, forms[form], form == 1 ? (unsigned)tu_below(mask + 1) : mask);
        break;
    case 2:
        snprintf(buf, sizeof buf, forms[form], mask);
        break;
    case 5:
        snprintf(buf, sizeof buf, forms[form], n);
        break;
    case 7:
        snprintf(buf, sizeof buf, forms[form], (unsigned)tu_below(mask + 1), mask);
        break;
    default:
        snprintf(buf, sizeof buf, "%s", forms[form]);
    }
    fputs(buf, f);
}

static void write_random_program(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    TU_CHECK(f != NULL, "cannot write %s", path);
    int size = 1 << n, nglobal = 2 + (int)tu_below(4);
    fprintf(f, "#include <hyperdo/bits.h>\n");
    if (tu_chance(1, 2))
        fprintf(f, "#pragma hyperdo cube(%d)\n", n);
    for (int g = 0; g < nglobal; g++)
        fprintf(f, "%sdouble g%d[%d];\n", tu_chance(1, 4) ? "static " : "", g, size);
    int nfun = 2 + (int)tu_below(5);
    for (int fn = 0; fn < nfun; fn++) {
        fprintf(f, "\nvoid f%d(void)\n{\n", fn);
        bool local = tu_chance(1, 2);
        if (local)
            fprintf(f, "    double l[%d];\n", size);
        int nloops = 1 + (int)tu_below(4);
        for (int k = 0; k < nloops; k++) {
            int target = (int)tu_below((uint64_t)nglobal + local);
            fprintf(f, "    #pragma hyperdo doall\n    for (int i = 0; i < %d; i++)\n"
                    "        ", size);
            if (target == nglobal)
                fprintf(f, "l[i] = ");
            else
                fprintf(f, "g%d[i] = ", target);
            int nreads = 1 + (int)tu_below(3);
            for (int r = 0; r < nreads; r++) {
                int src = (int)tu_below((uint64_t)nglobal + local);
                if (src == target)
                    src = (src + 1) % (nglobal + local);
                if (src == nglobal)
                    fprintf(f, "%sl[", r ? " + " : "");
                else
                    fprintf(f, "%sg%d[", r ? " + " : "", src);
                random_index(f, n);
                fputc(']', f);
            }
            fprintf(f, ";\n");
        }
        fprintf(f, "}\n");
    }
    fclose(f);
}

static void test_random_programs(void **state)
{
    (void)state;
    tu_rng_init("halves_random");
    long cases = tu_cases(40);
    for (long c = 0; c < cases; c++) {
        char path[128];
        snprintf(path, sizeof path, "%s/random%ld.c", tmpdir, c);
        int n = 3 + (int)tu_below(4);
        write_random_program(path, n);
        tu_case(c, NULL, 0, NULL);
        int units = compare_readings(path, 0, 0, NULL);
        TU_CHECK_EQ(units, 2, "a random program read in halves");
        unlink(path);
    }
}

/*
 * test_halves --compare [--dim N] FILE [-- CLANG ARGS]: reads FILE both ways
 * and prints "halves", "whole" (not split) or "differs: WHAT"; exit status
 * 1 when they differ.  For sweeps over many files (docs/frontend-robustness.md).
 */
static int compare_one(int argc, char **argv)
{
    int a = 2, dim = 0;
    if (a + 1 < argc && strcmp(argv[a], "--dim") == 0) {
        dim = atoi(argv[a + 1]);
        a += 2;
    }
    if (a >= argc) {
        fprintf(stderr, "usage: test_halves --compare [--dim N] FILE [-- ARGS]\n");
        return 2;
    }
    const char *path = argv[a++];
    if (a < argc && strcmp(argv[a], "--") == 0)
        a++;
    reading w = read_as(path, dim, argc - a, (const char **)argv + a, HD_PARSE_WHOLE);
    reading h = read_as(path, dim, argc - a, (const char **)argv + a, HD_PARSE_HALVES);
    const char *what = difference(&w, &h);
    if (what)
        printf("differs: %s\n", what);
    else
        printf("%s\n", h.units == 2 ? "halves" : "whole");
    free_reading(&w);
    free_reading(&h);
    return what ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--compare") == 0)
        return compare_one(argc, argv);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hd-halves-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_bodies),
        cmocka_unit_test(test_plan_lines),
        cmocka_unit_test(test_plan_balance),
        cmocka_unit_test(test_plan_refusals),
        cmocka_unit_test(test_halves_files),
        cmocka_unit_test(test_repository_files),
        cmocka_unit_test(test_random_programs),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(tmpdir);
    return failed;
}
