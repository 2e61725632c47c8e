/*
 * bench_wu_align.c — what Wu 1984's alignment algorithms handle in a time
 * budget (docs/omega-align.md): Algorithm III (hd_align_optimal) on
 * random full expression trees of r leaves, all transfers different, for
 * n = 2 .. max-n, r = 2, 4, 8, ... until a tree takes longer than the
 * budget or the search stops at HD_ALIGN_MAX_CANDIDATES (HD_ETOOBIG);
 * each size `reps` times with the root free (Wu 1984) and fixed to the
 * identity (owner computes).  For n <= 3 also the reference dynamic
 * program (hd_align_dp) on the same trees, whose cost must equal III's
 * (the program stops otherwise).  Then Algorithm IV on chains of z trees
 * of four leaves (z = 3: Table III's design), and for n <= 3 the exact
 * optimum of the chain (hd_align_program_exact).
 *
 * CPU time is the process's user + system time (getrusage) around each
 * call, wall time the monotonic clock; both are printed as the mean and
 * the largest over the repetitions.  The machine is shared: run it alone.
 *
 *     bench_wu_align [--max-n N] [--reps R] [--budget SECONDS] [--limit L]
 *                    [--seed S]
 */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t rng_state;

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

/* A full binary tree of r leaves (r a power of two), transfers all
 * different (Theorem 4.6's trees); `reads` set on every leaf. */
static void full_tree(hd_align_tree *t, int n, int r, int reads)
{
    hd_agl *p = malloc((size_t)r * sizeof *p);
    for (int k = 0; k < r; k++) {
        bool fresh;
        do {
            p[k] = random_agl(n);
            fresh = true;
            for (int j = 0; j < k; j++)
                fresh &= !hd_agl_equal(&p[j], &p[k]);
        } while (!fresh);
    }
    hd_align_tree_init(t, n);
    int *level = malloc((size_t)r * sizeof *level), width = r;
    for (int k = 0; k < r; k++) {
        level[k] = hd_align_leaf(t, &p[k]);
        t->node[level[k]].reads = reads;
    }
    while (width > 1) {
        for (int k = 0; k < width / 2; k++)
            level[k] = hd_align_op(t, level[2 * k], level[2 * k + 1]);
        width /= 2;
    }
    free(level);
    free(p);
}

typedef struct {
    double cpu, wall;
} stamp;

static stamp now(void)
{
    struct rusage u;
    struct timespec ts;
    getrusage(RUSAGE_SELF, &u);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    stamp s = { u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec +
                    u.ru_stime.tv_usec * 1e-6,
                ts.tv_sec + ts.tv_nsec * 1e-9 };
    return s;
}

typedef struct {
    double cpu_sum, cpu_max, wall_sum, wall_max;
    int runs, toobig, widest, all_cosets;
} times;

static void add_time(times *t, stamp a, stamp b)
{
    double c = b.cpu - a.cpu, w = b.wall - a.wall;
    t->cpu_sum += c;
    t->wall_sum += w;
    if (c > t->cpu_max)
        t->cpu_max = c;
    if (w > t->wall_max)
        t->wall_max = w;
    t->runs++;
}

static void print_row(int n, int r, const char *what, const times *t)
{
    printf("| %d | %d | %s | %d | %.4f | %.4f | %.4f | %.4f | %d | %d | %d |\n", n, r, what, t->runs,
           t->runs ? t->cpu_sum / t->runs : 0, t->cpu_max, t->runs ? t->wall_sum / t->runs : 0,
           t->wall_max, t->widest, t->all_cosets, t->toobig);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int max_n = 7, reps = 5, limit = 16;
    double budget = 10;
    uint64_t seed = 1984;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-n") && i + 1 < argc)
            max_n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
            limit = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: bench_wu_align [--max-n N] [--reps R] [--budget SECONDS] "
                            "[--limit L] [--seed S]\n");
            return 2;
        }
    }
    rng_state = seed;
    printf("## Algorithm III (Wu 1984) on random full trees, omega network, %d repetitions, budget "
           "%.0f s (seed %llu)\n\n", reps, budget, (unsigned long long)seed);
    printf("| n | leaves | root | runs | CPU mean (s) | CPU max (s) | wall mean (s) | wall max (s) | "
           "most candidates at a node | most cosets in one All | HD_ETOOBIG |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int n = 2; n <= max_n; n++) {
        hd_target t = hd_target_omega(n);
        hd_agl I = hd_agl_identity(n);
        hd_agl_group *g = NULL;
        if (n <= HD_ALIGN_GROUP_MAX_DIM && hd_agl_group_new(n, &g) != HD_OK)
            return 1;
        /* Different transfers need r <= |AGL(n,2)| = 2^n prod (2^n - 2^i). */
        double agl = 1;
        for (int i = 0; i < n; i++)
            agl *= (double)((1 << n) - (1 << i));
        agl *= 1 << n;
        for (int r = 2; r <= 1024 && r <= agl; r *= 2) {
            times tm[3];
            memset(tm, 0, sizeof tm);
            for (int k = 0; k < reps; k++) {
                hd_align_tree tr;
                full_tree(&tr, n, r, -1);
                int cost[2] = { -1, -1 };
                for (int f = 0; f < 2; f++) {
                    hd_alignment a;
                    stamp s0 = now();
                    int rc = hd_align_optimal(&t, &tr, f ? &I : NULL, &a);
                    stamp s1 = now();
                    if (rc == HD_ETOOBIG) {
                        tm[f].toobig++;
                        continue;
                    }
                    if (rc != HD_OK)
                        return 1;
                    add_time(&tm[f], s0, s1);
                    if (a.widest > tm[f].widest)
                        tm[f].widest = a.widest;
                    if (a.all_cosets > tm[f].all_cosets)
                        tm[f].all_cosets = a.all_cosets;
                    cost[f] = a.cost;
                    hd_alignment_free(&a);
                }
                if (g && cost[0] >= 0) {
                    hd_alignment a;
                    stamp s0 = now();
                    if (hd_align_dp(g, &t, &tr, NULL, &a, NULL) != HD_OK)
                        return 1;
                    add_time(&tm[2], s0, now());
                    if (a.cost != cost[0]) {
                        fprintf(stderr, "bench_wu_align: III %d, DP %d\n", cost[0], a.cost);
                        return 1;
                    }
                    hd_alignment_free(&a);
                }
                hd_align_tree_free(&tr);
            }
            print_row(n, r, "free", &tm[0]);
            print_row(n, r, "fixed I", &tm[1]);
            if (g)
                print_row(n, r, "free, reference DP", &tm[2]);
            bool over = tm[0].wall_max > budget || tm[1].wall_max > budget || tm[0].toobig ||
                        tm[1].toobig;
            if (over || r >= 256)
                break;
        }
        hd_agl_group_free(g);
    }
    /* Algorithm IV on chains of z trees of four leaves (Table III's
     * design when z = 3) with `limit` tries (every optimal root: n = 3
     * only, a coset of cost Min holds 2^((n^2+n)/2) of them), and the
     * exact optimum of the chain for n <= 3. */
    printf("\n## Algorithm IV and the exact optimum of a chain of z trees of 4 leaves\n\n"
           "| n | trees | algorithm | runs | CPU mean (s) | CPU max (s) | wall mean (s) | wall max "
           "(s) | mean cost |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int n = 3; n <= max_n; n++) {
        hd_target t = hd_target_omega(n);
        hd_agl_group *g = NULL;
        if (n <= HD_ALIGN_GROUP_MAX_DIM && hd_agl_group_new(n, &g) != HD_OK)
            return 1;
        for (int z = 3; z <= 24; z *= 2) {
            times tm[3];
            long costs[3] = { 0, 0, 0 };
            memset(tm, 0, sizeof tm);
            bool over = false;
            for (int k = 0; k < reps; k++) {
                hd_align_tree *tr = malloc((size_t)z * sizeof *tr);
                hd_align_stmt *st = malloc((size_t)z * sizeof *st);
                for (int j = 0; j < z; j++) {
                    full_tree(&tr[j], n, 4, j - 1);
                    st[j].tree = &tr[j];
                    st[j].fixed_root = NULL;
                }
                for (int e = 0; e < 3; e++) {
                    if (e > 0 && !g)
                        continue;
                    hd_align_program_result r;
                    stamp s0 = now();
                    int rc = e == 2 ? hd_align_program_exact(g, &t, st, z, &r)
                                    : hd_align_program(&t, st, z, e ? 1 << 30 : limit, &r);
                    stamp s1 = now();
                    if (rc == HD_ETOOBIG) {
                        tm[e].toobig++;
                        continue;
                    }
                    if (rc != HD_OK)
                        return 1;
                    add_time(&tm[e], s0, s1);
                    costs[e] += r.cost;
                    hd_align_program_free(&r);
                }
                for (int j = 0; j < z; j++)
                    hd_align_tree_free(&tr[j]);
                free(tr);
                free(st);
            }
            for (int e = 0; e < (g ? 3 : 1); e++) {
                const times *q = &tm[e];
                char what[64];
                if (e == 0)
                    snprintf(what, sizeof what, "Algorithm IV, limit %d", limit);
                printf("| %d | %d | %s | %d | %.4f | %.4f | %.4f | %.4f | %.2f |\n", n, z,
                       e == 2 ? "exact (chain DP)" : e ? "Algorithm IV, every optimal root" : what,
                       q->runs,
                       q->runs ? q->cpu_sum / q->runs : 0, q->cpu_max,
                       q->runs ? q->wall_sum / q->runs : 0, q->wall_max,
                       q->runs ? (double)costs[e] / q->runs : 0);
                over |= q->wall_max > budget || q->toobig;
            }
            fflush(stdout);
            if (over)
                break;
        }
        hd_agl_group_free(g);
    }
    return 0;
}
