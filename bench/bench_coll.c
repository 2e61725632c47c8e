/*
 * bench_coll.c — Hyperdo's run-time collectives (hyperdo/coll.h, the
 * link-bound algorithms of Stout and Wagar 1990) against MPICH's own
 * (issue 15, item 6; docs/collectives.md, "Benchmarks"):
 *
 *     hd_coll_bcast                              MPI_Bcast
 *     hd_coll_alltoall                           MPI_Alltoall
 *     hd_coll_allgather                          MPI_Allgather
 *     hd_coll_reduce_scatter (double, sum)       MPI_Reduce_scatter_block
 *     hd_coll_allreduce (double, sum)            MPI_Allreduce
 *
 * A hand-written hd_run program on 2^N processors (the identity mapping:
 * virtual = physical = MPI rank), one node function run by hd_doall.
 * Built twice:
 *
 *   bench_coll_mpi (libhyperdo-mpi, -DBENCH_COLL_MPI): one MPI rank per
 *     processor; each repetition times the Hyperdo collective and MPICH's
 *     on the same buffers in the same run, interleaved (the order
 *     alternates between repetitions).  The node function calls MPI
 *     directly on MPI_COMM_WORLD: hyperdo-mpi has initialised MPI (single
 *     threaded, the rank's main thread is the one that runs the node
 *     function) and sends its own messages on a duplicate of
 *     MPI_COMM_WORLD, so the two never match each other's messages.
 *   bench_coll (libhyperdo, threads): 2^N threads of one process; only
 *     the Hyperdo collective (there is no MPI here), to be compared with
 *     the MPICH numbers of the MPI build at the same P (bench_coll.sh).
 *
 * Sizes are MPI's counts in bytes: the message of MPI_Bcast and
 * MPI_Allreduce, one block (per pair of ranks, per rank, per result
 * block) of MPI_Alltoall, MPI_Allgather and MPI_Reduce_scatter_block.
 *
 * Each repetition: the receiving buffer is overwritten with garbage, a
 * barrier (hd_v_barrier), then every processor times its own call (wall:
 * CLOCK_MONOTONIC; CPU, user + sys: the rank's process under MPI, the
 * processor's thread on threads); the repetition's wall time is the
 * largest over the processors, its CPU time the sum.  After every call
 * (untimed) each processor checks a position-sensitive checksum of what it
 * received against the one computed from the inputs' formula, so no
 * implementation can time wrong work (reductions sum small integers in
 * doubles: exact in any order).  One untimed call of each first.  The
 * host prints, per collective and size, the median of the repetitions:
 *
 *     BACKEND COLL P BYTES REPS IMPL WALL_US CPU_US
 *
 * and, under MPI, the median over the repetitions of each repetition's
 * ratio Hyperdo / MPICH (robust to the load changing during the run):
 *
 *     mpi COLL P BYTES REPS paired WALL_RATIO CPU_RATIO
 *
 * Usage: bench_coll N [--sizes B,B,...] [--colls C,C,...] [--reps-scale F]
 * (default sizes 8,1024,65536,1048576,16777216; repetitions 30, 30, 15,
 * 7, 3 by size, times F, at least 3).
 */
#include "hyperdo.h"
#include "hyperdo/coll.h"

#ifdef BENCH_COLL_MPI
#include <mpi.h>
#define BACKEND "mpi"
#define CPU_CLOCK CLOCK_PROCESS_CPUTIME_ID
#else
#define BACKEND "threads"
#define CPU_CLOCK CLOCK_THREAD_CPUTIME_ID
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { C_BCAST, C_ALLTOALL, C_ALLGATHER, C_REDUCE_SCATTER, C_ALLREDUCE, NCOLLS };
static const char *const coll_names[NCOLLS] = { "bcast", "alltoall", "allgather",
                                                "reduce_scatter", "allreduce" };
enum { I_HD, I_MPICH, NIMPLS };
static const char *const impl_names[NIMPLS] = { "hyperdo", "mpich" };

static int n, P;
static int *to_virtual, *to_physical;
static size_t sizes[32];
static int nsizes;
static int colls[NCOLLS], ncolls;
static double reps_scale = 1;
#ifndef BENCH_COLL_MPI
static double *wall_of, *cpu_of;   /* per physical processor (threads share them) */
#endif

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench_coll: out of memory (%zu bytes)\n", bytes);
        exit(4);
    }
    return p;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    return x;
}

/* Word k of processor v's data collectives' input. */
static uint64_t gen(int v, size_t k)
{
    return mix((uint64_t)v * 0x9e3779b97f4a7c15u + (uint64_t)k);
}

/* Element j of processor v's reduction input: a small integer, so that
 * the sums are exact in any order. */
static double val(int v, size_t j)
{
    return (double)(((uint64_t)v * 31u + (uint64_t)j * 7u) & 1023u);
}

/* The checksum of words w_0, w_1, ...: position-sensitive. */
static uint64_t cs_word(uint64_t acc, size_t t, uint64_t w)
{
    return acc + mix(w ^ ((uint64_t)t * 0xd6e8feb86659fd93u));
}

static uint64_t cs_double(uint64_t acc, size_t t, double x)
{
    uint64_t w;
    memcpy(&w, &x, sizeof w);
    return cs_word(acc, t, w);
}

static uint64_t checksum(const void *buf, size_t bytes)
{
    const unsigned char *b = buf;
    uint64_t acc = 0;
    for (size_t t = 0; t < bytes / 8; t++) {
        uint64_t w;
        memcpy(&w, b + 8 * t, sizeof w);
        acc = cs_word(acc, t, w);
    }
    return acc;
}

static double now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *xs, int k)
{
    double *s = xmalloc((size_t)k * sizeof *s);
    memcpy(s, xs, (size_t)k * sizeof *s);
    qsort(s, (size_t)k, sizeof *s, cmp_double);
    double m = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
    free(s);
    return m;
}

/* The largest wall time and the total CPU time over the processors, on
 * the host (physical 0); every processor calls it. */
static void combine(double wall, double cpu, double *wall_max, double *cpu_sum)
{
#ifdef BENCH_COLL_MPI
    MPI_Reduce(&wall, wall_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&cpu, cpu_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
#else
    int p = hd_get_pid();
    wall_of[p] = wall;
    cpu_of[p] = cpu;
    hd_v_barrier();
    if (p == 0) {
        *wall_max = 0;
        *cpu_sum = 0;
        for (int q = 0; q < P; q++) {
            *wall_max = wall_of[q] > *wall_max ? wall_of[q] : *wall_max;
            *cpu_sum += cpu_of[q];
        }
    }
    /* The next writes follow the next repetition's barrier, which the
     * host enters only after it has read these. */
#endif
}

typedef struct {
    unsigned char *send, *recv;
    size_t recv_bytes;
    uint64_t expect;   /* the checksum of what this processor must receive */
} bufs;

static void setup(int c, size_t S, bufs *b)
{
    int v = v_get_pid();
    size_t words = S / 8, cnt = S / 8;
    uint64_t acc = 0;
    memset(b, 0, sizeof *b);
    switch (c) {
    case C_BCAST:
        b->recv_bytes = S;
        b->recv = xmalloc(S);
        for (size_t k = 0; k < words; k++) {
            uint64_t w = gen(0, k);
            if (v == 0)
                memcpy(b->recv + 8 * k, &w, 8);
            acc = cs_word(acc, k, w);
        }
        break;
    case C_ALLTOALL:
        b->send = xmalloc(S * (size_t)P);
        b->recv_bytes = S * (size_t)P;
        b->recv = xmalloc(b->recv_bytes);
        for (size_t k = 0; k < words * (size_t)P; k++) {
            uint64_t w = gen(v, k);
            memcpy(b->send + 8 * k, &w, 8);
        }
        /* Block w of the receiver is block v of w's send. */
        for (int w = 0; w < P; w++)
            for (size_t k = 0; k < words; k++)
                acc = cs_word(acc, (size_t)w * words + k, gen(w, (size_t)v * words + k));
        break;
    case C_ALLGATHER:
        b->send = xmalloc(S);
        b->recv_bytes = S * (size_t)P;
        b->recv = xmalloc(b->recv_bytes);
        for (size_t k = 0; k < words; k++) {
            uint64_t w = gen(v, k);
            memcpy(b->send + 8 * k, &w, 8);
        }
        for (int w = 0; w < P; w++)
            for (size_t k = 0; k < words; k++)
                acc = cs_word(acc, (size_t)w * words + k, gen(w, k));
        break;
    case C_REDUCE_SCATTER: {
        double *s = xmalloc(S * (size_t)P);
        for (size_t j = 0; j < cnt * (size_t)P; j++)
            s[j] = val(v, j);
        b->send = (unsigned char *)s;
        b->recv_bytes = S;
        b->recv = xmalloc(S);
        for (size_t i = 0; i < cnt; i++) {
            double sum = 0;
            for (int w = 0; w < P; w++)
                sum += val(w, (size_t)v * cnt + i);
            acc = cs_double(acc, i, sum);
        }
        break;
    }
    default: {
        double *s = xmalloc(S);
        for (size_t j = 0; j < cnt; j++)
            s[j] = val(v, j);
        b->send = (unsigned char *)s;
        b->recv_bytes = S;
        b->recv = xmalloc(S);
        for (size_t j = 0; j < cnt; j++) {
            double sum = 0;
            for (int w = 0; w < P; w++)
                sum += val(w, j);
            acc = cs_double(acc, j, sum);
        }
        break;
    }
    }
    b->expect = acc;
}

static void call(int c, int impl, const bufs *b, size_t S)
{
#ifdef BENCH_COLL_MPI
    if (impl == I_MPICH) {
        int cnt = (int)S;
        switch (c) {
        case C_BCAST:
            MPI_Bcast(b->recv, cnt, MPI_BYTE, 0, MPI_COMM_WORLD);
            break;
        case C_ALLTOALL:
            MPI_Alltoall(b->send, cnt, MPI_BYTE, b->recv, cnt, MPI_BYTE, MPI_COMM_WORLD);
            break;
        case C_ALLGATHER:
            MPI_Allgather(b->send, cnt, MPI_BYTE, b->recv, cnt, MPI_BYTE, MPI_COMM_WORLD);
            break;
        case C_REDUCE_SCATTER:
            MPI_Reduce_scatter_block(b->send, b->recv, cnt / 8, MPI_DOUBLE, MPI_SUM,
                                     MPI_COMM_WORLD);
            break;
        default:
            MPI_Allreduce(b->send, b->recv, cnt / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            break;
        }
        return;
    }
#else
    (void)impl;
#endif
    switch (c) {
    case C_BCAST:
        hd_coll_bcast(b->recv, S, 0);
        break;
    case C_ALLTOALL:
        hd_coll_alltoall(b->send, b->recv, S);
        break;
    case C_ALLGATHER:
        hd_coll_allgather(b->send, b->recv, S);
        break;
    case C_REDUCE_SCATTER:
        hd_coll_reduce_scatter(b->send, b->recv, S / 8, HD_T_DOUBLE, HD_OP_SUM);
        break;
    default:
        hd_coll_allreduce(b->send, b->recv, S / 8, HD_T_DOUBLE, HD_OP_SUM);
        break;
    }
}

/* One untimed or timed call of impl: garbage in the receiving buffer
 * (not the broadcast's root: its buffer is the message), a barrier, the
 * call, the check. */
static void one(int c, int impl, const bufs *b, size_t S, double *wall, double *cpu)
{
    int v = v_get_pid();
    if (c != C_BCAST || v != 0)
        memset(b->recv, 0xa5, b->recv_bytes);
    hd_v_barrier();
    double c0 = now(CPU_CLOCK), w0 = now(CLOCK_MONOTONIC);
    call(c, impl, b, S);
    double w1 = now(CLOCK_MONOTONIC), c1 = now(CPU_CLOCK);
    *wall = w1 - w0;
    *cpu = c1 - c0;
    uint64_t got = checksum(b->recv, b->recv_bytes);
    if (got != b->expect) {
        fprintf(stderr,
                "bench_coll: processor %d, P = %d: %s by %s, %zu bytes: wrong result "
                "(checksum %016llx, expected %016llx)\n",
                v, P, coll_names[c], impl_names[impl], S, (unsigned long long)got,
                (unsigned long long)b->expect);
        exit(3);
    }
}

static int reps_for(size_t S)
{
    int r = S <= 1024 ? 30 : S <= 65536 ? 15 : S <= 1048576 ? 7 : 3;
    r = (int)(r * reps_scale + 0.5);
    return r < 3 ? 3 : r;
}

static void node(const void *env)
{
    (void)env;
    int v = v_get_pid();
#ifdef BENCH_COLL_MPI
    const int nimpls = 2;
#else
    const int nimpls = 1;
#endif
    for (int ci = 0; ci < ncolls; ci++) {
        int c = colls[ci];
        for (int si = 0; si < nsizes; si++) {
            size_t S = sizes[si];
            int reps = reps_for(S);
            bufs b;
            double w = 0, u = 0, wm = 0, us = 0;
            double *walls[NIMPLS], *cpus[NIMPLS];
            setup(c, S, &b);
            for (int i = 0; i < nimpls; i++) {
                walls[i] = xmalloc((size_t)reps * sizeof(double));
                cpus[i] = xmalloc((size_t)reps * sizeof(double));
                one(c, i, &b, S, &w, &u);   /* warm-up: schedules, connections */
            }
            for (int r = 0; r < reps; r++)
                for (int k = 0; k < nimpls; k++) {
                    int i = (r + k) % nimpls;   /* alternate which goes first */
                    one(c, i, &b, S, &w, &u);
                    combine(w, u, &wm, &us);
                    if (v == 0) {
                        walls[i][r] = wm;
                        cpus[i][r] = us;
                    }
                }
            if (v == 0) {
                for (int i = 0; i < nimpls; i++)
                    printf("%s %s %d %zu %d %s %.2f %.2f\n", BACKEND, coll_names[c], P, S, reps,
                           impl_names[i], 1e6 * median(walls[i], reps),
                           1e6 * median(cpus[i], reps));
                if (nimpls == 2) {
                    /* The median of the repetitions' own ratios: the two
                     * calls of a repetition ran back to back, under the
                     * same load. */
                    double *rw = xmalloc((size_t)reps * sizeof *rw);
                    double *rc = xmalloc((size_t)reps * sizeof *rc);
                    for (int r = 0; r < reps; r++) {
                        rw[r] = walls[I_HD][r] / walls[I_MPICH][r];
                        rc[r] = cpus[I_HD][r] / cpus[I_MPICH][r];
                    }
                    printf("%s %s %d %zu %d paired %.3f %.3f\n", BACKEND, coll_names[c], P, S,
                           reps, median(rw, reps), median(rc, reps));
                    free(rw);
                    free(rc);
                }
                fflush(stdout);
            }
            for (int i = 0; i < nimpls; i++) {
                free(walls[i]);
                free(cpus[i]);
            }
            free(b.send);
            free(b.recv);
        }
    }
}

static const hd_node_fn doalls[] = { node };

static int host_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("# bench_coll on %s, P = %d: BACKEND COLL P BYTES REPS IMPL WALL_US CPU_US "
           "(medians; wall the slowest processor, CPU the sum)\n",
           BACKEND, P);
    fflush(stdout);
    hd_doall(0, NULL, 0);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_coll N [--sizes B,B,...] [--colls C,C,...] [--reps-scale F]\n"
                    "  C: bcast alltoall allgather reduce_scatter allreduce\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static const size_t default_sizes[] = { 8, 1024, 65536, 1048576, 16777216 };
    if (argc < 2)
        usage();
    n = atoi(argv[1]);
    if (n < 0 || n > 8)
        usage();
    P = 1 << n;
    for (int c = 0; c < NCOLLS; c++)
        colls[ncolls++] = c;
    for (size_t i = 0; i < sizeof default_sizes / sizeof *default_sizes; i++)
        sizes[nsizes++] = default_sizes[i];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            char *s = argv[++i], *end;
            nsizes = 0;
            while (*s && nsizes < 32) {
                unsigned long long b = strtoull(s, &end, 10);
                if (end == s || b == 0 || b % 8 || b > (1ull << 28))
                    usage();   /* multiples of 8 (doubles), int counts */
                sizes[nsizes++] = (size_t)b;
                s = *end == ',' ? end + 1 : end;
            }
        } else if (!strcmp(argv[i], "--colls") && i + 1 < argc) {
            char *s = argv[++i];
            ncolls = 0;
            for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
                int c = 0;
                while (c < NCOLLS && strcmp(tok, coll_names[c]))
                    c++;
                if (c == NCOLLS)
                    usage();
                colls[ncolls++] = c;
                if (ncolls == NCOLLS)
                    break;
            }
        } else if (!strcmp(argv[i], "--reps-scale") && i + 1 < argc) {
            reps_scale = atof(argv[++i]);
            if (!(reps_scale > 0))
                usage();
        } else {
            usage();
        }
    }
    to_virtual = xmalloc((size_t)P * sizeof *to_virtual);
    to_physical = xmalloc((size_t)P * sizeof *to_physical);
    for (int p = 0; p < P; p++)
        to_virtual[p] = to_physical[p] = p;
#ifndef BENCH_COLL_MPI
    wall_of = xmalloc((size_t)P * sizeof *wall_of);
    cpu_of = xmalloc((size_t)P * sizeof *cpu_of);
#endif
    hd_program_desc prog = { "bench_coll.c", n, to_virtual, to_physical, 0, NULL, 1, doalls,
                             host_main, NULL };
    return hd_run(&prog, argc, argv);
}
