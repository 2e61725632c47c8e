/*
 * counts.c — doalls whose messages tests/codegen/node/node_test.c counts through
 * the simulation back end's report and compares with a count made from
 * the index maps alone.  2^10 elements, any cube of 1 to 5 dimensions.
 *
 * Doall  reads                                      layout of the read array
 *   0    r[reverse(i, 10)]             bit reversal       block
 *   1    m[transpose(i, 10)]           32 x 32 transpose  block
 *   2    x[i ^ 512] twice              one index twice    block
 *   3    a[i >> 3]                     8 iterations, 1 element   block
 *   4    pt[N-1-i].x, .v[0], .v[1], .id   members of one element  block
 *   5    a[5] + a[5]                   one element for all   block
 *   6    a[q[i]]                       through a distributed index  (requests)
 *   7    i >= d ? a[i - d] : 0         guarded, d an outer scalar  (a stream)
 *   8    x[i ^ mask]                   an LCC family, mask = 300 an outer scalar
 *   9    m2[I][i & 31]                 an LCC family, I = 7 (m2 is 32 x 32)
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 1024

typedef struct {
    double x;
    double v[2];
    long id;
    int pad;
} point;

double r[N], b[N], m[N], t[N], x[N], c[N], a[N], d2[N], e[N], f[N], g[N], h[N];
double fm[N], fr[N], m2[32][32];
int q[N];
point pt[N];
#pragma hyperdo distribute(r, b, m, t, x, c, a, d2, e, f, g, h, q, pt, fm, fr, m2 : block)

int main(void)
{
    for (int i = 0; i < N; i++) {
        r[i] = i;
        m[i] = 3 * i;
        x[i] = i % 7;
        a[i] = i * 0.5;
        q[i] = (i * 37 + 11) % N;
        pt[i].x = i;
        pt[i].v[0] = 2 * i;
        pt[i].v[1] = -i;
        pt[i].id = i * 3;
        pt[i].pad = 0;
        m2[i / 32][i % 32] = i * 0.25;
    }
    int d = 3, mask = 300, I = 7;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = r[reverse(i, 10)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        t[i] = m[transpose(i, 10)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = x[i ^ 512] * 2 + x[i ^ 512];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        d2[i] = a[i >> 3];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        e[i] = pt[N - 1 - i].x + pt[N - 1 - i].v[0] + pt[N - 1 - i].v[1] + pt[N - 1 - i].id;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f[i] = a[5] + a[5];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        g[i] = a[q[i]];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        h[i] = i >= d ? a[i - d] : 0;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        fm[i] = x[i ^ mask];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        fr[i] = m2[I][i & 31];
    double s = 0;
    for (int i = 0; i < N; i++)
        s += (b[i] + t[i] + c[i] + d2[i] + e[i] + f[i] + g[i] + h[i] + fm[i] + fr[i]) * (i % 5 + 1);
    printf("%.17g\n", s);
    return 0;
}
