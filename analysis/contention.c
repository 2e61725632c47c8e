/*
 * contention.c — channel contention of an LCC on the target network: the
 * dispatch on the target's kind, the e-cube wormhole hypercube's formulas
 * (Theorem 1 for gathers and permutations, its mirror image for scatters,
 * Theorem 2 after a reordering), and an independent path counter that
 * checks both.
 */
#include "analysis.h"

#include <stdlib.h>

int hd_target_next_hop(const hd_target *t, uint64_t at, uint64_t dst)
{
    uint64_t diff = (at ^ dst) & hd_mask(t->n);
    return diff ? __builtin_ctzll(diff) : -1;
}

/*
 * Theorem 1 (gather or permutation, y = A x + b): a path crosses the
 * dimension-i channel out of node z iff x_i..x_{n-1} = z_i..z_{n-1},
 * y_0..y_{i-1} = z_0..z_{i-1} and y_i = !z_i; the free unknowns are
 * x_0..x_{i-1} and the system's matrix is A_{L_{i+1}, L_i}, so
 *     T_i = 2^(i - rank(A_{L_{i+1}, L_i}))
 * unless no message changes bit i.
 *
 * Mirror image for a scatter x = A y + b (one message to every destination
 * y, from source A y + b), under the same ascending e-cube routing.
 *
 * Claim: T_i = 0 when row i of A is e_i and b_i = 0; otherwise
 *     T_i = 2^((n-1-i) - rank(A_{H_i, H_{i+1}})),  H_k = {k, ..., n-1}.
 *
 * Proof.  E-cube routing corrects bits in ascending order, so the path from
 * x to y crosses the dimension-i channel out of node z exactly when
 * x_i != y_i and z = [y_0 .. y_{i-1} x_i .. x_{n-1}]: the bits below i are
 * already the destination's, bit i and above still the source's.  Fix one
 * such channel (z, z with bit i flipped).  The messages using it are the
 * destinations y with
 *     y_k = z_k for k < i,   y_i = !z_i,               (1)
 *     (A y + b)_k = z_k for k = i .. n-1.             (2)
 * By (1) the bits y_0..y_i are fixed; the unknowns are y_{i+1}..y_{n-1}.
 * Equations (2) read
 *     A_{H_i, H_{i+1}} [y_{i+1} .. y_{n-1}]^t
 *         = [z_i .. z_{n-1}]^t + A_{H_i, L_{i+1}} [y_0 .. y_i]^t + b_{H_i},
 * a linear system over GF(2) with n-1-i unknowns, which has either no
 * solution or exactly 2^((n-1-i) - rank(A_{H_i, H_{i+1}})).  Every channel
 * of dimension i therefore carries either no path or that many.  Some
 * channel of dimension i carries a path iff some message has x_i != y_i,
 * i.e. iff (A y + b)_i = y_i fails for some y, i.e. iff row i of A is not
 * e_i or b_i = 1.  Hence the claim.  []
 *
 * Reversing the order of the address bits maps H_i to L_{n-i}, so a
 * scatter's T_i equals T_{n-1-i} of the gather with the same A and b after
 * the reversing mapping; the optimizers use that duality (optimize.c).
 */
static void ecube_contention(const hd_lcc *c, uint64_t T[])
{
    int n = c->A.n;
    for (int i = 0; i < n; i++) {
        int e;
        if (hd_lcc_dim_is_fixed(c, i)) {
            T[i] = 0;
            continue;
        }
        if (c->dir == HD_GATHER) {
            e = i - hd_rank_sub(&c->A, hd_mask(i + 1), hd_mask(i));
        } else {
            uint64_t high = hd_mask(n) & ~hd_mask(i);
            e = (n - 1 - i) - hd_rank_sub(&c->A, high, high & ~hd_mask(i + 1));
        }
        T[i] = UINT64_C(1) << e;
    }
}

/* Theorem 2: after the reordering o the contention is that of the LCC
 * with matrix Q A Q^-1 and vector Q b. */
static void ecube_contention_after(const hd_lcc *c, const hd_order *o, uint64_t T[])
{
    hd_lcc d = hd_lcc_reorder(c, o);
    ecube_contention(&d, T);
}

int hd_contention(const hd_target *t, const hd_lcc *c, uint64_t T[])
{
    if (c->A.n != t->n)
        return HD_EINVAL;
    switch (t->kind) {
    case HD_TARGET_ECUBE_HYPERCUBE:
        ecube_contention(c, T);
        return HD_OK;
    case HD_TARGET_OMEGA:
    case HD_TARGET_BUTTERFLY:   /* counted in passes: omega.c */
        break;
    }
    return HD_EINVAL;
}

int hd_contention_after(const hd_target *t, const hd_lcc *c, const hd_order *o,
                        uint64_t T[])
{
    if (c->A.n != t->n || o->n != t->n)
        return HD_EINVAL;
    switch (t->kind) {
    case HD_TARGET_ECUBE_HYPERCUBE:
        ecube_contention_after(c, o, T);
        return HD_OK;
    case HD_TARGET_OMEGA:
    case HD_TARGET_BUTTERFLY:   /* counted in passes: omega.c */
        break;
    }
    return HD_EINVAL;
}

uint64_t hd_contention_degree(const uint64_t T[], int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        if (T[i] > m)
            m = T[i];
    return m;
}

/* Walks every message's path one hop at a time and counts, per channel
 * (node, dimension), the paths through it. */
int hd_channel_loads(const hd_target *net, const hd_lcc *c, uint64_t T[])
{
    int n = net->n;
    if (n < 1 || n > HD_BRUTE_MAX_DIM || c->A.n != n)
        return n > HD_BRUTE_MAX_DIM ? HD_ETOOBIG : HD_EINVAL;
    uint64_t nodes = UINT64_C(1) << n;
    uint32_t *load = hd_xcalloc(nodes * (uint64_t)n, sizeof *load);
    for (uint64_t t = 0; t < nodes; t++) {
        uint64_t at, dst;
        hd_lcc_message(c, t, &at, &dst);
        for (int d; (d = hd_target_next_hop(net, at, dst)) >= 0; at ^= UINT64_C(1) << d)
            load[at * n + d]++;
    }
    for (int d = 0; d < n; d++)
        T[d] = 0;
    for (uint64_t z = 0; z < nodes; z++)
        for (int d = 0; d < n; d++)
            if (load[z * n + d] > T[d])
                T[d] = load[z * n + d];
    free(load);
    return HD_OK;
}
