/*
 * sim_prog.c — hand-checkable phase times of the simulation back end
 * (libhyperdo-sim.a, runtime/src/transport_sim.c).  Each scenario is a
 * hand-written SPMD program on hyperdo.h with the identity mapping; the
 * back end's report goes to a file (HYPERDO_SIM_REPORT), which this
 * program reads once hd_run has returned and compares, phase by phase,
 * with times worked out by hand from the documented model
 * (docs/simulator.md, "The program mode"):
 *
 *   one message of B bytes alone, D hops:  beta + B tau + (D + 1) tau
 *   a sender's k-th message of a phase is ready at k beta
 *   flits = max(1, ceil(B / flit)), one cycle = flit tau
 *
 * and the passes each phase's messages need through Wu 1984's omega
 * network and butterfly, sent directly (the report's last two columns),
 * against the test's own first-fit over the networks' closed forms.
 *
 * and (saf-bi, saf-uni) Chung and Ranka 1990's Fig. 3 on the synchronous
 * store-and-forward 2-cube (HYPERDO_SIM_MODEL=saf-bi|saf-uni).
 *
 *     sim_prog SCENARIO REPORT-FILE
 *
 * Prints "SCENARIO ok" and exits 0, or the differences and exits 1.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* setenv */
#endif
#include "hyperdo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { A_X, NARRAYS };

static int to_virtual[8], to_physical[8];
static hd_array_desc arrays[NARRAYS] = {{"x", sizeof(double), 3, 0, 0}};
static const char *scenario;

/* doall 0: processor 0 sends 100 bytes to its neighbour 1 (D = 1). */
static void d_neighbour(const void *env)
{
    unsigned char buf[1000] = {0}; /* each processor its own */
    (void)env;
    if (hd_get_pid() == 0)
        v_send(1, buf, 100);
    if (hd_get_pid() == 1)
        v_receive(0, buf, 100);
}

/* doall 1: processor 0 sends 1000 bytes to 7 (D = 3). */
static void d_far(const void *env)
{
    unsigned char buf[1000] = {0}; /* each processor its own */
    (void)env;
    if (hd_get_pid() == 0)
        v_send(7, buf, 1000);
    if (hd_get_pid() == 7)
        v_receive(0, buf, 1000);
}

/* doall 2: processor 2 sends two messages of 10 bytes to 3 (D = 1): the
 * second is ready at 2 beta. */
static void d_two(const void *env)
{
    unsigned char buf[1000] = {0}; /* each processor its own */
    (void)env;
    if (hd_get_pid() == 2) {
        v_send(3, buf, 10);
        v_send(3, buf, 10);
    }
    if (hd_get_pid() == 3) {
        v_receive(2, buf, 10);
        v_receive(2, buf, 10);
    }
}

/* doall 3: docs/simulator.md's first hand-worked case, 2-flit messages
 * 0 -> 3 and 1 -> 3 sharing the channel (1, d1): delivered at cycles 7
 * and 4, so the phase takes beta + 7 cycles (both ready at beta). */
static void d_contend(const void *env)
{
    unsigned char buf[1000] = {0}; /* each processor its own */
    (void)env;
    int p = hd_get_pid();
    if (p == 0 || p == 1)
        v_send(3, buf, 2);
    if (p == 3) {
        v_receive(0, buf, 2);
        v_receive(1, buf, 2);
    }
}

/* doall 4: no messages, but an environment (not a message of the
 * program: the phase has none). */
static void d_quiet(const void *env)
{
    double *x = hd_local(A_X);
    x[0] += *(const double *)env;
}

/* doalls 5 and 6: every processor sends 8 bytes to the perfect shuffle
 * (rotation left) of its number, then to its bit reversal; fixed points
 * send to themselves, which needs no pass. */
static unsigned shuffle3(unsigned p) { return ((p << 1) | (p >> 2)) & 7; }
static unsigned reverse3(unsigned p) { return ((p & 1) << 2) | (p & 2) | (p >> 2); }

static void d_permute(unsigned (*to)(unsigned))
{
    unsigned char buf[8] = {0};
    unsigned p = (unsigned)hd_get_pid();
    v_send((int)to(p), buf, 8);
    for (unsigned q = 0; q < 8; q++)
        if (to(q) == p)
            v_receive((int)q, buf, 8);
}

static void d_shuffle(const void *env)
{
    (void)env;
    d_permute(shuffle3);
}

static void d_reverse(const void *env)
{
    (void)env;
    d_permute(reverse3);
}

/* doall 7, on the 2-cube: Chung and Ranka 1990's Fig. 3, one word (8
 * bytes) from each processor to its two neighbours on the cycle 0 - 1 -
 * 2 - 3 - 0: c01 = c03 = c10 = c12 = c21 = c23 = c30 = c32 = 1. */
static void d_fig3(const void *env)
{
    double w = 1, in[2];
    int me = hd_get_pid(), next = (me + 1) % 4, prev = (me + 3) % 4;
    (void)env;
    v_send(next, &w, sizeof w);
    v_send(prev, &w, sizeof w);
    v_receive(prev, &in[0], sizeof w);
    v_receive(next, &in[1], sizeof w);
}

static const hd_node_fn doalls[] = {d_neighbour, d_far, d_two, d_contend, d_quiet,
                                    d_shuffle, d_reverse, d_fig3};

static int host_main(int argc, char **argv)
{
    double host_x[8] = {0}, e = 1.5;
    (void)argc;
    (void)argv;
    if (strcmp(scenario, "phases") == 0) {
        hd_scatter(A_X, host_x);
        for (int d = 0; d < 3; d++)
            hd_doall(d, NULL, 0);
        hd_doall(4, &e, sizeof e);
        hd_gather(A_X, host_x);
        printf("x[5] = %g\n", host_x[5]);
    } else if (strcmp(scenario, "contend") == 0) {
        hd_doall(3, NULL, 0);
    } else if (strcmp(scenario, "passes") == 0) {
        hd_doall(5, NULL, 0);
        hd_doall(6, NULL, 0);
    } else if (strncmp(scenario, "saf-", 4) == 0) {
        hd_doall(7, NULL, 0);
    }
    return 0;
}

typedef struct {
    unsigned phase;
    int doall;
    unsigned long long messages, bytes;
    int max_hops;
    unsigned long long max_load;
    double time_us;
    long passes[2];   /* omega, butterfly */
} row;

static int read_report(const char *path, row *rows, int max)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int n = 0;
    if (!f) {
        perror(path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        row r;
        unsigned long long max_bytes, cycles, max_sends;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%u %d %llu %llu %llu %d %llu %llu %lf %llu %ld %ld", &r.phase,
                   &r.doall, &r.messages, &r.bytes, &max_bytes, &r.max_hops, &r.max_load,
                   &cycles, &r.time_us, &max_sends, &r.passes[0], &r.passes[1]) != 12 ||
            n == max) {
            fprintf(stderr, "bad report line: %s", line);
            fclose(f);
            return -1;
        }
        rows[n++] = r;
    }
    fclose(f);
    return n;
}

static int bad;

/* The line a message from x to y is on after k stages (k = 0: x; k = n:
 * y): the omega network sets the destination's bits from the most
 * significant, the butterfly from bit 0 (Wu 1984, Section 2.1 and
 * Chapter 5). */
static unsigned line_after(int butterfly, int n, unsigned x, unsigned y, int k)
{
    unsigned high = ((1u << n) - 1) & ~((1u << (n - k)) - 1), low = (1u << k) - 1;
    return butterfly ? (y & low) | (x & ~low & ((1u << n) - 1)) : (y & high) | (x & ~high);
}

/* First fit in the order given, each message into the lowest pass where
 * it meets no earlier message of that pass on any line of any stage;
 * messages to their own processor need none. */
static long first_fit(int butterfly, int n, const unsigned *src, const unsigned *dst, int count)
{
    enum { MAXP = 64 };
    unsigned char used[MAXP][4][8] = {{{0}}};
    long passes = 0;
    for (int m = 0; m < count; m++) {
        if (src[m] == dst[m])
            continue;
        for (int p = 0; p < MAXP; p++) {
            int free_ = 1;
            for (int k = 0; k <= n && free_; k++)
                free_ = !used[p][k][line_after(butterfly, n, src[m], dst[m], k)];
            if (!free_)
                continue;
            for (int k = 0; k <= n; k++)
                used[p][k][line_after(butterfly, n, src[m], dst[m], k)] = 1;
            if (p + 1 > passes)
                passes = p + 1;
            break;
        }
    }
    return passes;
}

static void expect_passes(const char *what, const row *r, long omega, long butterfly)
{
    if (r->passes[0] != omega || r->passes[1] != butterfly) {
        printf("%s: %ld omega and %ld butterfly passes, expected %ld and %ld\n", what,
               r->passes[0], r->passes[1], omega, butterfly);
        bad = 1;
    }
}

static void expect(const char *what, double got, double want)
{
    if (fabs(got - want) > 0.006) { /* the report has 2 decimals */
        printf("%s: %.4f, expected %.4f\n", what, got, want);
        bad = 1;
    }
}

int main(int argc, char **argv)
{
    hd_program_desc prog = {"sim_prog.c", 3, to_virtual, to_physical, NARRAYS, arrays,
                            8, doalls, host_main, NULL};
    row rows[16];
    int n, status;

    if (argc != 3) {
        fprintf(stderr, "usage: sim_prog phases|contend|params|passes|saf-bi|saf-uni REPORT\n");
        return 2;
    }
    scenario = argv[1];
    for (int p = 0; p < 8; p++)
        to_virtual[p] = to_physical[p] = p;
    setenv("HYPERDO_SIM_REPORT", argv[2], 1);
    if (strcmp(scenario, "params") == 0) {
        /* Other parameters from the environment: beta 10, tau 0.5,
         * 4 bytes per flit (one cycle = 2 us). */
        setenv("HYPERDO_SIM_BETA", "10", 1);
        setenv("HYPERDO_SIM_TAU", "0.5", 1);
        setenv("HYPERDO_SIM_FLIT", "4", 1);
        scenario = "phases";
    } else if (strcmp(scenario, "contend") == 0) {
        prog.dim = 2; /* the 2-cube of the hand-worked case */
        arrays[0].log2_size = 2;
        setenv("HYPERDO_SIM_FLIT", "1", 1);
    } else if (strcmp(scenario, "saf-bi") == 0 || strcmp(scenario, "saf-uni") == 0) {
        /* Chung and Ranka 1990's machine: T_setup 1150 us, T_c 10 us per
         * word of 8 bytes. */
        prog.dim = 2;
        arrays[0].log2_size = 2;
        setenv("HYPERDO_SIM_MODEL", scenario, 1);
        setenv("HYPERDO_SIM_BETA", "1150", 1);
        setenv("HYPERDO_SIM_TAU", "1.25", 1);
        setenv("HYPERDO_SIM_WORD", "8", 1);
    }
    status = hd_run(&prog, 1, argv);
    if (status != 0)
        return 1;
    if ((n = read_report(argv[2], rows, 16)) < 0)
        return 1;

    if (strncmp(argv[1], "saf-", 4) == 0) {
        /* Fig. 3(a): 2 steps, 2 T_setup + 3 T_c; Fig. 3(b): 4 steps,
         * 4 T_setup + 6 T_c. */
        int bi = strcmp(argv[1], "saf-bi") == 0;
        if (n != 1 || rows[0].messages != 8) {
            printf("%s: %d phases, expected 1 of 8 messages\n", argv[1], n);
            return 1;
        }
        expect(argv[1], rows[0].time_us, bi ? 2 * 1150 + 3 * 10 : 4 * 1150 + 6 * 10);
    } else if (strcmp(argv[1], "contend") == 0) {
        double beta = 164, tau = 0.57;
        if (n != 1 || rows[0].messages != 2 || rows[0].max_load != 2) {
            printf("contend: %d phases, expected 1 with 2 messages on one channel\n", n);
            return 1;
        }
        expect("contend", rows[0].time_us, beta + 7 * tau);
        /* 0 -> 3 and 1 -> 3 share the output line 3: two passes. */
        expect_passes("contend", &rows[0], 2, 2);
    } else if (strcmp(argv[1], "passes") == 0) {
        unsigned src[8], dst[8];
        unsigned (*to[2])(unsigned) = {shuffle3, reverse3};
        if (n != 2) {
            printf("passes: %d phases in the report, expected 2\n", n);
            return 1;
        }
        for (int k = 0; k < 2; k++) {
            for (unsigned p = 0; p < 8; p++) {
                src[p] = p;
                dst[p] = to[k](p);
            }
            expect_passes(k ? "bit reversal" : "perfect shuffle", &rows[k],
                          first_fit(0, 3, src, dst, 8), first_fit(1, 3, src, dst, 8));
            if (rows[k].passes[0] < 1 || rows[k].passes[1] < 1)
                printf("passes: a permutation that moves in no pass\n"), bad = 1;
        }
    } else {
        int params = strcmp(argv[1], "params") == 0;
        double beta = params ? 10 : 164, tau = params ? 0.5 : 0.57;
        double flit = params ? 4 : 1, cycle = flit * tau;
        /* flits: 100 / 4 = 25, 1000 / 4 = 250, ceil(10 / 4) = 3. */
        double want[5] = {
            beta + ceil(100 / flit) * cycle + (1 + 1) * cycle,
            beta + ceil(1000 / flit) * cycle + (3 + 1) * cycle,
            2 * beta + ceil(10 / flit) * cycle + (1 + 1) * cycle,
            0, /* unused */
            0,
        };
        unsigned long long msgs[5] = {1, 1, 2, 0, 0};
        int doall_of[4] = {0, 1, 2, 4};
        if (n != 4) {
            printf("%s: %d phases in the report, expected 4\n", argv[1], n);
            return 1;
        }
        for (int k = 0; k < 4; k++) {
            char what[64];
            int d = doall_of[k];
            if (rows[k].phase != (unsigned)k + 1 || rows[k].doall != d ||
                rows[k].messages != msgs[d]) {
                printf("%s: phase %u doall %d with %llu messages, expected %d, %d, %llu\n",
                       argv[1], rows[k].phase, rows[k].doall, rows[k].messages, k + 1, d,
                       msgs[d]);
                bad = 1;
            }
            snprintf(what, sizeof what, "%s: phase %d", argv[1], k + 1);
            expect(what, rows[k].time_us, want[d]);
        }
        if (rows[1].max_hops != 3)
            printf("far: %d hops\n", rows[1].max_hops), bad = 1;
        /* One message alone: one pass; two from one sender share its
         * input line: two; none: none. */
        expect_passes("neighbour", &rows[0], 1, 1);
        expect_passes("far", &rows[1], 1, 1);
        expect_passes("two", &rows[2], 2, 2);
        expect_passes("quiet", &rows[3], 0, 0);
    }
    if (!bad)
        printf("%s ok\n", argv[1]);
    return bad;
}
