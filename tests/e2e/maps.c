// e2e: dims 3-3
/*
 * Data mappings (Wu 1984, Section 1.2: element e of an array on processor
 * F(owner(e)) = A owner(e) + c) and remaps between doalls (Wu 1984,
 * Chapter 3's sequences of mappings), on the 3-cube, with matrices that
 * are no bit permutations and complements:
 *
 *   u  cyclic, rows(3, 6, 4) xor(2) from the start; a stream (u[i - 3])
 *      and an LCC family (u[i ^ mask]) read it under that mapping, and a
 *      branch maps it again (the doall after the branch runs under that
 *      mapping whichever way the branch went);
 *   v  cyclic, remapped twice and back by doalls that read it, its
 *      elements moving each time: identity -> rows(7, 2, 4) xor(5) ->
 *      rows(1, 3, 7) xor(1) -> identity; then read and changed by the
 *      host and mapped again by the last doall (the host's copy is the
 *      newest: the layout changes, nothing moves), so that the atexit
 *      handler reads it, gathered under that mapping, through main's exit
 *      path;
 *   w  block, file scope (its slices are runs of the host's copy on the
 *      threads back end until a remap gives it a layout that is no bit
 *      field): alternating two mappings inside a loop, so that the host
 *      remaps it at every change;
 *   r  a local array of a function called twice, mapped before its doall;
 *   s  exactly 2^3 elements (one per processor), read through a request
 *      (an index that is no GF(2)-affine map) under a mapping.
 *
 * The program must print what it prints as sequential C.
 */
#include <stdio.h>
#include <stdlib.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(3)

#define N 64

double u[N], v[N], w[N], z[N], s[8];
int q[N];
#pragma hyperdo distribute(u, v, z, q : cyclic)
#pragma hyperdo distribute(w : block)
#pragma hyperdo map(u : rows(3, 6, 4) xor(2))
#pragma hyperdo map(s : rows(6, 3, 1))

/* Sums the host computes, each naming its array (an array passed to a
 * function would escape: sent before and fetched after every doall, so
 * that no remap would ever move its elements). */
static double weighted_u(void)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e % 7 + 1) * u[e];
    return sum;
}

static double weighted_v(void)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e % 7 + 1) * v[e];
    return sum;
}

static double weighted_w(void)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e % 7 + 1) * w[e];
    return sum;
}

static double weighted_z(void)
{
    double sum = 0.0;
    for (int e = 0; e < N; e++)
        sum += (e % 7 + 1) * z[e];
    return sum;
}

/* t escapes (passed whole): the path where the host's copy is always the
 * newest, and a remap only changes the layout. */
static double weighted(const double *x, int n)
{
    double sum = 0.0;
    for (int e = 0; e < n; e++)
        sum += (e % 7 + 1) * x[e];
    return sum;
}

static void at_exit_handler(void)
{
    /* Runs after main returns: v must be home, whatever its mapping. */
    printf("at exit: v %.17g\n", weighted_v());
}

static double local_pass(int k)
{
    double r[N], t[N];
#pragma hyperdo distribute(r, t : cyclic)
    for (int i = 0; i < N; i++)
        r[i] = i * k + 1;
#pragma hyperdo map(r : rows(3, 5, 4) xor(6))
#pragma hyperdo map(t : rows(7, 2, 4))
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        t[i] = r[reverse(i, 6)] - r[i];
    return weighted(t, N);
}

int main(int argc, char **argv)
{
    (void)argv;
    atexit(at_exit_handler);
    for (int i = 0; i < N; i++) {
        u[i] = i;
        v[i] = 100 - i;
        w[i] = i * 0.5;
        q[i] = (i * 13 + 5) % N;
    }
    for (int i = 0; i < 8; i++)
        s[i] = 10 * i + 1;
    int mask = 9;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = 2 * u[i] + v[i] + s[i & 7];

#pragma hyperdo map(v : rows(7, 2, 4) xor(5))
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        z[i] = v[reverse(i, 6)] + u[i ^ mask] + (i >= 3 ? u[i - 3] : 0);

#pragma hyperdo map(v : rows(1, 3, 7) xor(1))
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = v[i] + z[N - 1 - i] + s[q[i] & 7];

#pragma hyperdo map(v : identity)
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        z[i] = v[i ^ 63] - v[(i * 5) & 63];
    printf("v %.17g z %.17g\n", weighted_v(), weighted_z());
    v[5] += 1000;   /* the host changes v: the last remap only relabels */

    /* Two mappings of w alternate: remapped at each change. */
    for (int step = 0; step < 3; step++) {
#pragma hyperdo map(w : rows(6, 3, 1) xor(3))
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            z[i] = w[i ^ 1] + w[transpose(i, 6)] + step;
#pragma hyperdo map(w : identity)
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            w[i] = z[i] * 0.5 + w[i];
        printf("step %d: w %.17g\n", step, weighted_w());
    }
    w[1] -= 3;   /* home, changed, sent back under the identity */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        z[i] = w[N - 1 - i];

    if (argc > 5) {
#pragma hyperdo map(u : rows(7, 2, 4))
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            u[i] = -u[i];
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        z[i] = z[i] + u[gray(i)];
    printf("u %.17g z %.17g\n", weighted_u(), weighted_z());

    printf("local %.17g %.17g\n", local_pass(2), local_pass(3));

#pragma hyperdo map(v : rows(3, 2, 4) xor(7))
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = z[i] + v[i];
    return 0;
}
