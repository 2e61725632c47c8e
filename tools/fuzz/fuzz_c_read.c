/*
 * fuzz_c_read.c — libFuzzer harness for the C reader (hd_c_read) and what
 * `hyperdo analyze` does with its result.
 *
 * Each input is written to input.c in a private directory (hd_c_read takes
 * a path) and read as `hyperdo analyze` reads it, with runtime/include as
 * the directory of hyperdo/bits.h.  A first line of the form
 *     // hd [dim N] [args LETTERS] [compdb] [halves]
 * (any order, any subset) selects the command-line options the fuzzer
 * would otherwise never reach: --dim N; compiler arguments, one per letter
 * from a fixed menu of harmless ones (never free text: an argument such as
 * -Xclang -load would make libclang load a library); and -p, the
 * compilation database, for which a compile_commands.json holding those
 * arguments is written beside input.c; `halves` reads the file a second
 * time in two halves at once (frontend/halves.h) and aborts unless both
 * readings give the same errors, diagnostics and communications.  Every
 * input also goes through the halves plan on its own, whose invariants are
 * checked (bodies in order, braces at their ends, lengths and lines kept in
 * the blanked texts).  A successful read is turned into a
 * spec (hd_program_spec) and every LCC is analysed as `hyperdo analyze`
 * does: class, contention before and after its own optimum, and the Section
 * 5 set optimizer for every objective while the cube is small enough to
 * keep runs fast.  Everything is released, so LeakSanitizer sees our leaks
 * (libclang's own allocations are released by clang_disposeIndex inside
 * hd_c_read).
 *
 * Built by tools/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "frontend.h"
#include "halves.h"

#ifndef HD_FUZZ_INCLUDE
#error "define HD_FUZZ_INCLUDE as the runtime/include directory"
#endif

/* The set optimizer is O(m n 2^n); beyond this it only slows the fuzzer. */
#define FUZZ_DP_MAX_DIM 12

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/hd-fuzz.XXXXXX";
static char path[sizeof dir + 16];
static char compdb[sizeof dir + 32];

static void cleanup(void)
{
    unlink(path);
    unlink(compdb);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!mkdtemp(dir)) {
        perror("fuzz_c_read: mkdtemp");
        abort();
    }
    snprintf(path, sizeof path, "%s/input.c", dir);
    snprintf(compdb, sizeof compdb, "%s/compile_commands.json", dir);
    atexit(cleanup);
    return 0;
}

/* The compiler arguments a first line "// hd args LETTERS" may choose. */
static const char *const menu[] = {
    "-DN=256", "-std=c99", "-std=gnu11", "-w", "-Wall", "-Werror",
    "-I/nonexistent", "-funsigned-char", "-fblocks", "-m32", "-DNDEBUG",
    "-UN", "-O2", "-ferror-limit=1", "-x", "c", "-include", "stddef.h",
    "-fms-extensions", "-std=c2x", "-pedantic-errors", "-DHYPERDO=1",
    "-fno-builtin", "-ffreestanding", "-trigraphs", "-Dfor=while",
};
#define MENU_SIZE (sizeof menu / sizeof menu[0])
#define MAX_ARGS 8

typedef struct {
    int dim;
    bool compdb, halves;
    int nargs;
    const char *args[MAX_ARGS];
} leading;

/* Reads the options of a first line "// hd ...". */
static leading leading_options(const uint8_t *data, size_t size)
{
    leading o = { 0 };
    char line[128];
    size_t len = 0;
    while (len < size && len < sizeof line - 1 && data[len] != '\n')
        len++;
    memcpy(line, data, len);
    line[len] = '\0';
    if (strncmp(line, "// hd ", 6) != 0)
        return o;
    char *save = NULL;
    for (char *w = strtok_r(line + 6, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strcmp(w, "compdb") == 0) {
            o.compdb = true;
        } else if (strcmp(w, "halves") == 0) {
            o.halves = true;
        } else if (strcmp(w, "dim") == 0 || strcmp(w, "args") == 0) {
            /* A word that takes a value, which may be missing. */
            char *value = strtok_r(NULL, " ", &save);
            if (!value)
                break;
            if (w[0] == 'd')
                o.dim = atoi(value) % 1000;
            for (; w[0] == 'a' && *value && o.nargs < MAX_ARGS; value++)
                o.args[o.nargs++] = menu[(unsigned char)*value % MENU_SIZE];
        }
    }
    return o;
}

/* compile_commands.json for input.c with the chosen arguments. */
static void write_compdb(const leading *o)
{
    FILE *f = fopen(compdb, "w");
    if (!f)
        abort();
    fprintf(f, "[{\"directory\": \"%s\", \"file\": \"input.c\", "
               "\"arguments\": [\"clang\", \"-c\"", dir);
    for (int k = 0; k < o->nargs; k++)
        fprintf(f, ", \"%s\"", o->args[k]);
    fprintf(f, ", \"-o\", \"input.o\", \"input.c\"]}]\n");
    if (fclose(f) != 0)
        abort();
}

static void analyse(const hd_spec *spec)
{
    hd_lcc *set = calloc((size_t)spec->m + 1, sizeof *set);
    if (!set)
        return;
    int m = 0;
    for (int r = 0; r < spec->m; r++) {
        const hd_named_lcc *nl = &spec->lccs[r];
        if (nl->reason)
            continue;
        const hd_lcc *c = &nl->lcc;
        if (c->A.n != spec->n || c->A.n < 1 || c->A.n > HD_MAX_DIM)
            abort();            /* the documented invariant of hd_spec */
        uint64_t T[HD_MAX_DIM];
        (void)hd_lcc_classify(c);
        (void)hd_lcc_is_bpc(c);
        hd_contention(c, T);
        (void)hd_contention_degree(T, c->A.n);
        hd_order o = hd_optimize_alone(c);
        if (!hd_order_is_valid(&o))
            abort();
        hd_contention_after(c, &o, T);
        set[m++] = *c;
    }
    if (m > 0 && spec->n <= FUZZ_DP_MAX_DIM)
        for (int obj = HD_OBJ_MAX; obj <= HD_OBJ_SUM; obj++) {
            hd_order order;
            uint64_t cost;
            if (hd_optimize_set(set, m, spec->n, (hd_objective)obj, &order,
                                &cost) == HD_OK &&
                !hd_order_is_valid(&order))
                abort();
        }
    free(set);
}

/* The documented promises of the halves plan, on any text. */
static void check_plan(const uint8_t *data, size_t size)
{
    const char *src = (const char *)data;
    hd_halves p;
    if (!hd_halves_plan(src, size, &p)) {
        if (p.bodies || p.nbodies || !p.why)
            abort();
        return;
    }
    size_t last = 0;
    int last_half = 0, ndoall = 0;
    for (int k = 0; k < p.nbodies; k++) {
        const hd_body *b = &p.bodies[k];
        if (b->begin < last || b->end <= b->begin ||
            b->end > size || src[b->begin] != '{' || src[b->end - 1] != '}' ||
            (b->half >= 0) != b->doall || b->half > 1 ||
            (b->half >= 0 && b->half < last_half) ||
            hd_halves_body_at(&p, b->begin) != b ||
            hd_halves_body_at(&p, b->end - 1) != b)
            abort();
        if (b->half >= 0) {
            last_half = b->half;
            ndoall++;
        }
        last = b->end;
    }
    if (ndoall < 2 || p.bodies[0].half == 1 || last_half != 1)
        abort();
    for (int h = 0; h < 2; h++) {
        char *t = hd_halves_text(src, size, &p, h);
        if (!t || t[size] != '\0')
            abort();
        for (size_t k = 0; k < size; k++) {
            const hd_body *b = hd_halves_body_at(&p, k);
            bool blank = b && b->half >= 0 && b->half != h;
            char want = !blank ? src[k] : k == b->begin ? ';'
                      : src[k] == '\n' || src[k] == '\r' ? src[k] : ' ';
            if (t[k] != want)
                abort();
        }
        free(t);
    }
    hd_halves_free(&p);
}

/* Both readings' communications, as hyperdo analyze prints them. */
static bool same_specs(const hd_spec *a, const hd_spec *b)
{
    if (a->n != b->n || a->m != b->m)
        return false;
    for (int k = 0; k < a->m; k++) {
        const hd_named_lcc *x = &a->lccs[k], *y = &b->lccs[k];
        if (strcmp(x->name, y->name) != 0 || strcmp(x->array, y->array) != 0 ||
            x->line != y->line || x->col != y->col || x->loop_line != y->loop_line ||
            !x->reason != !y->reason || (x->reason && strcmp(x->reason, y->reason) != 0) ||
            x->lcc.b != y->lcc.b || !hd_matrix_equal(&x->lcc.A, &y->lcc.A))
            return false;
    }
    return true;
}

/* The file read again in halves must give what the whole reading gave. */
static void compare_halves(const hd_c_options *whole_opt, int errors,
                           const char *diagnostics, const hd_spec *spec)
{
    hd_c_options opt = *whole_opt;
    opt.parse = HD_PARSE_HALVES;
    hd_program prog;
    char *diag = NULL;
    int e = hd_c_read(path, &opt, &prog, &diag);
    if (e != errors || strcmp(diag ? diag : "", diagnostics ? diagnostics : "") != 0)
        abort();
    if (e == 0) {
        hd_spec other;
        if (hd_program_spec(&prog, &other) != HD_SPEC_OK)
            abort();
        if (spec && !same_specs(spec, &other))
            abort();
        hd_spec_free(&other);
        hd_program_free(&prog);
    }
    free(diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_plan(data, size);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();

    leading lead = leading_options(data, size);
    if (lead.compdb)
        write_compdb(&lead);
    else
        unlink(compdb);
    hd_c_options opt = {
        .dim = lead.dim,
        .nargs = lead.compdb ? 0 : lead.nargs,
        .args = lead.args,
        .build_dir = lead.compdb ? dir : NULL,
        .include_dir = HD_FUZZ_INCLUDE,
    };
    hd_program prog;
    memset(&prog, 0, sizeof prog);
    char *diagnostics = NULL;
    opt.parse = HD_PARSE_WHOLE;
    int errors = hd_c_read(path, &opt, &prog, &diagnostics);
    if (errors < 0)
        abort();                /* documented: the number of errors */
    hd_spec spec;
    memset(&spec, 0, sizeof spec);
    bool have_spec = errors == 0 && hd_program_spec(&prog, &spec) == HD_SPEC_OK;
    if (lead.halves)
        compare_halves(&opt, errors, diagnostics, have_spec ? &spec : NULL);
    if (have_spec) {
        analyse(&spec);
        hd_spec_free(&spec);
    }
    if (errors == 0)
        hd_program_free(&prog);
    free(diagnostics);
    return 0;
}
