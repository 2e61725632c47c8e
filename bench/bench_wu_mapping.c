/*
 * bench_wu_mapping.c — budgets of Wu 1984's data-mapping optimizers
 * (analysis/wu_mapping.c): for each exact algorithm the largest n it
 * handles within 10 s, and what the heuristics do beyond.
 *
 *   static search  hd_wu_static_feasible on m random transfers, for
 *                  m = 3, n/2 and n (easy, hardest, mostly infeasible);
 *                  and hd_wu_static_best (the best sum of D) on m = n/2 + 2;
 *   DP             hd_wu_dp, k = 8 random transfers, n = 2 .. 4 (n = 5 is
 *                  refused: its tables would have 2^30 entries);
 *   Algorithm I    hd_wu_algorithm1, k = 2, 4, 8, n = 2 .. 4;
 *   heuristics     hd_wu_pairs and hd_wu_runs, k = 8 and 16, n = 5 .. 64,
 *                  against Theorem 3.5's bounds; Algorithm II with the runs
 *                  heuristic inside on 6 vectors, n = 8 and 16.
 *
 * Each case runs --reps times on different random instances (a fixed
 * seed); the table gives the largest CPU time (user + sys, getrusage) and
 * wall time of any run.  Timings on a shared machine are noisy; the
 * search's node counts are not.  A static search stops at --nodes nodes
 * (HD_ETOOBIG, printed as "over"): its time grows with the nodes; the
 * runs heuristic gives each of its searches --run-nodes.
 *
 * usage: bench_wu_mapping [--reps R] [--seed S] [--nodes N] [--run-nodes N]
 *                         [--max-n N]
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t rng_state = 1984;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

static hd_agl random_agl(int n)
{
    hd_agl p = { hd_matrix_zero(n), 0 };
    do {
        for (int i = 0; i < n; i++)
            p.A.row[i] = next_random() & hd_mask(n);
    } while (hd_rank(&p.A) != n);
    p.b = next_random() & hd_mask(n);
    return p;
}

typedef struct {
    double cpu, wall;
} stamp;

static stamp now(void)
{
    struct rusage ru;
    struct timespec ts;
    getrusage(RUSAGE_SELF, &ru);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    stamp s = { (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6,
                (double)ts.tv_sec + ts.tv_nsec * 1e-9 };
    return s;
}

/* The worst of a case's runs. */
typedef struct {
    double cpu, wall;
    long work;
    int over, found, runs;
    int cost_max, cost_min;
} worst;

static void worst_init(worst *w)
{
    memset(w, 0, sizeof *w);
    w->cost_min = 1 << 30;
}

static void worst_add(worst *w, stamp a, stamp b, long work, int cost)
{
    if (b.cpu - a.cpu > w->cpu)
        w->cpu = b.cpu - a.cpu;
    if (b.wall - a.wall > w->wall)
        w->wall = b.wall - a.wall;
    if (work > w->work)
        w->work = work;
    if (cost > w->cost_max)
        w->cost_max = cost;
    if (cost < w->cost_min)
        w->cost_min = cost;
    w->runs++;
}

static int upper_bound(int k)
{
    return k % 2 ? (3 * k - 1) / 2 : 3 * k / 2 - 1;
}

static void bench_static(int reps, long nodes, int max_n)
{
    printf("\nStatic search (Section 2.2), m random transfers, %d runs each, "
           "budget %ld nodes:\n", reps, nodes);
    printf("%4s %4s  %10s %10s %10s  %s\n", "n", "m", "cpu max", "wall max", "nodes max",
           "found / none / over");
    for (int n = 4; n <= max_n; n += n < 16 ? 2 : 8) {
        int ms[3] = { 3, n / 2, n };
        for (int v = 0; v < 3; v++) {
            int m = ms[v];
            if (v && m == ms[v - 1])
                continue;
            hd_target t = hd_target_omega(n);
            worst w;
            worst_init(&w);
            int none = 0;
            for (int r = 0; r < reps; r++) {
                hd_agl *P = malloc((size_t)m * sizeof *P);
                for (int j = 0; j < m; j++)
                    P[j] = random_agl(n);
                hd_wu_static s;
                stamp a = now();
                int st = hd_wu_static_feasible(&t, P, m, nodes, &s);
                stamp b = now();
                worst_add(&w, a, b, s.nodes, 0);
                w.found += st == 1;
                none += st == 0;
                w.over += st == HD_ETOOBIG;
                free(P);
            }
            printf("%4d %4d  %9.3fs %9.3fs %10ld  %d / %d / %d\n", n, m, w.cpu, w.wall, w.work,
                   w.found, none, w.over);
        }
    }
    printf("\nStatic best (least sum of D), m = n/2 + 2 random transfers:\n");
    printf("%4s %4s  %10s %10s %10s  %s\n", "n", "m", "cpu max", "wall max", "nodes max",
           "sum of D (min .. max), over");
    for (int n = 4; n <= max_n && n <= 16; n += 4) {
        int m = n / 2 + 2;
        hd_target t = hd_target_omega(n);
        worst w;
        worst_init(&w);
        for (int r = 0; r < reps; r++) {
            hd_agl *P = malloc((size_t)m * sizeof *P);
            for (int j = 0; j < m; j++)
                P[j] = random_agl(n);
            hd_wu_static s;
            stamp a = now();
            int st = hd_wu_static_best(&t, P, m, nodes, &s);
            stamp b = now();
            worst_add(&w, a, b, s.nodes, s.cost);
            w.over += st == HD_ETOOBIG;
            free(P);
        }
        printf("%4d %4d  %9.3fs %9.3fs %10ld  %d .. %d, %d\n", n, m, w.cpu, w.wall, w.work,
               w.cost_min, w.cost_max, w.over);
    }
}

static void bench_sequences(int reps)
{
    printf("\nExact sequences (Chapter 3), k random transfers, %d runs each:\n", reps);
    printf("%-12s %3s %3s  %10s %10s %12s  %s\n", "algorithm", "n", "k", "cpu max", "wall max",
           "work max", "optimum (min .. max)");
    for (int alg = 0; alg < 2; alg++)
        for (int n = 2; n <= HD_WU_EXACT_MAX_DIM + 1; n++)
            for (int k = 2; k <= 8; k *= 2) {
                if (alg == 0 && k != 8)
                    continue;
                hd_target t = hd_target_omega(n);
                worst w;
                worst_init(&w);
                int status = HD_OK;
                for (int r = 0; r < reps && status == HD_OK; r++) {
                    hd_agl P[8];
                    for (int h = 0; h < k; h++)
                        P[h] = random_agl(n);
                    hd_wu_plan p;
                    stamp a = now();
                    status = alg ? hd_wu_algorithm1(&t, P, k, NULL, &p)
                                 : hd_wu_dp(&t, P, k, NULL, &p);
                    stamp b = now();
                    if (status == HD_OK) {
                        worst_add(&w, a, b, p.work, p.cost);
                        hd_wu_plan_free(&p);
                    }
                }
                if (status != HD_OK) {
                    printf("%-12s %3d %3d  refused: n > HD_WU_EXACT_MAX_DIM (status %d)\n",
                           alg ? "Algorithm I" : "DP", n, k, status);
                    break;
                }
                printf("%-12s %3d %3d  %9.3fs %9.3fs %12ld  %d .. %d\n", alg ? "Algorithm I" : "DP",
                       n, k, w.cpu, w.wall, w.work, w.cost_min, w.cost_max);
            }
}

static void bench_heuristics(int reps, long nodes)
{
    printf("\nHeuristics beyond the exact range, k different random transfers, %d runs each\n"
           "(Theorem 3.5: k-1 <= optimum <= 3k/2-1 even, (3k-1)/2 odd):\n", reps);
    printf("%-6s %3s %3s  %10s %10s  %s\n", "", "n", "k", "cpu max", "wall max",
           "cost (min .. max), bounds, runs stopped");
    int ns[6] = { 5, 8, 12, 16, 32, 64 };
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < 6; i++)
            for (int k = 8; k <= 16; k *= 2) {
                int n = ns[i];
                hd_target t = hd_target_omega(n);
                worst w;
                worst_init(&w);
                int stopped = 0;
                for (int r = 0; r < reps; r++) {
                    hd_agl P[16];
                    for (int j = 0; j < k; j++)
                        P[j] = random_agl(n);      /* different with certainty at these n */
                    hd_wu_plan p;
                    stamp a = now();
                    if (h)
                        hd_wu_runs(&t, P, k, nodes, &p);
                    else
                        hd_wu_pairs(&t, P, k, &p);
                    stamp b = now();
                    worst_add(&w, a, b, p.work, p.cost);
                    stopped += p.stopped;
                    hd_wu_plan_free(&p);
                }
                printf("%-6s %3d %3d  %9.3fs %9.3fs  %d .. %d, %d .. %d, %d\n",
                       h ? "runs" : "pairs", n, k, w.cpu, w.wall, w.cost_min, w.cost_max, k - 1,
                       upper_bound(k), stopped);
            }
    printf("\nAlgorithm II with the runs heuristic inside, 6 vectors of 4 transfers, each\n"
           "feeding an earlier one with probability 1/2:\n");
    printf("%3s  %10s %10s  %s\n", "n", "cpu max", "wall max", "cost against identity mappings");
    for (int n = 8; n <= 16; n += 8) {
        hd_target t = hd_target_omega(n);
        worst w;
        worst_init(&w);
        int ident = 0;
        for (int r = 0; r < reps; r++) {
            hd_wu_use use[6][4];
            hd_wu_vector v[6];
            for (int j = 0; j < 6; j++) {
                v[j].k = 4;
                v[j].use = use[j];
                for (int q = 0; q < 4; q++) {
                    use[j][q].P = random_agl(n);
                    bool feeds = j && next_random() % 2;
                    use[j][q].into = feeds ? (int)(next_random() % (uint64_t)j) : -1;
                }
            }
            hd_wu_alg2_options o = { 1, HD_WU_INNER_RUNS, nodes };
            hd_wu_program_plan pp;
            stamp a = now();
            hd_wu_algorithm2(&t, v, 6, &o, &pp);
            stamp b = now();
            worst_add(&w, a, b, pp.runs, pp.cost);
            if (pp.identity_cost > ident)
                ident = pp.identity_cost;
            hd_wu_program_plan_free(&pp);
        }
        printf("%3d  %9.3fs %9.3fs  %d .. %d (identity: up to %d)\n", n, w.cpu, w.wall, w.cost_min,
               w.cost_max, ident);
    }
}

int main(int argc, char **argv)
{
    int reps = 3, max_n = 32;
    long nodes = 2000000, run_nodes = 20000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            rng_state = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--nodes"))
            nodes = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--run-nodes"))
            run_nodes = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-n"))
            max_n = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: bench_wu_mapping [--reps R] [--seed S] [--nodes N] "
                            "[--run-nodes N] [--max-n N]\n");
            return 2;
        }
    }
    if (reps < 1 || nodes < 1 || run_nodes < 1 || max_n < 4) {
        fprintf(stderr, "bench_wu_mapping: --reps, --nodes, --run-nodes >= 1, --max-n >= 4\n");
        return 2;
    }
    printf("Wu 1984 data mappings: budgets (analysis/wu_mapping.c)\n");
    bench_sequences(reps);
    bench_static(reps, nodes, max_n);
    bench_heuristics(reps, run_nodes);
    return 0;
}
