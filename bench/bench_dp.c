/*
 * bench_dp.c — time of the Section 5 dynamic program (hd_optimize_set) for
 * m random LCCs, n = 8 .. 22, against two baselines measured in the same
 * run on the same sets:
 *   - the exhaustive search over n! orderings (hd_optimize_exhaustive),
 *     while it finishes within a few seconds;
 *   - a "paper" DP that prices every transition (S, j) by Gaussian
 *     elimination from scratch, as the O(m n^4 2^n) bound of Section 5
 *     assumes, while it finishes within a few seconds.
 * Every baseline's cost must equal the DP's; the program aborts otherwise.
 *
 * usage: bench_dp [--max-n N] [--m M] [--objective max|maxsum|sum]
 *                 [--seed S] [--budget SECONDS]
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static hd_matrix random_nonsingular(int n)
{
    hd_matrix a = hd_matrix_zero(n);
    do {
        for (int i = 0; i < n; i++)
            a.row[i] = next_random() & hd_mask(n);
    } while (hd_rank(&a) != n);
    return a;
}

/* Rank exactly `rank`: a rank-r projection between two random nonsingular
 * matrices. */
static hd_matrix random_matrix(int n, int rank)
{
    hd_matrix left = random_nonsingular(n), right = random_nonsingular(n);
    hd_matrix p = hd_matrix_zero(n);
    for (int i = 0; i < rank; i++)
        p.row[i] = UINT64_C(1) << i;
    hd_matrix t = hd_matrix_mul(&left, &p);
    return hd_matrix_mul(&t, &right);
}

/* One LCP, one LCG and one LCS, then again: the mix Example 5 has. */
static void random_set(hd_lcc *c, int m, int n)
{
    for (int r = 0; r < m; r++) {
        int kind = r % 3;
        c[r].dir = kind == 2 ? HD_SCATTER : HD_GATHER;
        c[r].A = random_matrix(n, kind == 0 ? n : n - 1 - (int)(next_random() % 2));
        c[r].b = next_random() & hd_mask(n);
    }
}

/* ------------------------------------------- the from-scratch baseline */

static uint64_t dim_cost_scratch(const hd_lcc *c, int m, int n,
                                 hd_objective obj, uint64_t u, int j, int i)
{
    uint64_t g = 0, full = hd_mask(n), jb = UINT64_C(1) << j;
    for (int r = 0; r < m; r++) {
        int e;
        if (hd_lcc_dim_is_fixed(&c[r], j))
            continue;
        if (c[r].dir == HD_GATHER) {
            e = i - hd_rank_sub(&c[r].A, u | jb, u);
        } else {
            uint64_t cset = full & ~u;
            e = (n - 1 - i) - hd_rank_sub(&c[r].A, cset, cset & ~jb);
        }
        uint64_t t = UINT64_C(1) << e;
        g = obj == HD_OBJ_MAX ? (t > g ? t : g) : g + t;
    }
    return g;
}

static uint64_t paper_dp(const hd_lcc *c, int m, int n, hd_objective obj)
{
    size_t states = (size_t)1 << n;
    uint64_t *f = malloc(states * sizeof *f);
    if (!f) {
        perror("bench_dp");
        exit(1);
    }
    f[0] = 0;
    for (size_t set = 1; set < states; set++) {
        int i = __builtin_popcountll(set) - 1;
        uint64_t best = UINT64_MAX;
        for (uint64_t s = set; s; s &= s - 1) {
            int j = __builtin_ctzll(s);
            uint64_t u = set & ~(UINT64_C(1) << j);
            uint64_t g = dim_cost_scratch(c, m, n, obj, u, j, i);
            uint64_t v = obj == HD_OBJ_SUM ? f[u] + g : (g > f[u] ? g : f[u]);
            if (v < best)
                best = v;
        }
        f[set] = best;
    }
    uint64_t cost = f[states - 1];
    free(f);
    return cost;
}

/* ------------------------------------------------------------- driver */

static void fail(const char *what, int n, uint64_t a, uint64_t b)
{
    fprintf(stderr, "bench_dp: n = %d: %s cost %llu differs from the DP's %llu\n",
            n, what, (unsigned long long)a, (unsigned long long)b);
    exit(1);
}

int main(int argc, char **argv)
{
    int max_n = 22, m = 3;
    double budget = 5.0;
    hd_objective obj = HD_OBJ_MAX;
    rng_state = 20261122;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--max-n") == 0 && a + 1 < argc)
            max_n = atoi(argv[++a]);
        else if (strcmp(argv[a], "--m") == 0 && a + 1 < argc)
            m = atoi(argv[++a]);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            rng_state = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--budget") == 0 && a + 1 < argc)
            budget = atof(argv[++a]);
        else if (strcmp(argv[a], "--objective") == 0 && a + 1 < argc &&
                 hd_objective_parse(argv[a + 1], &obj))
            a++;
        else {
            fprintf(stderr, "usage: bench_dp [--max-n N] [--m M] [--objective max|maxsum|sum] "
                            "[--seed S] [--budget SECONDS]\n");
            return 2;
        }
    }
    if (max_n > HD_DP_MAX_DIM || m < 1 || m > 64) {
        fprintf(stderr, "bench_dp: need 1 <= m <= 64 and --max-n <= %d\n", HD_DP_MAX_DIM);
        return 2;
    }

    printf("Section 5 DP, m = %d random LCCs (LCP, LCG, LCS, ...), objective %s\n",
           m, hd_objective_name(obj));
    printf("%3s %12s %7s %12s %9s %12s %9s\n", "n", "dp_s", "growth", "paper_dp_s",
           "speedup", "exhaust_s", "speedup");
    double prev = 0, paper_last = 0, exhaust_last = 0;
    for (int n = 8; n <= max_n; n++) {
        hd_lcc *c = calloc((size_t)m, sizeof *c);
        random_set(c, m, n);
        const hd_target target = hd_target_ecube(n);
        hd_order order;
        uint64_t cost = 0;
        int reps = n < 14 ? 20 : n < 18 ? 3 : 1;
        double t0 = now();
        for (int k = 0; k < reps; k++)
            if (hd_optimize_set(&target, c, m, obj, &order, &cost) != HD_OK) {
                fprintf(stderr, "bench_dp: n = %d: out of memory\n", n);
                return 1;
            }
        double dp = (now() - t0) / reps;
        if (prev > 0)
            printf("%3d %12.6f %7.2f", n, dp, dp / prev);
        else
            printf("%3d %12.6f %7s", n, dp, "-");
        prev = dp;

        /* A baseline runs while its previous size took under the budget
         * divided by its growth (2x and n x per added dimension). */
        if (paper_last * 2.2 < budget) {
            t0 = now();
            uint64_t pc = paper_dp(c, m, n, obj);
            paper_last = now() - t0;
            if (pc != cost)
                fail("paper DP", n, pc, cost);
            printf(" %12.6f %8.1fx", paper_last, paper_last / dp);
        } else {
            paper_last = 1e30;
            printf(" %12s %9s", "-", "-");
        }
        if (n <= HD_EXHAUSTIVE_MAX_DIM && exhaust_last * n < budget) {
            hd_order eo;
            uint64_t ec;
            t0 = now();
            hd_optimize_exhaustive(&target, c, m, obj, &eo, &ec);
            exhaust_last = now() - t0;
            if (ec != cost)
                fail("exhaustive", n, ec, cost);
            printf(" %12.6f %8.0fx", exhaust_last, exhaust_last / dp);
        } else {
            exhaust_last = 1e30;
            printf(" %12s %9s", "-", "-");
        }
        printf("\n");
        fflush(stdout);
        free(c);
    }
    return 0;
}
