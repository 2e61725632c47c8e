/*
 * omega_map.c — one processor mapping for a whole program on an
 * omega-class network: F in GL(n, 2) with the fewest passes in all, each
 * communication P becoming F P F^-1 between physical processors.  Wu 1984
 * (Section 1.3) states this static problem after Kung and Stevenson 1977
 * and then solves a richer one, a mapping per vector (wu_mapping.c); a
 * translated program moves every array with its processor, so its
 * communications are conjugated by one F, and that is what the plan
 * chooses here.
 *
 * The complement part of an affine F never matters: conjugating by a
 * translation leaves A unchanged, and D depends on b only when A = I,
 * where F's translation cancels (A c + c = 0).  So F is linear.
 */
#include "analysis.h"

#include <stdlib.h>

static uint64_t mapped_passes(const hd_target *t, const hd_lcc *c, const hd_mapping *f)
{
    hd_lcc m = hd_lcc_mapped(c, f);
    hd_omega_price pr;
    hd_omega_price_lcc(t, &m, &pr);   /* the caller checked kind and dimension */
    return pr.passes;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t total(const hd_target *t, const hd_lcc *const *c, const uint64_t *weight,
                      int m, const hd_matrix *F)
{
    hd_mapping f;
    if (!hd_mapping_affine(F, 0, &f))
        return UINT64_MAX;
    uint64_t sum = 0;
    for (int r = 0; r < m; r++)
        sum = add_sat(sum, mul_sat(weight[r], mapped_passes(t, c[r], &f)));
    return sum;
}

uint64_t hd_omega_mapped_passes(const hd_target *t, const hd_lcc *const *c,
                                const uint64_t *weight, int m, const hd_matrix *F)
{
    return total(t, c, weight, m, F);
}

/* Every nonsingular n x n matrix, the identity's cost first so that it
 * wins ties (a program no mapping improves keeps its numbering). */
static void exact(const hd_target *t, const hd_lcc *const *c, const uint64_t *weight, int m,
                  hd_matrix *F, uint64_t *best)
{
    int n = t->n;
    for (uint64_t code = 0; code < (UINT64_C(1) << (n * n)); code++) {
        hd_matrix q = hd_matrix_zero(n);
        for (int i = 0; i < n; i++)
            q.row[i] = code >> (i * n) & hd_mask(n);
        if (hd_rank(&q) < n)
            continue;
        uint64_t v = total(t, c, weight, m, &q);
        if (v < *best) {
            *best = v;
            *F = q;
        }
    }
}

/* The best of the n (n - 1) elementary transvections
 * F <- (I + e_i e_j^T) F, or with `pairs` of two of them, if it is below
 * *best; they generate GL(n, 2). */
static bool improve(const hd_target *t, const hd_lcc *const *c, const uint64_t *weight, int m,
                    hd_matrix *F, uint64_t *best, bool pairs)
{
    int n = t->n;
    hd_matrix step = *F;
    uint64_t v_best = *best;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue;
            hd_matrix q = *F;
            q.row[i] ^= q.row[j];
            for (int i2 = pairs ? 0 : n; i2 < n + !pairs; i2++)
                for (int j2 = pairs ? 0 : n; j2 < n + !pairs; j2++) {
                    if (pairs && i2 == j2)
                        continue;
                    hd_matrix q2 = q;
                    if (pairs)
                        q2.row[i2] ^= q2.row[j2];
                    uint64_t v = total(t, c, weight, m, &q2);
                    if (v < v_best) {
                        v_best = v;
                        step = q2;
                    }
                }
        }
    if (v_best >= *best)
        return false;
    *best = v_best;
    *F = step;
    return true;
}

/* A fixed sequence of pseudo-random numbers (splitmix64), so that a
 * translation is the same every run. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The landscape is flat (each D is 0, 1 or 2) and single steps rarely
 * help, but a random nonsingular F makes a given permutation one pass
 * with probability about prod (1 - 2^-k) ~ 0.29 (the share of U L among
 * nonsingular matrices), so sampling finds the mappings that make a few
 * LCCs one pass at once.  HD_OMEGA_SAMPLES of them (from a fixed seed),
 * the identity first, then from the best the best single step while one
 * lowers the total, a pair of steps when none does; every step lowers a
 * non-negative integer, so it stops. */
static void descend(const hd_target *t, const hd_lcc *const *c, const uint64_t *weight, int m,
                    hd_matrix *F, uint64_t *best)
{
    int n = t->n;
    uint64_t state = 1;
    for (int k = 0; k < HD_OMEGA_SAMPLES && *best > 0; k++) {
        hd_matrix q = hd_matrix_zero(n);
        for (int i = 0; i < n; i++)
            q.row[i] = next_random(&state) & hd_mask(n);
        if (hd_rank(&q) < n)
            continue;
        uint64_t v = total(t, c, weight, m, &q);
        if (v < *best) {
            *best = v;
            *F = q;
        }
    }
    while (improve(t, c, weight, m, F, best, false) || improve(t, c, weight, m, F, best, true))
        ;
}

int hd_omega_choose_mapping(const hd_target *t, const hd_lcc *const *c,
                            const uint64_t *weight, int m, hd_matrix *F, uint64_t *passes)
{
    if (t->kind != HD_TARGET_OMEGA && t->kind != HD_TARGET_BUTTERFLY)
        return HD_EINVAL;
    for (int r = 0; r < m; r++)
        if (c[r]->A.n != t->n)
            return HD_EINVAL;
    *F = hd_matrix_identity(t->n);
    *passes = total(t, c, weight, m, F);
    if (t->n <= HD_OMEGA_EXACT_MAX_DIM)
        exact(t, c, weight, m, F, passes);
    else
        descend(t, c, weight, m, F, passes);
    return HD_OK;
}
