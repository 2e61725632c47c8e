/*
 * bench_sim.c — speed of the network simulator (runtime/sim): simulated
 * flit-hops per second for bit-reverse on the n-cube, n = 8, 10, 12,
 * with e-cube routing and no mapping, at an offered load well past
 * saturation (the network as busy as it gets), and the same with the
 * pattern's contention-free mapping at its saturation.
 *
 * A flit-hop is one flit crossing one channel of the cube.  Both CPU time
 * of this process and wall time are given: the machine may be shared.
 *
 *     bench_sim [--cycles C]     (C cycles measured at n = 8; fewer for
 *                                 larger n so that each run is similar)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint32_t reverse(uint32_t x, int n)
{
    uint32_t y = 0;
    for (int i = 0; i < n; i++)
        y |= ((x >> i) & 1u) << (n - 1 - i);
    return y;
}

/* Bit i of Q x is bit r_i of x with R = (0, n-1, 2, n-3, ...): the even
 * bits stay, the odd ones swap with their mirrors, which makes bit
 * reverse contention-free under e-cube routing (any optimal ordering
 * would do; this one is checked by the round's max load printed). */
static uint32_t relabel(uint32_t x, int n)
{
    uint32_t y = 0;
    for (int i = 0; i < n; i++) {
        int from = (i % 2 == 0) ? i : n - i;
        y |= ((x >> from) & 1u) << i;
    }
    return y;
}

static int run(int n, bool mapped, double rate, uint64_t cycles)
{
    uint32_t nodes = UINT32_C(1) << n;
    uint32_t *src = malloc(nodes * sizeof *src), *dst = malloc(nodes * sizeof *dst);
    hd_sim_message *round = malloc(nodes * sizeof *round);
    hd_sim *s = hd_sim_new(n, HD_SIM_ECUBE);
    if (!src || !dst || !round || !s) {
        fprintf(stderr, "bench_sim: out of memory\n");
        return 1;
    }
    for (uint32_t x = 0; x < nodes; x++) {
        uint32_t a = x, b = reverse(x, n);
        if (mapped) {
            a = relabel(a, n);
            b = relabel(b, n);
        }
        src[x] = a;
        dst[x] = b;
        round[x] = (hd_sim_message){ a, b, 20, 0, 0, 0 };
    }
    hd_sim_counts rc;
    hd_sim_phase(s, round, nodes, &rc);
    hd_sim_traffic tr = { nodes, src, dst };
    hd_sim_open_config cfg = { rate, 20, cycles / 4, cycles, 1, 0, false,
                               NULL, NULL };
    hd_sim_open_result res;
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    int status = hd_sim_open(s, &tr, &cfg, &res);
    double cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = now(CLOCK_MONOTONIC) - w0;
    if (status != HD_SIM_OK) {
        fprintf(stderr, "bench_sim: simulation failed\n");
        return 1;
    }
    uint64_t total = cycles + cycles / 4;
    printf("%2d  %-8s %6.2f %9.3f %4llu %8llu %12llu %7.2f %7.2f %9.2fM %9.2fM %9.0f\n",
           n, mapped ? "optimal" : "identity", rate, res.accepted,
           (unsigned long long)rc.max_load, (unsigned long long)total,
           (unsigned long long)res.counts.flit_hops, cpu, wall,
           (double)res.counts.flit_hops / cpu * 1e-6,
           (double)res.counts.flit_hops / wall * 1e-6, (double)total / cpu);
    hd_sim_free(s);
    free(src);
    free(dst);
    free(round);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t cycles = 40000;
    if (argc == 3 && strcmp(argv[1], "--cycles") == 0)
        cycles = strtoull(argv[2], NULL, 10);
    else if (argc != 1) {
        fprintf(stderr, "usage: bench_sim [--cycles C]\n");
        return 2;
    }
    if (cycles < 400) {
        fprintf(stderr, "bench_sim: --cycles needs at least 400\n");
        return 2;
    }
    printf("Bit reverse on the n-cube, e-cube routing, 20-flit messages, "
           "one-flit buffers.\n"
           "load: offered flits/cycle/node; acc: accepted; T: busiest channel "
           "of a round;\ncycles: warm-up + measured; rates per CPU second "
           "and per wall second.\n\n");
    printf(" n  mapping    load       acc    T   cycles    flit-hops  cpu(s) "
           "wall(s)  hops/cpu  hops/wall  cycles/cpu\n");
    static const int dims[3] = { 8, 10, 12 };
    for (int k = 0; k < 3; k++) {
        int n = dims[k];
        /* Fewer cycles on bigger cubes: about the same work per run. */
        uint64_t c = cycles >> (n - 8);
        if (c < 400)
            c = 400;
        if (run(n, false, 0.5, c) || run(n, true, 0.95, c))
            return 1;
    }
    return 0;
}
