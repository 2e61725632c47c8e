/*
 * tabarray_prog.c — arrays distributed by a table in the array layer
 * (hd_run_tables, hd_local_count) and request sets kept across executions
 * of a doall (hd_requests_keep, hd_requests_scratch), in a hand-written
 * SPMD program on hyperdo.h.
 *
 * Three arrays: A, 505 doubles whose owners are drawn from a fixed seed,
 * none on virtual processor P/2; B, 7 elements of 24 bytes on 1 + 3e mod
 * (P - 1), none on virtual 0 (the host, with the identity mapping); C, a
 * bit field (2^(n+2) doubles, shift 1) beside them.  A and B's table
 * entries give log2_size 0 and shift 5, which must be ignored.  Five
 * rounds; in each:
 *   - the host scatters its copies (values of the round), a doall checks
 *     hd_owner_in, hd_offset_in, hd_element_in and hd_local_count against
 *     a brute-force reading of the tables and every element of the
 *     slices, then writes new values, which the host gathers and checks
 *     element by element;
 *   - a doall asks other processors for elements (two kept sets: A and C
 *     under key 0, B under key 1) and checks every value against the
 *     round's: rounds 0 and 3 inspect (same = 0; in round 0 key 1 is
 *     asked with same = 1, when nothing is kept yet), rounds 1, 2 and 4
 *     rerun (same = 1) with the tickets kept in hd_requests_scratch; round
 *     3 asks a different set.  Values change every round, so an answer
 *     that is not sent again would be caught.
 * After the run, HYPERDO_STATS: the rerun doall must have sent, over its
 * three runs, exactly one message per (set, owner, asker) with a nonzero
 * count and the distinct elements' bytes, counted here from the request
 * generator.  With the sim back end (saf-bi), each rerun's phase must
 * also cost what runtime/sim/saf.c's hd_saf_run gives for those words.
 *
 *     tabarray_prog DIM MODE OUT
 *
 * MODE: plain, map (virtual (5p + 3) mod 2^DIM on physical p), saf-bi
 * (sim back end only), bad-owner, remap, bad-request (each must stop the
 * program with a message); OUT: a prefix for the stats file and report.
 * Prints "tabarray ok" and exits 0, or the differences and exits 1.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* setenv */
#endif
#include "hyperdo.h"
#include "hyperdo/coll.h"
#include "sim_report.h"
#ifdef TABARRAY_SIM
#include "sim.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXP = 64, NA = 505, NB = 7, NROUNDS = 5, NSETS = 2 };
enum { ARR_A, ARR_B, ARR_C, NARRAYS };
enum { D_LAYOUT, D_FIRST, D_RERUN, D_SUM, D_BAD_REQUEST, NDOALLS };

typedef struct {
    double x, y, z;
} triple;

static int to_virtual[MAXP], to_physical[MAXP];
static int owner_a[NA], owner_b[NB];
static int P, dim;
static const char *mode = "plain";

/* The round each request doall runs in, its pattern, and whether it
 * reruns (same = 1). */
static const int round_pattern[NROUNDS] = { 0, 0, 0, 1, 1 };
static const int round_rerun[NROUNDS] = { 0, 1, 1, 0, 1 };

static hd_index size_c(void)
{
    return (hd_index)1 << (dim + 2);
}

static int owner_c(hd_index e)
{
    return hd_owner(e, 1, dim);
}

static int owner_of(int array, hd_index e)
{
    return array == ARR_A ? owner_a[e] : array == ARR_B ? owner_b[e] : owner_c(e);
}

static size_t elem_size(int array)
{
    return array == ARR_B ? sizeof(triple) : sizeof(double);
}

static hd_index size_of(int array)
{
    return array == ARR_A ? NA : array == ARR_B ? NB : size_c();
}

/* The host's values of round r (scattered), and those the processors
 * write in their place (gathered, then asked for). */
static double value_ad(int array, hd_index e, int r)
{
    return array == ARR_A ? (double)e * 0.5 + 1000.0 * r + 0.25 : 7.0 * e + 1000.0 * r;
}
static triple value_b(hd_index e, int r)
{
    return (triple){ (double)e + 100.0 * r, -(double)e, (double)r };
}
static double written_ad(int array, hd_index e, int r)
{
    return -value_ad(array, e, r) - 3.0;
}
static triple written_b(hd_index e, int r)
{
    triple t = value_b(e, r);
    return (triple){ t.z + 1.0, t.x * 2.0, t.y - 5.0 };
}

static void make_tables(void)
{
    unsigned long long s = 12345;
    for (int e = 0; e < NA; e++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int o = (int)((s >> 33) % (unsigned)P);
        if (P > 1 && o == P / 2)
            o = (o + 1) % P;   /* virtual P/2 owns no element of A */
        owner_a[e] = o;
    }
    for (int e = 0; e < NB; e++)
        owner_b[e] = P > 1 ? 1 + (3 * e) % (P - 1) : 0;   /* virtual 0 owns none */
}

/* One reference of a request set: an element of an array. */
typedef struct {
    int array;
    hd_index e;
} ref;

/* The references virtual processor v asks for in set `set` under pattern
 * k (others' elements only), in the order it asks, repeats included:
 * their count; refs may be NULL to count. */
static size_t make_refs(int set, int k, int v, ref *refs)
{
    size_t n = 0;
#define ADD(arr, el)                                                     \
    do {                                                                 \
        if (owner_of(arr, el) != v) {                                    \
            if (refs)                                                    \
                refs[n] = (ref){ arr, el };                              \
            n++;                                                         \
        }                                                                \
    } while (0)
    if (set == 0) {
        /* A and C interleaved, and some of A asked again at the end. */
        for (hd_index e = 0; e < NA; e++) {
            if ((e * 7 + v * 13 + k * 5) % 6 == 0)
                ADD(ARR_A, e);
            if (e < size_c() && (e + v + k) % 3 != 0)
                ADD(ARR_C, e);
        }
        for (hd_index e = 0; e < NA; e += 12)
            if ((e * 7 + v * 13 + k * 5) % 6 == 0)
                ADD(ARR_A, e);
    } else {
        for (hd_index e = NB - 1; e >= 0; e--)
            if (k == 1 || e % 2 == 1)
                ADD(ARR_B, e);
        if (k == 0)
            ADD(ARR_B, (hd_index)1);   /* a repeat */
    }
#undef ADD
    return n;
}

/* The bytes that owner o sends asker v in one run of set `set` under
 * pattern k: each distinct element once. */
static size_t pair_bytes(int set, int k, int o, int v)
{
    size_t n = make_refs(set, k, v, NULL), bytes = 0;
    ref *refs = malloc((n ? n : 1) * sizeof *refs);
    make_refs(set, k, v, refs);
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = refs[j].array == refs[i].array && refs[j].e == refs[i].e;
        if (!seen && owner_of(refs[i].array, refs[i].e) == o)
            bytes += elem_size(refs[i].array);
    }
    free(refs);
    return bytes;
}

/* ---------------------------------------------------- node code */

typedef struct {
    int round;
    int pattern;
    int same;
} req_env;

typedef struct {
    long bad;
    hd_index *tickets[NSETS];     /* a private copy of what the scratch holds */
    void *scratch[NSETS];
    size_t nrefs[NSETS];
} proc_state;

static proc_state st[MAXP];
static long total_bad = -1;
static int i_am_host;

#define CHECK(s, cond, ...)                                                  \
    do {                                                                     \
        if (!(cond) && (s)->bad++ < 10) {                                    \
            char msg_[256];                                                  \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                        \
            printf("processor %d: %s\n", v_get_pid(), msg_);                 \
        }                                                                    \
    } while (0)

/* Placement against the tables, the slices against the round's values,
 * then the slices rewritten. */
static void d_layout(const void *env)
{
    int r = *(const int *)env, me = v_get_pid();
    proc_state *s = &st[me];
    for (int array = 0; array < NARRAYS; array++) {
        hd_index N = size_of(array), count = 0;
        hd_index *rank = calloc((size_t)P, sizeof *rank);
        for (hd_index e = 0; e < N; e++) {
            int o = owner_of(array, e);
            hd_index at = array == ARR_C ? hd_local_offset(e, 1, dim) : rank[o];
            rank[o]++;
            CHECK(s, hd_owner_in(array, e) == o, "array %d: owner of %lld is %d, not %d", array,
                  (long long)e, hd_owner_in(array, e), o);
            CHECK(s, hd_offset_in(array, e) == at, "array %d: offset of %lld is %lld, not %lld",
                  array, (long long)e, (long long)hd_offset_in(array, e), (long long)at);
            CHECK(s, hd_element_in(array, o, at) == e, "array %d: element at (%d, %lld) is %lld, "
                  "not %lld", array, o, (long long)at, (long long)hd_element_in(array, o, at),
                  (long long)e);
            if (o == me)
                count++;
        }
        CHECK(s, hd_local_count(array) == count, "array %d: hd_local_count %lld, %lld owned",
              array, (long long)hd_local_count(array), (long long)count);
        CHECK(s, count == rank[me], "array %d: count", array);
        free(rank);
        /* The slice: every element of the round, then the written ones. */
        void *slice = hd_local(array);
        CHECK(s, slice != NULL, "array %d: no slice", array);
        for (hd_index o = 0; o < count; o++) {
            hd_index e = hd_element_in(array, me, o);
            if (array == ARR_B) {
                triple *t = (triple *)slice + o, want = value_b(e, r);
                CHECK(s, t->x == want.x && t->y == want.y && t->z == want.z,
                      "B[%lld] at offset %lld: (%g %g %g), round %d's is (%g %g %g)",
                      (long long)e, (long long)o, t->x, t->y, t->z, r, want.x, want.y, want.z);
                *t = written_b(e, r);
            } else {
                double *d = (double *)slice + o;
                CHECK(s, *d == value_ad(array, e, r), "array %d[%lld] at offset %lld: %g, "
                      "round %d's is %g", array, (long long)e, (long long)o, *d, r,
                      value_ad(array, e, r));
                *d = written_ad(array, e, r);
            }
        }
    }
}

static int same_value(int array, hd_index e, int r, const void *got)
{
    if (array == ARR_B) {
        triple t, want = written_b(e, r);
        memcpy(&t, got, sizeof t);
        return t.x == want.x && t.y == want.y && t.z == want.z;
    }
    double d;
    memcpy(&d, got, sizeof d);
    return d == written_ad(array, e, r);
}

/* A doall whose iterations read others' elements through requests: it
 * inspects when its sets are new (or changed), runs them again when kept. */
static void d_requests(const void *env)
{
    const req_env *x = env;
    int me = v_get_pid();
    proc_state *s = &st[me];
    for (int set = 0; set < NSETS; set++) {
        hd_requests *q = NULL;
        /* Round 0 asks key 1 with same = 1: nothing is kept yet. */
        int same = x->same || (x->round == 0 && set == 1);
        int kept = hd_requests_keep(set, same, &q);
        CHECK(s, kept == x->same, "round %d set %d: hd_requests_keep gave %d", x->round, set,
              kept);
        size_t n = make_refs(set, x->pattern, me, NULL);
        ref *refs = hd_alloc((hd_index)(n ? n : 1), sizeof *refs);
        make_refs(set, x->pattern, me, refs);
        hd_index *tickets = hd_requests_scratch(q, n * sizeof *tickets);
        if (!kept) {
            for (size_t i = 0; i < n; i++)
                tickets[i] = hd_request(q, refs[i].array, owner_of(refs[i].array, refs[i].e),
                                        refs[i].e);
            free(s->tickets[set]);
            s->tickets[set] = hd_alloc((hd_index)(n ? n : 1), sizeof *tickets);
            memcpy(s->tickets[set], tickets, n * sizeof *tickets);
            s->scratch[set] = tickets;
            s->nrefs[set] = n;
        } else {
            CHECK(s, tickets == s->scratch[set] && n == s->nrefs[set] &&
                         memcmp(tickets, s->tickets[set], n * sizeof *tickets) == 0,
                  "round %d set %d: the scratch moved or changed", x->round, set);
        }
        hd_requests_run(q);
        const void *const *values = hd_requests_values(q);
        for (size_t i = 0; i < n; i++)
            CHECK(s, same_value(refs[i].array, refs[i].e, x->round, values[tickets[i]]),
                  "round %d set %d: array %d element %lld has a value not of this round",
                  x->round, set, refs[i].array, (long long)refs[i].e);
        free(refs);
    }
}

static void d_sum(const void *env)
{
    proc_state *s = &st[v_get_pid()];
    long bad = s->bad, sum = bad;
    (void)env;
    for (int set = 0; set < NSETS; set++) {
        free(s->tickets[set]);
        s->tickets[set] = NULL;
    }
    if (hd_nprocs() > 1)
        hd_coll_allreduce(&bad, &sum, 1, HD_T_INT64, HD_OP_SUM);
    if (hd_get_pid() == 0)
        total_bad = sum;
}

/* bad-request: an element beyond B's 7. */
static void d_bad_request(const void *env)
{
    hd_requests *q;
    (void)env;
    hd_requests_keep(0, 0, &q);
    hd_request(q, ARR_B, owner_b[NB - 1] == v_get_pid() ? 0 : owner_b[NB - 1], NB);
}

static const hd_node_fn doalls[NDOALLS] = { d_layout, d_requests, d_requests, d_sum,
                                            d_bad_request };

/* ---------------------------------------------------- the host */

static int check_gathered(int r, const double *a, const triple *b, const double *c)
{
    int bad = 0;
    for (hd_index e = 0; e < NA; e++)
        if (a[e] != written_ad(ARR_A, e, r) && bad++ < 10)
            printf("round %d: gathered A[%lld] = %g, not %g\n", r, (long long)e, a[e],
                   written_ad(ARR_A, e, r));
    for (hd_index e = 0; e < NB; e++) {
        triple w = written_b(e, r);
        if ((b[e].x != w.x || b[e].y != w.y || b[e].z != w.z) && bad++ < 10)
            printf("round %d: gathered B[%lld] differs\n", r, (long long)e);
    }
    for (hd_index e = 0; e < size_c(); e++)
        if (c[e] != written_ad(ARR_C, e, r) && bad++ < 10)
            printf("round %d: gathered C[%lld] = %g, not %g\n", r, (long long)e, c[e],
                   written_ad(ARR_C, e, r));
    return bad;
}

static int host_main(int argc, char **argv)
{
    static double a[NA];
    static triple b[NB];
    double *c = calloc((size_t)size_c(), sizeof *c);
    (void)argc;
    (void)argv;
    i_am_host = 1;
    if (strcmp(mode, "remap") == 0) {
        hd_relayout(ARR_A, NULL);
        printf("the remap of a table array was not refused\n");
        return 1;
    }
    if (strcmp(mode, "bad-request") == 0) {
        hd_doall(D_BAD_REQUEST, NULL, 0);
        printf("the bad request was not caught\n");
        return 1;
    }
    for (int r = 0; r < NROUNDS; r++) {
        for (hd_index e = 0; e < NA; e++)
            a[e] = value_ad(ARR_A, e, r);
        for (hd_index e = 0; e < NB; e++)
            b[e] = value_b(e, r);
        for (hd_index e = 0; e < size_c(); e++)
            c[e] = value_ad(ARR_C, e, r);
        hd_scatter(ARR_A, a);
        hd_scatter(ARR_B, b);
        hd_scatter(ARR_C, c);
        hd_doall(D_LAYOUT, &r, sizeof r);
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        memset(c, 0, (size_t)size_c() * sizeof *c);
        hd_gather(ARR_A, a);
        hd_gather(ARR_B, b);
        hd_gather(ARR_C, c);
        if (check_gathered(r, a, b, c)) {
            free(c);
            return 1;
        }
        req_env x = { r, round_pattern[r], round_rerun[r] };
        hd_doall(round_rerun[r] ? D_RERUN : D_FIRST, &x, sizeof x);
    }
    hd_doall(D_SUM, NULL, 0);
    free(c);
    if (total_bad != 0) {
        printf("%ld failed checks\n", total_bad);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------ after the run */

/* What the rerun doall must have sent over its runs: messages (one per
 * set and ordered pair with a nonzero count) and bytes. */
static void rerun_expected(int r, unsigned long long *messages, unsigned long long *bytes)
{
    *messages = *bytes = 0;
    for (int set = 0; set < NSETS; set++)
        for (int o = 0; o < P; o++)
            for (int v = 0; v < P; v++) {
                size_t b = o == v ? 0 : pair_bytes(set, round_pattern[r], o, v);
                *messages += b > 0;
                *bytes += b;
            }
}

static int check_stats(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int found = 0, bad = 0;
    unsigned long long want_m = 0, want_b = 0, runs_want = 0;
    for (int r = 0; r < NROUNDS; r++)
        if (round_rerun[r]) {
            unsigned long long m, b;
            rerun_expected(r, &m, &b);
            want_m += m;
            want_b += b;
            runs_want++;
        }
    if (!f) {
        perror(path);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        int d;
        unsigned long long runs, m, b;
        if (line[0] == '#' || sscanf(line, "%d %llu %llu %llu", &d, &runs, &m, &b) != 4 ||
            d != D_RERUN)
            continue;
        found = 1;
        if (runs != runs_want || m != want_m || b != want_b) {
            printf("stats: the reruns sent %llu messages, %llu bytes in %llu runs; expected "
                   "%llu, %llu in %llu\n", m, b, runs, want_m, want_b, runs_want);
            bad = 1;
        } else {
            printf("stats: %llu reruns, %llu messages, %llu bytes, as counted\n", runs, m, b);
        }
    }
    fclose(f);
    if (!found) {
        printf("stats: no line for the rerun doall in %s\n", path);
        bad = 1;
    }
    return bad;
}

#ifdef TABARRAY_SIM
/* Each rerun's phase in the sim report against hd_saf_run on the words
 * counted here (8-byte words, T_setup 1150 us, T_c 10 us a word). */
static int check_report(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int k = 0, bad = 0;
    int reruns[NROUNDS], nreruns = 0;
    for (int r = 0; r < NROUNDS; r++)
        if (round_rerun[r])
            reruns[nreruns++] = r;
    if (!f) {
        perror(path);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        sim_phase ph;
        int got = sim_report_line(line, &ph);
        bad |= got < 0;
        if (got <= 0 || ph.doall != D_RERUN)
            continue;
        if (k == nreruns) {
            printf("more rerun phases than reruns\n");
            bad = 1;
            break;
        }
        int r = reruns[k++];
        hd_saf_parcel *parcels = malloc((size_t)P * P * sizeof *parcels);
        size_t np = 0;
        unsigned long long want_m, want_b;
        rerun_expected(r, &want_m, &want_b);
        for (int o = 0; o < P; o++)
            for (int v = 0; v < P; v++) {
                size_t b = 0;
                for (int set = 0; set < NSETS && o != v; set++)
                    b += pair_bytes(set, round_pattern[r], o, v);
                if (b)
                    parcels[np++] = (hd_saf_parcel){ (uint32_t)to_physical[o],
                                                     (uint32_t)to_physical[v],
                                                     (long long)(b / 8) };
            }
        int steps = 0;
        long long *most = NULL;
        double C = 0;
        if (hd_saf_run(parcels, np, HD_SAF_BI, &steps, &most) != HD_SIM_OK) {
            printf("hd_saf_run failed\n");
            bad = 1;
        }
        for (int t = 0; t < steps; t++)
            C += 1150 + (double)most[t] * 10;
        if (ph.messages != want_m || ph.bytes != want_b || fabs(ph.time_us - C) > 0.006) {
            printf("round %d: %llu messages, %llu bytes, %.2f us; expected %llu, %llu, "
                   "hd_saf_run %.2f us\n", r, ph.messages, ph.bytes, ph.time_us, want_m, want_b, C);
            bad = 1;
        } else {
            printf("round %d: %llu messages, %llu bytes, %d steps, %.2f us as hd_saf_run\n", r,
                   ph.messages, ph.bytes, steps, C);
        }
        free(most);
        free(parcels);
    }
    fclose(f);
    if (k != nreruns) {
        printf("%d rerun phases in the report, expected %d\n", k, nreruns);
        bad = 1;
    }
    return bad;
}
#endif

int main(int argc, char **argv)
{
    static const char *modes[] = { "plain", "map", "saf-bi", "bad-owner", "remap",
                                   "bad-request" };
    int ok_mode = 0;
    if (argc == 4)
        for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
            ok_mode |= strcmp(argv[2], modes[i]) == 0;
    dim = argc > 1 ? atoi(argv[1]) : -1;
    if (argc != 4 || dim < 0 || dim > 6 || !ok_mode) {
        fprintf(stderr, "usage: tabarray_prog DIM plain|map|saf-bi|bad-owner|remap|bad-request "
                        "OUT\n");
        return 2;
    }
    mode = argv[2];
    P = 1 << dim;
    for (int p = 0; p < P; p++) {
        to_virtual[p] = strcmp(mode, "map") == 0 ? (5 * p + 3) % P : p;
        to_physical[to_virtual[p]] = p;
    }
    make_tables();
    if (strcmp(mode, "bad-owner") == 0)
        owner_b[3] = P;
    /* A and B's log2_size and shift would be refused for a bit field:
     * under a table they are not read. */
    hd_array_desc arrays[NARRAYS] = {
        { "A", sizeof(double), 0, 5, HD_ARRAY_HOST_STATIC },
        { "B", sizeof(triple), 0, 5, HD_ARRAY_HOST_STATIC },
        { "C", sizeof(double), dim + 2, 1, HD_ARRAY_HOST_STATIC },
    };
    hd_table_desc ta = { NA, owner_a, 0 }, tb = { NB, owner_b, 0 };
    const hd_table_desc *tables[NARRAYS] = { &ta, &tb, NULL };
    hd_program_desc prog = { "tabarray_prog.c", dim, to_virtual, to_physical, NARRAYS, arrays,
                             NDOALLS, doalls, host_main, NULL };
    char stats[1024], report[1024];
    snprintf(stats, sizeof stats, "%s.stats", argv[3]);
    snprintf(report, sizeof report, "%s.report", argv[3]);
    setenv("HYPERDO_STATS", stats, 1);
    if (strcmp(mode, "saf-bi") == 0) {
        setenv("HYPERDO_SIM_MODEL", "saf-bi", 1);
        setenv("HYPERDO_SIM_BETA", "1150", 1);
        setenv("HYPERDO_SIM_TAU", "1.25", 1);
        setenv("HYPERDO_SIM_WORD", "8", 1);
        setenv("HYPERDO_SIM_REPORT", report, 1);
    }
    int status = hd_run_tables(&prog, NULL, tables, argc, argv);
    if (status != 0 || !i_am_host)
        return status;   /* under MPI only the host's rank checks */
    if (check_stats(stats))
        return 1;
#ifdef TABARRAY_SIM
    if (strcmp(mode, "saf-bi") == 0 && check_report(report))
        return 1;
#else
    if (strcmp(mode, "saf-bi") == 0) {
        printf("saf-bi needs the sim back end\n");
        return 1;
    }
#endif
    printf("tabarray ok\n");
    return 0;
}
