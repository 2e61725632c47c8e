/*
 * node_test.c — properties of the node code that the programs' output
 * cannot show (docs/codegen.md):
 *
 *   counts   tests/codegen/node/counts.c under the simulation back end: the
 *            messages and bytes of each doall, from the report, must be
 *            what this file works out from the index maps alone, with its
 *            own copy of the block layout: for an LCC, one message per
 *            ordered pair of processors that exchange elements and each
 *            element a processor needs from another exactly once (also
 *            for a stream, i + c); for requests, the documented protocol
 *            (a count to every other processor, one request and one answer
 *            per pair that asks);
 *   visits   tests/codegen/node/visits.c on the threads back end, compiled with
 *            tests/codegen/node/visits.h: the iterations (and elements to send)
 *            each processor's node loops visit (hyperdo.h's HD_VISIT),
 *            which must be its own iterations only (N / P per doall),
 *            plus one per element it sends, not every iteration with a
 *            test of who runs it.
 *
 *   memory   tests/codegen/node/memory.c on 4 threads: an array only doalls use
 *            costs its slices only, no host copy (its resident size
 *            against memory_named.c's, whose host names the array).
 *
 *   remaps   tests/codegen/node/remaps.c under the simulation back end on
 *            the 2-, 3- and 4-cube: each remap between two data mappings
 *            (Wu 1984) whose elements move is a phase of the report, and
 *            its messages and bytes, and HYPERDO_STATS's per array, must be
 *            what this file works out from the mappings alone: the
 *            elements whose owner changes, one message per ordered pair of
 *            processors between which some move; a remap that only changes
 *            the layout has no phase.
 *
 *     node_test MODE HYPERDO INCLUDE_DIR LIBRARY WORK_DIR SOURCE_DIR
 *
 * Environment: CC (cc), HYPERDO_TEST_CFLAGS (flags a sanitizer build's
 * library needs).  Exit status 0 when everything matched; on a mismatch
 * the doall, the processor count and both figures are printed.
 */
#define _GNU_SOURCE   /* asprintf */

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 1024        /* counts.c */
#define LOGN 10
#define NV 4096       /* visits.c */

static const char *hyperdo, *include, *library, *work, *source;
static int failures;

static int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
    char *cmd;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&cmd, fmt, ap) < 0)
        exit(2);
    va_end(ap);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    free(cmd);
    return rc;
}

static const char *cc(void)
{
    const char *c = getenv("CC");
    return c && *c ? c : "cc";
}

static const char *test_cflags(void)
{
    const char *c = getenv("HYPERDO_TEST_CFLAGS");
    return c ? c : "";
}

/* Translates SOURCE/tests/codegen/node/NAME.c for the n-cube (with the macros
 * DEFS) and builds it with the library (and EXTRA flags) into
 * WORK/OUT.n/OUT, and the sequential program; runs both (ENV before the
 * translated one) and compares their output. */
static int build_and_run_as(const char *name, const char *out, int n, const char *defs,
                            const char *extra, const char *env)
{
    char *dir;
    if (asprintf(&dir, "%s/%s.%d", work, out, n) < 0)
        exit(2);
    int rc = shell("mkdir -p '%s'", dir);
    /* Direct messages (--collectives off): these tests count and shape
     * Hou et al. 2001's Fig. 1d messages; tests/coll has the collectives. */
    rc = rc ? rc : shell("'%s' translate --collectives off --dim %d --mapping identity "
                         "'%s/tests/codegen/node/%s.c' "
                         "-o '%s/%s.spmd.c' -- -I'%s' %s", hyperdo, n, source, name, dir, out,
                         include, defs);
    rc = rc ? rc : shell("%s -std=c11 -O1 -Wall -Wextra -Werror -I'%s' %s %s '%s/%s.spmd.c' '%s' "
                         "-pthread -lm %s -o '%s/%s'", cc(), include, defs, extra, dir, out,
                         library, test_cflags(), dir, out);
    rc = rc ? rc : shell("%s -std=c11 -O1 -Wno-unknown-pragmas -I'%s' %s '%s/tests/codegen/node/%s.c' "
                         "-lm -o '%s/%s.seq'", cc(), include, defs, source, name, dir, out);
    rc = rc ? rc : shell("'%s/%s.seq' > '%s/seq.out'", dir, out, dir);
    rc = rc ? rc : shell("cd '%s' && %s './%s' > spmd.out", dir, env, out);
    rc = rc ? rc : shell("cmp -s '%s/seq.out' '%s/spmd.out'", dir, dir);
    free(dir);
    return rc;
}

static int build_and_run(const char *name, int n, const char *extra, const char *env)
{
    return build_and_run_as(name, name, n, "", extra, env);
}

/* ------------------------------------------------------------ counts */

/* The block layout of a 2^LOGN-element array on the n-cube. */
static int owner(int e, int n)
{
    return e >> (LOGN - n);
}

static unsigned reverse10(unsigned i)
{
    unsigned r = 0;
    for (int b = 0; b < LOGN; b++)
        r |= ((i >> b) & 1) << (LOGN - 1 - b);
    return r;
}

/* Element read by doall d at iteration i, or -1 where it reads none. */
static int element(int d, int i)
{
    switch (d) {
    case 0: return (int)reverse10((unsigned)i);
    case 1: return (i >> 5) | ((i & 31) << 5);
    case 2: return i ^ 512;
    case 3: return i >> 3;
    case 4: return N - 1 - i;
    case 5: return 5;
    case 6: return (i * 37 + 11) % N;
    case 7: return i >= 3 ? i - 3 : -1;
    case 8: return i ^ 300;             /* x[i ^ mask], mask = 300 */
    default: return 7 * 32 + (i & 31);  /* m2[I][i & 31], I = 7 */
    }
}
#define NDOALLS 10

typedef struct {
    uint64_t messages, bytes;
} figures;

/* What the doall's messages must add up to, from the index maps. */
static figures expected(int d, int n, size_t elem_size)
{
    int P = 1 << n;
    /* needed[p][q][e]: processor q needs element e from processor p. */
    uint8_t *needed = calloc((size_t)P * (size_t)P * N, 1);
    if (!needed)
        exit(2);
    for (int i = 0; i < N; i++) {
        int e = element(d, i), q = owner(i, n);
        if (e >= 0 && owner(e, n) != q)
            needed[((size_t)owner(e, n) * (size_t)P + (size_t)q) * N + (size_t)e] = 1;
    }
    figures f = { 0, 0 };
    bool requests = d == 6;   /* a[q[i]]; a[i - d] is a stream: sent like an LCC */
    if (requests) {
        f.messages = (uint64_t)P * (uint64_t)(P - 1);   /* the counts */
        f.bytes = 8 * f.messages;
    }
    for (int p = 0; p < P; p++)
        for (int q = 0; q < P; q++) {
            uint64_t k = 0;
            for (int e = 0; e < N; e++)
                k += needed[((size_t)p * (size_t)P + (size_t)q) * N + (size_t)e];
            if (!k)
                continue;
            if (requests) {
                f.messages += 2;                /* the request and the answer */
                f.bytes += 16 + 8 * k + k * elem_size;
            } else {
                f.messages += 1;
                f.bytes += k * elem_size;
            }
        }
    free(needed);
    return f;
}

static void counts(int n)
{
    int P = 1 << n;
    if (build_and_run("counts", n, "", "HYPERDO_SIM_REPORT=report")) {
        failures++;
        return;
    }
    char *path;
    if (asprintf(&path, "%s/counts.%d/report", work, n) < 0)
        exit(2);
    FILE *f = fopen(path, "r");
    free(path);
    if (!f) {
        fprintf(stderr, "counts, n = %d: no report\n", n);
        failures++;
        return;
    }
    figures got[NDOALLS];
    bool seen[NDOALLS] = { false };
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned phase;
        int doall;
        unsigned long long msgs, bytes;
        if (line[0] == '#' || sscanf(line, "%u %d %llu %llu", &phase, &doall, &msgs, &bytes) != 4)
            continue;
        if (doall < 0 || doall >= NDOALLS || seen[doall])
            continue;
        seen[doall] = true;
        got[doall] = (figures){ msgs, bytes };
    }
    fclose(f);
    /* sizeof(point) in counts.c: three doubles, a long and an int. */
    struct { double x, v[2]; long id; int pad; } point_like;
    for (int d = 0; d < NDOALLS; d++) {
        size_t size = d == 4 ? sizeof point_like : sizeof(double);
        figures want = expected(d, n, size);
        if (!seen[d]) {
            fprintf(stderr, "counts, P = %d: doall %d has no phase in the report\n", P, d);
            failures++;
            continue;
        }
        if (got[d].messages != want.messages || got[d].bytes != want.bytes) {
            fprintf(stderr, "counts, P = %d, doall %d: %llu messages, %llu bytes; the index "
                    "maps give %llu messages, %llu bytes\n", P, d,
                    (unsigned long long)got[d].messages, (unsigned long long)got[d].bytes,
                    (unsigned long long)want.messages, (unsigned long long)want.bytes);
            failures++;
        } else {
            printf("counts, P = %d, doall %d: %llu messages, %llu bytes, as the maps give\n", P,
                   d, (unsigned long long)want.messages, (unsigned long long)want.bytes);
        }
    }
}

/* ------------------------------------------------------------ remaps */

/* An element of AGL(n, 2) as remaps.c's map pragmas write it: bit j of
 * rows[i] is a_ij, c the complement; NULL is the identity. */
typedef struct {
    unsigned rows[4], c;
} agl;

/* remaps.c's mappings, by cube dimension (index n). */
static const agl F0[5] = { [2] = { { 3, 2 }, 1 }, [3] = { { 3, 6, 4 }, 2 },
                           [4] = { { 3, 2, 12, 8 }, 5 } };
static const agl F1[5] = { [2] = { { 1, 3 }, 0 }, [3] = { { 7, 2, 4 }, 5 },
                           [4] = { { 15, 2, 4, 8 }, 9 } };
static const agl F2[5] = { [2] = { { 1, 2 }, 2 }, [3] = { { 1, 3, 7 }, 1 },
                           [4] = { { 1, 3, 7, 15 }, 0 } };
static const agl F3[5] = { [2] = { { 2, 1 }, 3 }, [3] = { { 6, 3, 1 }, 0 },
                           [4] = { { 2, 1, 8, 4 }, 15 } };

static unsigned apply(const agl *f, unsigned v, int n)
{
    if (!f)
        return v;
    unsigned y = f->c;
    for (int i = 0; i < n; i++)
        y ^= (unsigned)__builtin_parity(f->rows[i] & v) << i;
    return y;
}

static int block_owner(int e, int n)
{
    return e >> (LOGN - n);
}

static int cyclic_owner(int e, int n)
{
    return e & ((1 << n) - 1);
}

/* A remap of a 2^LOGN-element array of doubles from `from` to `to`: the
 * elements whose processor changes, one message per pair. */
static figures remap_expected(int (*owner_of)(int, int), const agl *from, const agl *to, int n)
{
    bool pair[16][16] = { { false } };
    figures f = { 0, 0 };
    for (int e = 0; e < N; e++) {
        unsigned o = (unsigned)owner_of(e, n), p = apply(from, o, n), q = apply(to, o, n);
        if (p == q)
            continue;
        f.bytes += sizeof(double);
        if (!pair[p][q])
            f.messages++;
        pair[p][q] = true;
    }
    return f;
}

/* The remaps that move, per array, in the order the program runs them. */
typedef struct {
    const char *array;
    figures want[2];
    int count;
} array_remaps;

static void remaps(int n)
{
    int P = 1 << n;
    char defs[32];
    snprintf(defs, sizeof defs, "-DDIM=%d", n);
    if (build_and_run_as("remaps", "remaps", n, defs, "",
                         "HYPERDO_SIM_REPORT=report HYPERDO_STATS=stats")) {
        failures++;
        return;
    }
    array_remaps want[3] = {
        { "x", { remap_expected(block_owner, &F0[n], NULL, n) }, 1 },
        { "y", { remap_expected(block_owner, NULL, &F1[n], n),
                 remap_expected(block_owner, &F1[n], &F2[n], n) }, 2 },
        { "z", { remap_expected(cyclic_owner, NULL, &F3[n], n) }, 1 },
    };
    figures got[3][4];
    int seen[3] = { 0, 0, 0 };
    figures stats[3] = { { 0, 0 } };
    unsigned long long stat_runs[3] = { 0, 0, 0 };
    char *path;
    if (asprintf(&path, "%s/remaps.%d/report", work, n) < 0)
        exit(2);
    FILE *f = fopen(path, "r");
    free(path);
    char line[512], name[64];
    unsigned phase;
    unsigned long long runs, msgs, bytes;
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%u remap:%63s %llu %llu", &phase, name, &msgs, &bytes) != 4)
            continue;
        for (int a = 0; a < 3; a++)
            if (strcmp(name, want[a].array) == 0 && seen[a] < 4)
                got[a][seen[a]++] = (figures){ msgs, bytes };
    }
    if (f)
        fclose(f);
    if (asprintf(&path, "%s/remaps.%d/stats", work, n) < 0)
        exit(2);
    f = fopen(path, "r");
    free(path);
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "remap %63s %llu %llu %llu", name, &runs, &msgs, &bytes) != 4)
            continue;
        for (int a = 0; a < 3; a++)
            if (strcmp(name, want[a].array) == 0) {
                stat_runs[a] = runs;
                stats[a] = (figures){ msgs, bytes };
            }
    }
    if (f)
        fclose(f);
    for (int a = 0; a < 3; a++) {
        const array_remaps *w = &want[a];
        figures total = { 0, 0 };
        if (seen[a] != w->count) {
            fprintf(stderr, "remaps, P = %d: %d phases remap:%s in the report, %d expected (the "
                    "remaps that move elements)\n", P, seen[a], w->array, w->count);
            failures++;
            continue;
        }
        for (int k = 0; k < w->count; k++) {
            total.messages += w->want[k].messages;
            total.bytes += w->want[k].bytes;
            if (got[a][k].messages != w->want[k].messages || got[a][k].bytes != w->want[k].bytes) {
                fprintf(stderr, "remaps, P = %d, remap %d of %s: %llu messages, %llu bytes; the "
                        "mappings give %llu messages, %llu bytes\n", P, k + 1, w->array,
                        (unsigned long long)got[a][k].messages,
                        (unsigned long long)got[a][k].bytes,
                        (unsigned long long)w->want[k].messages,
                        (unsigned long long)w->want[k].bytes);
                failures++;
            } else {
                printf("remaps, P = %d, remap %d of %s: %llu messages, %llu bytes, as the "
                       "mappings give\n", P, k + 1, w->array,
                       (unsigned long long)w->want[k].messages,
                       (unsigned long long)w->want[k].bytes);
            }
        }
        if (stat_runs[a] != (unsigned long long)w->count || stats[a].messages != total.messages ||
            stats[a].bytes != total.bytes) {
            fprintf(stderr, "remaps, P = %d: HYPERDO_STATS says %s was remapped %llu times, %llu "
                    "messages, %llu bytes; expected %d, %llu, %llu\n", P, w->array, stat_runs[a],
                    (unsigned long long)stats[a].messages, (unsigned long long)stats[a].bytes,
                    w->count, (unsigned long long)total.messages,
                    (unsigned long long)total.bytes);
            failures++;
        }
    }
}

/* ------------------------------------------------------------ visits */

static void visits(int n)
{
    int P = 1 << n;
    char *flags;
    if (asprintf(&flags, "-include '%s/tests/codegen/node/visits.h'", source) < 0)
        exit(2);
    int rc = build_and_run("visits", n, flags, "HYPERDO_VISITS=visits.txt");
    free(flags);
    if (rc) {
        failures++;
        return;
    }
    char *path;
    if (asprintf(&path, "%s/visits.%d/visits.txt", work, n) < 0)
        exit(2);
    FILE *f = fopen(path, "r");
    free(path);
    long *count = calloc((size_t)P, sizeof *count);
    int p;
    long c;
    while (f && fscanf(f, "%d %ld", &p, &c) == 2)
        if (p >= 0 && p < P)
            count[p] = c;
    if (f)
        fclose(f);
    /* Five doalls: each processor's own N / P iterations of each, and for
     * the bit reversal (block layout) one visit per element it sends: its
     * elements that an iteration of another processor reads. */
    int bad = 0, shift = 12 - n;
    for (p = 0; p < P; p++) {
        long want = 5L * NV / P;
        for (long e = (long)p << shift; e < (long)(p + 1) << shift; e++) {
            long i = 0;   /* the iteration that reads b[e]: reverse(e, 12) */
            for (int b = 0; b < 12; b++)
                i |= ((e >> b) & 1) << (11 - b);
            want += (i >> shift) != p;
        }
        if (count[p] != want && bad++ < 4)
            fprintf(stderr, "visits, P = %d: processor %d visited %ld iterations and elements, "
                    "%ld expected (its own iterations and the elements it sends)\n", P, p,
                    count[p], want);
    }
    failures += bad;
    if (!bad)
        printf("visits, P = %d: every processor visited its own iterations and the elements "
               "it sends, no more (N = %d per doall)\n", P, NV);
    free(count);
}

/* ------------------------------------------------------------ memory */

/* Runs the command and returns the largest resident size of the process
 * (and of any it waited for), in KiB, or -1 when it failed. */
static long max_rss_kib(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    return ru.ru_maxrss;
}

/* The 64 MiB array of memory.c on 4 threads: its slices, 64 MiB in all,
 * and nothing else of that size; with the host naming it (-DNAMED) its
 * copy on the host is there too.  The second figure shows that the
 * measurement sees a host copy when there is one. */
static void memory(void)
{
    const long array_kib = 64 * 1024;
    if (build_and_run("memory", 2, "", "") ||
        build_and_run_as("memory", "memory_named", 2, "-DNAMED", "", "")) {
        failures++;
        return;
    }
    char *a, *b;
    if (asprintf(&a, "%s/memory.2/memory", work) < 0 ||
        asprintf(&b, "%s/memory_named.2/memory_named", work) < 0)
        exit(2);
    long unnamed = max_rss_kib(a), named = max_rss_kib(b);
    free(a);
    free(b);
    printf("memory, P = 4: %ld KiB resident with the array only on the processors, "
           "%ld KiB with the host's copy too (the array: %ld KiB)\n", unnamed, named, array_kib);
    if (unnamed < 0 || named < 0) {
        fprintf(stderr, "memory: a program failed\n");
        failures++;
        return;
    }
    if (unnamed > array_kib + array_kib / 4 + 16 * 1024) {
        fprintf(stderr, "memory: %ld KiB resident: more than the processors' slices\n", unnamed);
        failures++;
    }
    if (named < unnamed + array_kib / 2) {
        fprintf(stderr, "memory: the host's copy does not show (%ld KiB against %ld KiB)\n",
                named, unnamed);
        failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: node_test counts|visits|memory|remaps HYPERDO INCLUDE LIBRARY WORK "
                "SOURCE\n");
        return 2;
    }
    hyperdo = argv[2];
    include = argv[3];
    library = argv[4];
    work = argv[5];
    source = argv[6];
    bool do_counts = strcmp(argv[1], "counts") == 0;
    if (!do_counts && strcmp(argv[1], "visits") != 0 && strcmp(argv[1], "memory") != 0 &&
        strcmp(argv[1], "remaps") != 0) {
        fprintf(stderr, "node_test: unknown mode %s\n", argv[1]);
        return 2;
    }
    if (shell("mkdir -p '%s'", work))
        return 2;
    if (strcmp(argv[1], "remaps") == 0) {
        for (int n = 2; n <= 4; n++)
            remaps(n);
        if (failures)
            fprintf(stderr, "node_test remaps: %d failures\n", failures);
        return failures ? 1 : 0;
    }
    if (strcmp(argv[1], "memory") == 0) {
        memory();
        if (failures)
            fprintf(stderr, "node_test memory: %d failures\n", failures);
        return failures ? 1 : 0;
    }
    for (int n = 1; n <= (do_counts ? 4 : 6); n++) {
        if (do_counts)
            counts(n);
        else
            visits(n);
    }
    if (failures)
        fprintf(stderr, "node_test %s: %d failures\n", argv[1], failures);
    return failures ? 1 : 0;
}
