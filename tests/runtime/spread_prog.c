/*
 * spread_prog.c — spreads (hd_table_desc without owners: HPF's BLOCK and
 * CYCLIC, ScaLAPACK's block-cyclic of any extent), extents bound at run
 * time (hd_bind) and the overlap check of pointer arrays
 * (hd_check_disjoint), in a hand-written SPMD program on hyperdo.h.
 *
 * Arrays: S0, 100 doubles under block (ceil(100 / P) each, the last
 * processors fewer or none); S1, 77 under cyclic; S2, 50 under
 * block_cyclic(3); R, doubles under block whose extent the host binds at
 * run time to 0, 1, 5, P - 1, 3P + 1, 1000, 1000 again and 17; Q, the
 * same under cyclic, bound with R.  For each (static arrays once, R and Q
 * at each extent):
 *   - the host scatters a copy of the round's values; a doall checks
 *     hd_owner_in, hd_offset_in, hd_element_in, hd_local_count,
 *     hd_local_below and hd_size_in against HPF's definitions computed here by brute force
 *     (owner (e / b) mod P, b = ceil(N/P), 1 or B; offset the element's
 *     rank among its owner's), and every element of its slice against
 *     the round's values, then rewrites them; the host gathers and checks
 *     every element;
 *   - a doall asks, by hd_request, for every element of R it does not
 *     hold at a stride, and checks the answers.
 * hd_check_disjoint: arrays apart, touching and of zero length pass.
 *
 *     spread_prog DIM MODE
 *
 * MODE: plain; overlap (R's copy overlaps Q's: the check must stop the
 * program); negative (hd_bind to -3 must stop it).  Prints "spread ok"
 * and exits 0, or the differences and exits 1.
 */
#include "hyperdo.h"
#include "hyperdo/coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXP = 64, N0 = 100, N1 = 77, N2 = 50, B2 = 3 };
enum { ARR_S0, ARR_S1, ARR_S2, ARR_R, ARR_Q, NARRAYS };
enum { D_CHECK, D_ASK, D_SUM, NDOALLS };

static int to_virtual[MAXP], to_physical[MAXP];
static int P, dim;
static const char *mode = "plain";
static hd_index extent_r;   /* R's and Q's, as the host last bound them */

/* The array's distribution: its extent and its block b. */
static hd_index size_of(int array)
{
    switch (array) {
    case ARR_S0: return N0;
    case ARR_S1: return N1;
    case ARR_S2: return N2;
    default: return extent_r;
    }
}

static hd_index block_of(int array)
{
    hd_index N = size_of(array);
    if (array == ARR_S1 || array == ARR_Q)
        return 1;
    if (array == ARR_S2)
        return B2;
    hd_index b = (N + P - 1) / P;   /* HPF's BLOCK: ceil(N/P), at least 1 */
    return b > 0 ? b : 1;
}

static int owner_of(int array, hd_index e)
{
    return (int)((e / block_of(array)) % P);
}

static double value(int array, hd_index e, int r)
{
    return 1000.0 * array + 0.5 * (double)e + 100000.0 * r;
}

static double written(int array, hd_index e, int r)
{
    return -value(array, e, r) - 7.0;
}

static long bad[MAXP];
static long total_bad, host_bad;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond) && bad[v_get_pid()]++ < 10) {                            \
            char msg_[256];                                                  \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                        \
            printf("processor %d: %s\n", v_get_pid(), msg_);                 \
        }                                                                    \
    } while (0)

/* Placement against HPF's definitions, the slice against the round's
 * values, then the slice rewritten. */
static void check_array(int array, int r)
{
    int me = v_get_pid();
    hd_index N = size_of(array), count = 0;
    hd_index *rank = calloc((size_t)P, sizeof *rank);
    CHECK(hd_size_in(array) == N, "array %d: hd_size_in %lld, not %lld", array,
          (long long)hd_size_in(array), (long long)N);
    for (hd_index e = 0; e < N; e++) {
        int o = owner_of(array, e);
        hd_index at = rank[o]++;
        CHECK(hd_owner_in(array, e) == o, "array %d: owner of %lld is %d, not %d", array,
              (long long)e, hd_owner_in(array, e), o);
        CHECK(hd_offset_in(array, e) == at, "array %d: offset of %lld is %lld, not %lld", array,
              (long long)e, (long long)hd_offset_in(array, e), (long long)at);
        CHECK(hd_element_in(array, o, at) == e, "array %d: element at (%d, %lld) is %lld, not "
              "%lld", array, o, (long long)at, (long long)hd_element_in(array, o, at),
              (long long)e);
        count += o == me;
    }
    CHECK(hd_local_count(array) == count, "array %d (N %lld): hd_local_count %lld, %lld owned",
          array, (long long)N, (long long)hd_local_count(array), (long long)count);
    /* hd_local_below: my elements below e, for every e and one past. */
    for (hd_index e = 0, below = 0; e <= N + 1; e++) {
        CHECK(hd_local_below(array, e) == below, "array %d: hd_local_below(%lld) is %lld, "
              "not %lld", array, (long long)e, (long long)hd_local_below(array, e),
              (long long)below);
        below += e < N && owner_of(array, e) == me;
    }
    free(rank);
    double *slice = hd_local(array);
    for (hd_index o = 0; o < count; o++) {
        hd_index e = hd_element_in(array, me, o);
        CHECK(slice[o] == value(array, e, r), "array %d[%lld] at offset %lld: %g, round %d's "
              "is %g", array, (long long)e, (long long)o, slice[o], r, value(array, e, r));
        slice[o] = written(array, e, r);
    }
}

static void d_check(const void *env)
{
    const int *which = env;
    check_array(which[0], which[1]);
}

/* Every element of R at a stride, asked of its owner unless it is mine;
 * the answers are the written values of round r. */
static void d_ask(const void *env)
{
    int r = *(const int *)env, me = v_get_pid();
    hd_requests *q = hd_requests_new();
    hd_index N = size_of(ARR_R), n = 0;
    hd_index *tick = hd_alloc(N, sizeof *tick);
    for (hd_index e = me % 3; e < N; e += 3)
        tick[n++] = owner_of(ARR_R, e) == me ? -1 : hd_request(q, ARR_R, owner_of(ARR_R, e), e);
    hd_requests_run(q);
    const void *const *got = hd_requests_values(q);
    const double *mine = hd_local(ARR_R);
    n = 0;
    for (hd_index e = me % 3; e < N; e += 3, n++) {
        double d;
        if (tick[n] < 0)
            d = mine[hd_offset_in(ARR_R, e)];
        else
            memcpy(&d, got[tick[n]], sizeof d);
        CHECK(d == written(ARR_R, e, r), "R[%lld] asked: %g, not %g", (long long)e, d,
              written(ARR_R, e, r));
    }
    free(tick);
    hd_requests_free(q);
}

/* Every processor's count of differences, summed on the host (under MPI
 * each rank counts its own). */

static void d_sum(const void *env)
{
    (void)env;
    int64_t mine = bad[v_get_pid()], all = 0;
    hd_coll_allreduce(&mine, &all, 1, HD_T_INT64, HD_OP_SUM);
    if (hd_get_pid() == 0)
        total_bad = (long)all;
}

static const hd_node_fn doalls[NDOALLS] = { d_check, d_ask, d_sum };

/* Scatter the round's values, check and rewrite on the processors,
 * gather and check here. */
static void round_trip(int array, double *host, int r)
{
    hd_index N = size_of(array);
    for (hd_index e = 0; e < N; e++)
        host[e] = value(array, e, r);
    hd_scatter(array, host);
    int which[2] = { array, r };
    hd_doall(D_CHECK, which, sizeof which);
    memset(host, 0, (size_t)N * sizeof *host);
    hd_gather(array, host);
    for (hd_index e = 0; e < N; e++)
        if (host[e] != written(array, e, r) && host_bad++ < 10)
            printf("host: array %d[%lld] gathered %g, not %g\n", array, (long long)e, host[e],
                   written(array, e, r));
}

static int host_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    static double s0[N0], s1[N1], s2[N2];
    round_trip(ARR_S0, s0, 0);
    round_trip(ARR_S1, s1, 0);
    round_trip(ARR_S2, s2, 0);
    if (strcmp(mode, "negative") == 0)
        hd_bind(ARR_R, -3, "spread_prog.c:1:1: 'R'");
    const hd_index extents[] = { 0, 1, 5, P - 1, 3 * P + 1, 1000, 1000, 17 };
    for (size_t k = 0; k < sizeof extents / sizeof *extents; k++) {
        extent_r = extents[k];
        double *r = malloc((size_t)(extent_r ? extent_r : 1) * sizeof *r);
        double *q = malloc((size_t)(extent_r ? extent_r : 1) * sizeof *q);
        hd_bind(ARR_R, extent_r, "spread_prog.c: 'R'");
        hd_bind(ARR_Q, extent_r, "spread_prog.c: 'Q'");
        hd_check_disjoint(ARR_R, r, ARR_Q, q, "spread_prog.c: apart");
        hd_check_disjoint(ARR_R, r, ARR_R, r + extent_r, "spread_prog.c: touching");
        hd_check_disjoint(ARR_R, r, ARR_S0, s0, "spread_prog.c: apart from a static one");
        round_trip(ARR_R, r, (int)k);
        round_trip(ARR_Q, q, (int)k);
        int rk = (int)k;
        hd_doall(D_ASK, &rk, sizeof rk);
        free(r);
        free(q);
    }
    if (strcmp(mode, "overlap") == 0) {
        double *both = calloc(40, sizeof *both);
        extent_r = 20;
        hd_bind(ARR_R, 20, "spread_prog.c: 'R'");
        hd_bind(ARR_Q, 20, "spread_prog.c: 'Q'");
        hd_check_disjoint(ARR_R, both + 20, ARR_Q, both + 1, "spread_prog.c:9:9");
        free(both);
    }
    hd_doall(D_SUM, NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    dim = argc == 3 ? atoi(argv[1]) : -1;
    if (argc != 3 || dim < 0 || dim > 6 ||
        (strcmp(argv[2], "plain") && strcmp(argv[2], "overlap") && strcmp(argv[2], "negative"))) {
        fprintf(stderr, "usage: spread_prog DIM plain|overlap|negative\n");
        return 2;
    }
    mode = argv[2];
    P = 1 << dim;
    for (int p = 0; p < P; p++)
        to_virtual[p] = to_physical[p] = (3 * p + 1) % P;   /* not the identity */
    for (int p = 0; p < P; p++)
        to_physical[to_virtual[p]] = p;
    /* Their log2_size and shift are not read: a spread has neither. */
    hd_array_desc arrays[NARRAYS] = {
        { "S0", sizeof(double), 0, 0, HD_ARRAY_HOST_STATIC },
        { "S1", sizeof(double), 0, 0, HD_ARRAY_HOST_STATIC },
        { "S2", sizeof(double), 0, 0, HD_ARRAY_HOST_STATIC },
        { "R", sizeof(double), 0, 0, 0 },
        { "Q", sizeof(double), 0, 0, 0 },
    };
    hd_table_desc t0 = { N0, NULL, 0 }, t1 = { N1, NULL, 1 }, t2 = { N2, NULL, B2 },
                  tr = { 0, NULL, 0 }, tq = { 0, NULL, 1 };
    const hd_table_desc *tables[NARRAYS] = { &t0, &t1, &t2, &tr, &tq };
    hd_program_desc prog = { "spread_prog.c", dim, to_virtual, to_physical, NARRAYS, arrays,
                             NDOALLS, doalls, host_main, NULL };
    int status = hd_run_tables(&prog, NULL, tables, argc, argv);
    if (status != 0)
        return status;
    if (total_bad + host_bad) {
        printf("%ld differences\n", total_bad + host_bad);
        return 1;
    }
    printf("spread ok\n");
    return 0;
}
