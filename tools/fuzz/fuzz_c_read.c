/*
 * fuzz_c_read.c — libFuzzer harness for the C reader (hd_c_read) and what
 * `hyperdo analyze` does with its result.
 *
 * Each input is written to input.c in a private directory (hd_c_read takes
 * a path) and read as `hyperdo analyze` reads it, with runtime/include as
 * the directory of hyperdo/bits.h.  An input that starts with "// dim N" (N decimal)
 * is read with --dim N, so the fuzzer reaches that option too.  A
 * successful read is turned into a spec (hd_program_spec) and every LCC is
 * analysed as `hyperdo analyze` does: class, contention before and after its
 * own optimum, and the Section 5 set optimizer for every objective while
 * the cube is small enough to keep runs fast.  Everything is released, so
 * LeakSanitizer sees our leaks (libclang's own allocations are released by
 * clang_disposeIndex inside hd_c_read).
 *
 * Built by tools/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
 */
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

static void cleanup(void)
{
    unlink(path);
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
    atexit(cleanup);
    return 0;
}

static int leading_dim(const uint8_t *data, size_t size)
{
    static const char tag[] = "// dim ";
    size_t t = sizeof tag - 1;
    if (size <= t || memcmp(data, tag, t) != 0)
        return 0;
    int dim = 0;
    for (size_t k = t; k < size && k < t + 3 && data[k] >= '0' && data[k] <= '9'; k++)
        dim = dim * 10 + (data[k] - '0');
    return dim;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();

    hd_c_options opt = {
        .dim = leading_dim(data, size),
        .nargs = 0,
        .args = NULL,
        .build_dir = NULL,
        .include_dir = HD_FUZZ_INCLUDE,
    };
    hd_program prog;
    memset(&prog, 0, sizeof prog);
    char *diagnostics = NULL;
    int errors = hd_c_read(path, &opt, &prog, &diagnostics);
    if (errors < 0)
        abort();                /* documented: the number of errors */
    if (errors == 0) {
        hd_spec spec;
        memset(&spec, 0, sizeof spec);
        if (hd_program_spec(&prog, &spec) == HD_SPEC_OK) {
            analyse(&spec);
            hd_spec_free(&spec);
        }
        hd_program_free(&prog);
    }
    free(diagnostics);
    return 0;
}
