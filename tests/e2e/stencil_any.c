// e2e: dims 1-8
/*
 * A guarded 3-point stencil over N = 100 points, an extent that is no
 * power of two: HPF's BLOCK puts ceil(100 / P) consecutive points on each
 * processor (13 on the 3-cube, the last 9; on the 7-cube one each and 28
 * processors with none), and the two ends keep their values.  No
 * GF(2)-affine map gives the owners, so the neighbours' values are
 * gathered table-driven (docs/annotations.md, "Arrays of any extent").
 * 12 sweeps alternate u and v; between sweeps the host re-imposes a hot
 * spot (so the processors must get the host's element again) and every
 * fourth sweep it changes the weight w that the body reads (a kept
 * inspection must still see the new value).  A second stencil over a
 * cyclic array of 77 points reads its neighbours around a ring.  Then
 * the interior alone, for (i = 1; i < N - 1; i++), over a range that is
 * no power of two either: the ends are never visited (the host sets them
 * between sweeps), and the range's first and last elements read their
 * neighbours across processors.
 */
#include <stdio.h>

#define N 100
#define M 77

double u[N], v[N];
#pragma hyperdo distribute(u, v : block)
double ring[M], next[M];
#pragma hyperdo distribute(ring, next : cyclic)

int main(void)
{
    double w = 0.5;
    for (int e = 0; e < N; e++)
        u[e] = (e % 9) * 0.25 - (e % 4);
    for (int e = 0; e < M; e++)
        ring[e] = (e * 13 % 17) - 8.0;
    for (int sweep = 0; sweep < 12; sweep++) {
        if (sweep % 4 == 3)
            w = 0.5 + sweep * 0.01;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            v[i] = (i > 0 && i < N - 1) ? w * u[i] + (1 - w) * 0.5 * (u[i - 1] + u[i + 1]) : u[i];
        v[N / 3] = 10.0;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            u[i] = (i > 0 && i < N - 1) ? w * v[i] + (1 - w) * 0.5 * (v[i - 1] + v[i + 1]) : v[i];
#pragma hyperdo doall
        for (int i = 0; i < M; i++)
            next[i] = (ring[(i + M - 1) % M] + 2 * ring[i] + ring[(i + 1) % M]) / 4;
#pragma hyperdo doall
        for (int i = 0; i < M; i++)
            ring[i] = next[i] + u[i % N] * 0.125;
    }
    for (int sweep = 0; sweep < 5; sweep++) {
        u[0] = -1.0 - sweep;
        u[N - 1] = 2.0 * sweep;
#pragma hyperdo doall
        for (int i = 1; i < N - 1; i++)
            v[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
#pragma hyperdo doall
        for (int i = 1; i < N - 1; i++)
            u[i] = (v[i - 1] + 2 * v[i] + v[i + 1]) / 4;
    }
    double su = 0, sr = 0;
    for (int e = 0; e < N; e++) {
        printf("%s%.6f", e % 10 ? " " : e ? "\n" : "", u[e]);
        su += u[e] * (e + 1);
    }
    printf("\n");
    for (int e = 0; e < M; e++) {
        printf("%s%.6f", e % 11 ? " " : e ? "\n" : "", ring[e]);
        sr += ring[e] * (e + 1);
    }
    printf("\nweighted sums %.17g %.17g\n", su, sr);
    return 0;
}
