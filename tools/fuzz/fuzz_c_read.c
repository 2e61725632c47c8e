/*
 * fuzz_c_read.c — libFuzzer harness for the C reader (hd_c_read) and what
 * `hyperdo analyze` does with its result.
 *
 * Each input is written to input.c in a private directory (hd_c_read takes
 * a path) and read as `hyperdo analyze` reads it, with runtime/include as
 * the directory of hyperdo/bits.h.  A first line of the form
 *     // hd [dim N] [args LETTERS] [compdb]
 * (any order, any subset) selects the command-line options the fuzzer
 * would otherwise never reach: --dim N; compiler arguments, one per letter
 * from a fixed menu of harmless ones (never free text: an argument such as
 * -Xclang -load would make libclang load a library); and -p, the
 * compilation database, for which a compile_commands.json holding those
 * arguments is written beside input.c.  A successful read is turned into a
 * spec (hd_program_spec) and every LCC is analysed as `hyperdo analyze`
 * does: class, contention before and after its own optimum, and the Section
 * 5 set optimizer for every objective while the cube is small enough to
 * keep runs fast.  Everything is released, so LeakSanitizer sees our leaks
 * (libclang's own allocations are released by clang_disposeIndex inside
 * hd_c_read).  The analysis (hd_analyse_program) runs on what the reader
 * gives, into its diagnostics, as `hyperdo analyze` runs it.
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
    bool compdb;
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
    const hd_target target = hd_target_ecube(spec->n);
    int m = 0;
    for (int r = 0; r < spec->m; r++) {
        const hd_named_lcc *nl = &spec->lccs[r];
        if (nl->comm.kind != HD_COMM_LCC)
            continue;
        const hd_lcc *c = nl->comm.lcc;
        if (c->A.n != spec->n || c->A.n < 1 || c->A.n > HD_MAX_DIM)
            abort();            /* the documented invariant of hd_spec */
        uint64_t T[HD_MAX_DIM];
        (void)hd_lcc_classify(c);
        (void)hd_lcc_is_bpc(c);
        if (hd_contention(&target, c, T) != HD_OK)
            abort();
        (void)hd_contention_degree(T, c->A.n);
        hd_order o = hd_optimize_alone(c);
        if (!hd_order_is_valid(&o))
            abort();
        if (hd_contention_after(&target, c, &o, T) != HD_OK)
            abort();
        set[m++] = *c;
    }
    if (m > 0 && spec->n <= FUZZ_DP_MAX_DIM)
        for (int obj = HD_OBJ_MAX; obj <= HD_OBJ_SUM; obj++) {
            hd_order order;
            uint64_t cost;
            if (hd_optimize_set(&target, set, m, (hd_objective)obj, &order,
                                &cost) == HD_OK &&
                !hd_order_is_valid(&order))
                abort();
        }
    free(set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
    hd_analysis results;
    hd_diags d;
    if (hd_c_read(path, &opt, &prog, &d) < 0)
        abort();                /* documented: the number of errors */
    int errors = hd_analyse_program(&prog, &d, &results);
    char *diagnostics = hd_diags_text(&d);
    hd_diags_free(&d);
    hd_spec spec;
    memset(&spec, 0, sizeof spec);
    bool have_spec = errors == 0 && hd_program_spec(&prog, &results, &spec) == HD_SPEC_OK;
    if (have_spec) {
        analyse(&spec);
        hd_spec_free(&spec);
    }
    hd_program_free(&prog);
    hd_analysis_free(&results);
    free(diagnostics);
    return 0;
}
