/*
 * table_prog.c — table distributions and the gather plan (hyperdo.h,
 * runtime/src/table.c) in a hand-written SPMD program on finite element
 * meshes: the 8 x 8 quad grid (N = 64) and the 5 x 101 one (N = 505, not
 * a power of two), whose NB graph (nodes sharing a quad) is the king's
 * moves, each under two mappings of ceil(N/P) consecutive nodes per
 * processor: block v on processor v, and on processor gray(v), the
 * neighbour mapping of Chung and Ranka 1990 for these stripes.
 *
 * Each processor's iterations are its own nodes; they read the NB
 * neighbours (refs), y[e] = e / 2 + 3.  Checked on every processor:
 *   - the distribution's owner, local index, count and global index
 *     against the table itself;
 *   - what it sends to and receives from each l equals c_kl and c_lk,
 *     counted here from the mesh (distinct nodes of k with a neighbour
 *     on l);
 *   - every value the executor gives is y[refs[i]];
 *   - hd_gather_plan_reuse keeps the plan for refs of the same contents
 *     (another array), and rebuilds it on every processor when the refs
 *     of all, or of processor 0 alone, change, or the distribution does.
 * With the sim back end (saf-bi or saf-uni), each executor doall's phase
 * time must be C, the cost of Chung and Ranka's Section 2.3, computed
 * here by the test's own stepping of the c_kl words.
 *
 *     table_prog DIM [map | bad | saf-bi REPORT | saf-uni REPORT]
 *
 * map: virtual processor (5p + 3) mod 2^DIM on physical p; bad: a
 * reference outside the table (the program must stop with a message).
 * Prints "table ok" and exits 0, or the differences and exits 1.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* setenv */
#endif
#include "hyperdo.h"
#include "hyperdo/coll.h"
#include "sim_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXP = 64, NCASES = 4 };
enum { D_INSPECT, D_EXEC, D_REUSE, D_BAD, NDOALLS };

static int to_virtual[MAXP], to_physical[MAXP];

/* Case c: the mesh (rows x cols of nodes) and the mapping. */
static const int mesh_rows[NCASES] = { 8, 8, 5, 5 };
static const int mesh_cols[NCASES] = { 8, 8, 101, 101 };
static const int mesh_gray[NCASES] = { 0, 1, 0, 1 };

static double yval(hd_index e)
{
    return (double)e / 2 + 3;
}

static int gray(int v)
{
    return v ^ (v >> 1);
}

static void make_owner(int c, int P, int *owner)
{
    long N = (long)mesh_rows[c] * mesh_cols[c], block = (N + P - 1) / P;
    for (long e = 0; e < N; e++)
        owner[e] = mesh_gray[c] ? gray((int)(e / block)) : (int)(e / block);
}

/* The NB neighbours of node e (king's moves in the grid): their count. */
static int neighbours(int c, long e, long *nb)
{
    int R = mesh_rows[c], C = mesh_cols[c], r = (int)(e / C), q = (int)(e % C), k = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dq = -1; dq <= 1; dq++)
            if ((dr || dq) && r + dr >= 0 && r + dr < R && q + dq >= 0 && q + dq < C)
                nb[k++] = (long)(r + dr) * C + q + dq;
    return k;
}

/* c[k * P + l]: distinct nodes of k with an NB neighbour on l (k != l). */
static void count_ckl(int c, int P, const int *owner, long *ckl)
{
    long N = (long)mesh_rows[c] * mesh_cols[c], nb[8];
    memset(ckl, 0, (size_t)P * P * sizeof *ckl);
    for (long u = 0; u < N; u++) {
        unsigned char on[MAXP] = { 0 };
        int k = neighbours(c, u, nb);
        for (int j = 0; j < k; j++)
            on[owner[nb[j]]] = 1;
        for (int l = 0; l < P; l++)
            if (on[l] && l != owner[u])
                ckl[owner[u] * P + l]++;
    }
}

/* What each processor keeps between doalls (slot: its virtual id). */
typedef struct {
    int *owner;
    long *ckl;
    hd_table_dist *d;
    hd_gather_plan *plan;
    hd_index *refs;
    size_t nrefs;
    double *local;
    long bad;
} proc_state;

static proc_state st[MAXP];
static long total_bad = -1;   /* the host's, after the last doall */

/* A failed check's line, printed whole: processors print at once. */
#define CHECK(s, cond, ...)                                                  \
    do {                                                                     \
        if (!(cond) && (s)->bad++ < 10) {                                    \
            char msg_[256];                                                  \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                        \
            printf("processor %d: %s\n", v_get_pid(), msg_);                 \
        }                                                                    \
    } while (0)

static void check_words(proc_state *s, const hd_gather_plan *plan, const char *when)
{
    int P = hd_nprocs(), me = v_get_pid();
    for (int l = 0; l < P; l++) {
        long to = l == me ? 0 : s->ckl[me * P + l], from = l == me ? 0 : s->ckl[l * P + me];
        CHECK(s, hd_gather_plan_words_to(plan, l) == (size_t)to,
              "%s: %zu words to %d, c_kl = %ld", when, hd_gather_plan_words_to(plan, l), l, to);
        CHECK(s, hd_gather_plan_words_from(plan, l) == (size_t)from,
              "%s: %zu words from %d, c_lk = %ld", when, hd_gather_plan_words_from(plan, l), l,
              from);
    }
}

static void check_values(proc_state *s, const hd_gather_plan *plan, const hd_index *refs,
                         size_t nrefs, const char *when)
{
    double *values = hd_alloc((hd_index)nrefs, sizeof *values);
    hd_gather_run(plan, s->local, sizeof *s->local, values);
    for (size_t i = 0; i < nrefs; i++)
        CHECK(s, values[i] == yval(refs[i]), "%s: values[%zu] = %g, y[%lld] = %g", when, i,
              values[i], (long long)refs[i], yval(refs[i]));
    free(values);
}

static void d_inspect(const void *env)
{
    int c = *(const int *)env, P = hd_nprocs(), me = v_get_pid();
    long N = (long)mesh_rows[c] * mesh_cols[c], nb[8];
    proc_state *s = &st[me];
    s->owner = hd_alloc(N, sizeof *s->owner);
    s->ckl = hd_alloc((hd_index)P * P, sizeof *s->ckl);
    make_owner(c, P, s->owner);
    count_ckl(c, P, s->owner, s->ckl);
    s->d = hd_table_dist_new(N, s->owner);

    /* The distribution against the table. */
    long *seen = calloc((size_t)P, sizeof *seen);
    CHECK(s, hd_table_size(s->d) == N, "size %lld", (long long)hd_table_size(s->d));
    for (long e = 0; e < N; e++) {
        int o = s->owner[e];
        CHECK(s, hd_table_owner(s->d, e) == o, "owner of %ld", e);
        CHECK(s, hd_table_local_index(s->d, e) == seen[o], "local index of %ld", e);
        CHECK(s, hd_table_global_index(s->d, o, seen[o]) == e, "global index of %ld", e);
        seen[o]++;
    }
    for (int v = 0; v < P; v++)
        CHECK(s, hd_table_local_count(s->d, v) == seen[v], "count of %d", v);
    free(seen);

    /* Its iterations' references, and its slice of y. */
    s->refs = hd_alloc(8 * N, sizeof *s->refs);
    s->nrefs = 0;
    for (long e = 0; e < N; e++)
        if (s->owner[e] == me) {
            int k = neighbours(c, e, nb);
            for (int j = 0; j < k; j++)
                s->refs[s->nrefs++] = nb[j];
        }
    hd_index count = hd_table_local_count(s->d, me);
    s->local = hd_alloc(count, sizeof *s->local);
    for (hd_index i = 0; i < count; i++)
        s->local[i] = yval(hd_table_global_index(s->d, me, i));

    s->plan = hd_gather_plan_new(s->d, s->refs, s->nrefs);
    CHECK(s, hd_gather_plan_builds(s->plan) == 1, "builds %ld after new",
          hd_gather_plan_builds(s->plan));
    check_words(s, s->plan, "new");
}

/* The executor alone: its phase is the one the sim back end times. */
static void d_exec(const void *env)
{
    proc_state *s = &st[v_get_pid()];
    (void)env;
    check_values(s, s->plan, s->refs, s->nrefs, "first run");
}

static void d_reuse(const void *env)
{
    int c = *(const int *)env, me = v_get_pid();
    long N = (long)mesh_rows[c] * mesh_cols[c];
    proc_state *s = &st[me];
    size_t n = s->nrefs;
    hd_gather_plan *p;
    (void)c;

    /* The same contents in another array: kept, not rebuilt. */
    hd_index *same = hd_alloc((hd_index)n, sizeof *same);
    memcpy(same, s->refs, n * sizeof *same);
    p = hd_gather_plan_reuse(s->plan, s->d, same, n);
    CHECK(s, p == s->plan && hd_gather_plan_builds(p) == 1, "reuse of the same refs rebuilt");
    check_values(s, p, same, n, "kept");

    /* Every processor's refs reversed, plus its own nodes: rebuilt, the
     * same words. */
    hd_index *changed = hd_alloc((hd_index)n + N, sizeof *changed);
    size_t m = 0;
    for (size_t i = n; i-- > 0;)
        changed[m++] = s->refs[i];
    for (long e = 0; e < N; e++)
        if (s->owner[e] == me)
            changed[m++] = e;
    p = hd_gather_plan_reuse(p, s->d, changed, m);
    CHECK(s, hd_gather_plan_builds(p) == 2, "builds %ld after a change of all refs",
          hd_gather_plan_builds(p));
    check_words(s, p, "changed");
    check_values(s, p, changed, m, "changed");
    p = hd_gather_plan_reuse(p, s->d, changed, m);
    CHECK(s, hd_gather_plan_builds(p) == 2, "builds %ld after no change",
          hd_gather_plan_builds(p));

    /* Processor 0 alone drops its last reference: everyone rebuilds. */
    size_t m0 = me == 0 && m > 0 ? m - 1 : m;
    p = hd_gather_plan_reuse(p, s->d, changed, m0);
    CHECK(s, hd_gather_plan_builds(p) == 3, "builds %ld after processor 0's change",
          hd_gather_plan_builds(p));
    check_values(s, p, changed, m0, "processor 0 changed");

    /* Another distribution (the same table): rebuilt. */
    hd_table_dist *d2 = hd_table_dist_new(N, s->owner);
    p = hd_gather_plan_reuse(p, d2, changed, m0);
    CHECK(s, hd_gather_plan_builds(p) == 4, "builds %ld after a new distribution",
          hd_gather_plan_builds(p));
    check_values(s, p, changed, m0, "new distribution");

    hd_gather_plan_free(p);
    hd_table_dist_free(d2);
    hd_table_dist_free(s->d);
    free(same);
    free(changed);
    free(s->refs);
    free(s->local);
    free(s->owner);
    free(s->ckl);
    s->plan = NULL;

    long bad = s->bad, sum = bad;
    hd_coll_allreduce(&bad, &sum, 1, HD_T_INT64, HD_OP_SUM);
    if (hd_get_pid() == 0)
        total_bad = sum;
}

/* A reference outside the table: the inspector stops the program. */
static void d_bad(const void *env)
{
    int c = *(const int *)env, P = hd_nprocs();
    long N = (long)mesh_rows[c] * mesh_cols[c];
    int *owner = hd_alloc(N, sizeof *owner);
    make_owner(c, P, owner);
    hd_table_dist *d = hd_table_dist_new(N, owner);
    hd_index refs[2] = { 0, N };
    hd_gather_plan_free(hd_gather_plan_new(d, refs, 2));
}

static const hd_node_fn doalls[NDOALLS] = { d_inspect, d_exec, d_reuse, d_bad };
static const char *mode = "";

static int host_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (strcmp(mode, "bad") == 0) {
        int c = 0;
        hd_doall(D_BAD, &c, sizeof c);
        printf("the bad reference was not caught\n");
        return 1;
    }
    for (int c = 0; c < NCASES; c++) {
        hd_doall(D_INSPECT, &c, sizeof c);
        hd_doall(D_EXEC, &c, sizeof c);
        hd_doall(D_REUSE, &c, sizeof c);
        if (total_bad != 0) {
            printf("case %d (%d x %d, %s): %ld failed checks\n", c, mesh_rows[c], mesh_cols[c],
                   mesh_gray[c] ? "gray" : "block", total_bad);
            return 1;
        }
    }
    if (strncmp(mode, "saf-", 4) != 0)
        printf("table ok\n"); /* the host's alone (under MPI the others print nothing) */
    return 0;
}

/* ---------------------- the sim back end's phases against C */

/* e-cube: the lowest differing bit first. */
static int hop(int at, int to)
{
    int diff = at ^ to;
    return at ^ (diff & -diff);
}

/* Chung and Ranka 1990, Section 2.3: w[at * P + to] words wait at `at`
 * for `to`; in each synchronous step every waiting parcel that may move
 * goes one e-cube hop (bi: all; uni: on the link of dimension k, the end
 * whose bit k is the step's parity if it has anything for the link, else
 * the other), and what arrives leaves in a later step.  Each step costs
 * T_setup + (most words on one directed channel) T_c. */
static double cost_c(int P, const long *ckl, int uni, double t_setup, double t_c)
{
    long *w = calloc((size_t)P * P, sizeof *w), *next = calloc((size_t)P * P, sizeof *next);
    long *chan = calloc((size_t)P * P, sizeof *chan);
    double C = 0;
    memcpy(w, ckl, (size_t)P * P * sizeof *w);
    for (int step = 0;; step++) {
        int pending = 0;
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                pending |= a != b && w[a * P + b] > 0;
        if (!pending)
            break;
        memset(chan, 0, (size_t)P * P * sizeof *chan);
        memset(next, 0, (size_t)P * P * sizeof *next);
        /* Which directed channels have anything to carry. */
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                if (a != b && w[a * P + b] > 0)
                    chan[a * P + hop(a, b)] = -1;
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++) {
                long x = w[a * P + b];
                if (a == b || x == 0)
                    continue;
                int h = hop(a, b), k = a ^ h;
                int moves = !uni || ((a & k) != 0) == (step & 1) || chan[h * P + a] == 0;
                if (moves) {
                    next[h * P + b] += x;
                    chan[a * P + h] = (chan[a * P + h] < 0 ? 0 : chan[a * P + h]) + x;
                } else {
                    next[a * P + b] += x;
                }
            }
        /* A channel marked but not used (its end waited) carried 0. */
        long most = 0;
        for (int i = 0; i < P * P; i++)
            if (chan[i] > most)
                most = chan[i];
        C += t_setup + (double)most * t_c;
        memcpy(w, next, (size_t)P * P * sizeof *w);
        if (step > 64 * P) {
            C = -1; /* no progress: a bug */
            break;
        }
    }
    free(w);
    free(next);
    free(chan);
    return C;
}

/* The report's executor phases (doall D_EXEC), in order, against C. */
static int check_report(const char *path, int P, int uni)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int c = 0, bad = 0;
    if (!f) {
        perror(path);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        sim_phase ph;
        int got = sim_report_line(line, &ph);
        bad |= got < 0;
        if (got <= 0 || ph.doall != D_EXEC)
            continue;
        if (c == NCASES) {
            printf("more executor phases than cases\n");
            bad = 1;
            break;
        }
        int *owner = malloc((size_t)mesh_rows[c] * mesh_cols[c] * sizeof *owner);
        long *ckl = malloc((size_t)P * P * sizeof *ckl), pairs = 0, words = 0;
        make_owner(c, P, owner);
        count_ckl(c, P, owner, ckl);
        for (int i = 0; i < P * P; i++) {
            pairs += ckl[i] > 0;
            words += ckl[i];
        }
        double C = cost_c(P, ckl, uni, 1150, 1.25 * 8);
        if (ph.messages != (unsigned long long)pairs || ph.bytes != 8ULL * (unsigned long long)words ||
            fabs(ph.time_us - C) > 0.006) {
            printf("case %d (%d x %d, %s): %llu messages, %llu bytes, %.2f us; expected %ld, "
                   "%ld, C = %.2f us\n", c, mesh_rows[c], mesh_cols[c],
                   mesh_gray[c] ? "gray" : "block", ph.messages, ph.bytes, ph.time_us, pairs, 8 * words,
                   C);
            bad = 1;
        } else {
            printf("case %d (%d x %d, %s): %llu messages, %llu steps, C = %.2f us\n", c,
                   mesh_rows[c], mesh_cols[c], mesh_gray[c] ? "gray" : "block", ph.messages,
                   ph.cycles, C);
        }
        free(owner);
        free(ckl);
        c++;
    }
    fclose(f);
    if (c != NCASES) {
        printf("%d executor phases in the report, expected %d\n", c, NCASES);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    hd_program_desc prog = { "table_prog.c", 0, to_virtual, to_physical, 0, NULL,
                             NDOALLS, doalls, host_main, NULL };
    int dim = argc > 1 ? atoi(argv[1]) : -1, P, saf = 0;
    if (argc < 2 || dim < 0 || dim > 6 || (argc > 2 && strcmp(argv[2], "map") != 0 &&
                                           strcmp(argv[2], "bad") != 0 &&
                                           (argc != 4 || strncmp(argv[2], "saf-", 4) != 0))) {
        fprintf(stderr, "usage: table_prog DIM [map | bad | saf-bi REPORT | saf-uni REPORT]\n");
        return 2;
    }
    P = 1 << dim;
    prog.dim = dim;
    if (argc > 2)
        mode = argv[2];
    for (int p = 0; p < P; p++) {
        to_virtual[p] = strcmp(mode, "map") == 0 ? (5 * p + 3) % P : p;
        to_physical[to_virtual[p]] = p;
    }
    if (strncmp(mode, "saf-", 4) == 0) {
        /* Chung and Ranka 1990's machine: T_setup 1150 us, T_c 10 us per
         * word, one double a word. */
        saf = 1;
        setenv("HYPERDO_SIM_MODEL", mode, 1);
        setenv("HYPERDO_SIM_BETA", "1150", 1);
        setenv("HYPERDO_SIM_TAU", "1.25", 1);
        setenv("HYPERDO_SIM_WORD", "8", 1);
        setenv("HYPERDO_SIM_REPORT", argv[3], 1);
    }
    int status = hd_run(&prog, argc, argv);
    if (status != 0)
        return status;
    if (saf) {
        if (check_report(argv[3], P, strcmp(mode, "saf-uni") == 0))
            return 1;
        printf("table ok\n");
    }
    return 0;
}
