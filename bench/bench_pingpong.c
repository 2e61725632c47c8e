/*
 * bench_pingpong.c — the run-time library's message costs, as a translated
 * program sees them (hd_run, a doall, v_send/v_receive).  Built twice:
 * bench_pingpong (threads, libhyperdo.a) and bench_pingpong_mpi
 * (libhyperdo-mpi.a, run with mpiexec); bench_pingpong.sh runs both and
 * prints the ratios threads/MPI.
 *
 *     bench_pingpong pingpong [SCALE]   2 processors (mpiexec -n 2)
 *     bench_pingpong alltoall [SCALE]   8 processors (mpiexec -n 8)
 *
 * pingpong: virtual 0 and 1 bounce a message; half a round trip is the
 * latency (8-byte messages) and size / (half a round trip) the bandwidth
 * (1 MiB .. 16 MiB).  alltoall: each of 2^3 processors sends a message to
 * every other one, then receives theirs; the time of one such exchange
 * (8 bytes and 1 MiB per message).  SCALE (default 1) multiplies the
 * numbers of repetitions.  Each figure is the best of 5 timed runs.
 *
 * Output, one figure a line: "latency BYTES MICROSECONDS",
 * "bandwidth BYTES MB/S" (10^6 bytes/s), "alltoall BYTES MICROSECONDS".
 */
#include "hyperdo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    long iters;
    size_t bytes;
} bench_env;

/* Written by the host's own node function (physical 0, virtual 0). */
static double host_seconds;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One message from 0 to 1 and back. */
static void round_trip(int v, char *buf, size_t bytes)
{
    if (v == 0) {
        v_send(1, buf, bytes);
        v_receive(1, buf, bytes);
    } else {
        v_receive(0, buf, bytes);
        v_send(0, buf, bytes);
    }
}

static void pingpong_node(const void *env)
{
    const bench_env *e = env;
    char *buf = calloc(1, e->bytes);
    int v = v_get_pid();
    double t0;
    /* Warm up (first-touch page faults, connection set-up). */
    for (int i = 0; i < 3; i++)
        round_trip(v, buf, e->bytes);
    v_barrier();
    t0 = now();
    for (long i = 0; i < e->iters; i++)
        round_trip(v, buf, e->bytes);
    if (v == 0)
        host_seconds = now() - t0;
    free(buf);
}

static void alltoall_node(const void *env)
{
    const bench_env *e = env;
    int v = v_get_pid(), P = hd_nprocs();
    char *out = calloc(1, e->bytes), *in = calloc(1, e->bytes);
    double t0 = 0;
    for (long i = -1; i < e->iters; i++) { /* i == -1: warm-up */
        if (i == 0) {
            v_barrier();
            t0 = now();
        }
        for (int m = 1; m < P; m++)
            v_send(v ^ m, out, e->bytes);
        for (int m = 1; m < P; m++)
            v_receive(v ^ m, in, e->bytes);
    }
    v_barrier();
    if (v == 0)
        host_seconds = now() - t0;
    free(out);
    free(in);
}

static long scale = 1;

/* The best of 5 timed runs (the machine may be shared): seconds per
 * iteration. */
static double run(int doall, long iters, size_t bytes)
{
    bench_env e = { iters * scale, bytes };
    double best = 0;
    for (int r = 0; r < 5; r++) {
        hd_doall(doall, &e, sizeof e);
        if (r == 0 || host_seconds < best)
            best = host_seconds;
    }
    return best / (double)e.iters;
}

static int pingpong_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("latency 8 %.3f\n", 1e6 * run(0, 20000, 8) / 2);
    for (size_t mib = 1; mib <= 16; mib *= 2) {
        size_t bytes = mib << 20;
        double half = run(0, (long)(128 / mib), bytes) / 2;
        printf("bandwidth %zu %.0f\n", bytes, (double)bytes / half / 1e6);
    }
    return 0;
}

static int alltoall_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("alltoall 8 %.3f\n", 1e6 * run(1, 50, 8));
    printf("alltoall %d %.3f\n", 1 << 20, 1e6 * run(1, 4, (size_t)1 << 20));
    return 0;
}

static const hd_node_fn doalls[] = { pingpong_node, alltoall_node };
static int identity[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

int main(int argc, char **argv)
{
    hd_program_desc d;
    int alltoall;
    if (argc < 2 || (strcmp(argv[1], "pingpong") != 0 && strcmp(argv[1], "alltoall") != 0)) {
        fprintf(stderr, "usage: bench_pingpong pingpong|alltoall [SCALE]\n");
        return 64;
    }
    alltoall = strcmp(argv[1], "alltoall") == 0;
    if (argc > 2 && (scale = atol(argv[2])) < 1)
        scale = 1;
    memset(&d, 0, sizeof d);
    d.source = "bench_pingpong.c";
    d.dim = alltoall ? 3 : 1;
    d.to_virtual = identity;
    d.to_physical = identity;
    d.ndoalls = 2;
    d.doalls = doalls;
    d.main = alltoall ? alltoall_main : pingpong_main;
    return hd_run(&d, argc, argv);
}
