/*
 * wu_table3.c — Wu 1984, Table III rerun (Section 4.3): Algorithm IV, the
 * heuristic for statements that read each other's results, against the
 * exact optimum, on random programs of Table III's design: three full
 * binary trees of four leaves each, every leaf of a tree reading the same
 * vector through its own logical transfer (all four different), tree 1
 * reading an input, trees 2 and 3 the result of the tree before (v_2,
 * v_3), so that a tree's result alignment changes the next tree's leaf
 * transfers to P A^-1 (Section 4.1).  n = 3 (the thesis does not say its
 * n; the exact optimum enumerates AGL(3,2)).
 *
 * Both the thesis's free roots and Hyperdo's owner computes (the last
 * statement's root fixed to the identity; the two results read later stay
 * free: their alignment is their data mapping), Algorithm IV with limit
 * = 1, 4 and every optimal root alignment, on the omega network (III/IV)
 * and the butterfly (VII/VIII).  The exact optimum is
 * hd_align_program_exact (a dynamic program over the results' alignments).
 *
 *     wu_table3 [--programs P] [--seed S] [--network omega|butterfly]
 *               [--list K]
 *
 * Prints Markdown: the first K programs as Table III prints them (optimum,
 * heuristic), then the distribution of the gap over P programs.
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 3, TREES = 3, LEAVES = 4 };

static uint64_t rng_state;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

static hd_agl random_agl(void)
{
    hd_agl p = { hd_matrix_zero(N), 0 };
    do {
        for (int i = 0; i < N; i++)
            p.A.row[i] = next_random() & hd_mask(N);
    } while (hd_rank(&p.A) != N);
    p.b = next_random() & hd_mask(N);
    return p;
}

/* One program: trees[j] of four different transfers, reading v_j. */
static void random_program(hd_align_tree trees[TREES])
{
    for (int j = 0; j < TREES; j++) {
        hd_agl p[LEAVES];
        for (int k = 0; k < LEAVES; k++) {
            bool fresh;
            do {
                p[k] = random_agl();
                fresh = true;
                for (int i = 0; i < k; i++)
                    fresh &= !hd_agl_equal(&p[i], &p[k]);
            } while (!fresh);
        }
        hd_align_tree_init(&trees[j], N);
        int leaf[LEAVES];
        for (int k = 0; k < LEAVES; k++) {
            leaf[k] = hd_align_leaf(&trees[j], &p[k]);
            trees[j].node[leaf[k]].reads = j - 1;
        }
        int a = hd_align_op(&trees[j], leaf[0], leaf[1]);
        int b = hd_align_op(&trees[j], leaf[2], leaf[3]);
        hd_align_op(&trees[j], a, b);
    }
}

enum { LIMITS = 3, MAXGAP = 8 };
static const int limits[LIMITS] = { 1, 4, 1 << 20 };
static const char *const limit_names[LIMITS] = { "1", "4", "all" };

typedef struct {
    long programs, equal[LIMITS], gap[LIMITS][MAXGAP + 1];
    long sum_opt, sum_heur[LIMITS], largest[LIMITS];
    long tried[LIMITS];
} tally;

static void fail(const char *what, int rc)
{
    fprintf(stderr, "wu_table3: %s: status %d\n", what, rc);
    exit(1);
}

int main(int argc, char **argv)
{
    long programs = 1000, list = 5;
    uint64_t seed = 1984;
    const char *network = "omega";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--programs") && i + 1 < argc)
            programs = atol(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--network") && i + 1 < argc)
            network = argv[++i];
        else if (!strcmp(argv[i], "--list") && i + 1 < argc)
            list = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: wu_table3 [--programs P] [--seed S] "
                            "[--network omega|butterfly] [--list K]\n");
            return 2;
        }
    }
    hd_target t;
    if (!hd_target_parse(network, N, &t) || t.kind == HD_TARGET_ECUBE_HYPERCUBE) {
        fprintf(stderr, "wu_table3: the network is omega or butterfly\n");
        return 2;
    }
    rng_state = seed;
    hd_agl_group *g;
    int rc = hd_agl_group_new(N, &g);
    if (rc != HD_OK)
        fail("the group", rc);
    hd_agl identity = hd_agl_identity(N);
    tally tl[2];
    memset(tl, 0, sizeof tl);
    printf("## Wu 1984, Table III rerun: %s network, n = %d, %ld random programs (seed %llu)\n\n",
           network, N, programs, (unsigned long long)seed);
    printf("Each program: three full binary trees of four leaves, tree z+1 reading the result of "
           "tree z through four different transfers.  Algorithm %s (limit = %s) against the exact "
           "optimum.\n\n", t.kind == HD_TARGET_OMEGA ? "IV" : "VIII", "all");
    printf("| program | optimum | heuristic (free roots, Wu 1984) | optimum | heuristic (last root "
           "fixed, owner computes) |\n|---|---|---|---|---|\n");
    for (long p = 0; p < programs; p++) {
        hd_align_tree trees[TREES];
        random_program(trees);
        int cost[2][1 + LIMITS];
        for (int variant = 0; variant < 2; variant++) {
            hd_align_stmt s[TREES];
            for (int j = 0; j < TREES; j++) {
                s[j].tree = &trees[j];
                s[j].fixed_root = variant && j == TREES - 1 ? &identity : NULL;
            }
            hd_align_program_result exact, heur;
            rc = hd_align_program_exact(g, &t, s, TREES, &exact);
            if (rc != HD_OK)
                fail("the exact optimum", rc);
            cost[variant][0] = exact.cost;
            tally *a = &tl[variant];
            a->programs++;
            a->sum_opt += exact.cost;
            for (int l = 0; l < LIMITS; l++) {
                rc = hd_align_program(&t, s, TREES, limits[l], &heur);
                if (rc != HD_OK)
                    fail("Algorithm IV", rc);
                int gap = heur.cost - exact.cost;
                if (gap < 0)
                    fail("the heuristic below the optimum", gap);
                cost[variant][1 + l] = heur.cost;
                a->equal[l] += gap == 0;
                a->gap[l][gap > MAXGAP ? MAXGAP : gap]++;
                a->sum_heur[l] += heur.cost;
                if (gap > a->largest[l])
                    a->largest[l] = gap;
                for (int j = 0; j < TREES; j++)
                    a->tried[l] += heur.tried[j];
                hd_align_program_free(&heur);
            }
            hd_align_program_free(&exact);
        }
        if (p < list)
            printf("| %ld | %d | %d | %d | %d |\n", p + 1, cost[0][0], cost[0][LIMITS],
                   cost[1][0], cost[1][LIMITS]);
        for (int j = 0; j < TREES; j++)
            hd_align_tree_free(&trees[j]);
    }
    printf("\nWu 1984's Table III (5 programs): optimum 15, 14, 14, 13, 13; heuristic 15, 14, 14, "
           "13, 14.\n\n");
    printf("| roots | limit | heuristic = optimum | gap 1 | gap 2 | gap >= 3 | largest gap | mean "
           "optimum | mean heuristic | root alignments tried per program |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int variant = 0; variant < 2; variant++)
        for (int l = 0; l < LIMITS; l++) {
            const tally *a = &tl[variant];
            long ge3 = 0;
            for (int k = 3; k <= MAXGAP; k++)
                ge3 += a->gap[l][k];
            printf("| %s | %s | %ld (%.1f %%) | %ld | %ld | %ld | %ld | %.2f | %.2f | %.1f |\n",
                   variant ? "last fixed" : "free", limit_names[l], a->equal[l],
                   100.0 * a->equal[l] / a->programs, a->gap[l][1], a->gap[l][2], ge3,
                   a->largest[l], (double)a->sum_opt / a->programs,
                   (double)a->sum_heur[l] / a->programs, (double)a->tried[l] / a->programs);
        }
    hd_agl_group_free(g);
    return 0;
}
