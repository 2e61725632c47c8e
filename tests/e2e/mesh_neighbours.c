// e2e: dims 3-6
/*
 * mesh_neighbours.c: mesh64.c's program written as one would write it,
 * the neighbours summed by an inner loop, for (int k = 0; k < 8; k++)
 * (issue 17, item 1): over an owner table every remote read is a request
 * made before the body runs, here once per iteration and value of k (the
 * inner loop's bounds are constants and its body leaves k alone), under
 * the guards k < 8 and nb[i][k] >= 0.  The neighbour list changes between
 * time steps, so a kept round that missed the change would read the
 * wrong elements.  Chung and Ranka 1990's 8 x 8 grid on the 3-cube's
 * stripes, cubes 3..6 (processors past 7 own nothing).
 */
#include <stdio.h>

#define NX 8
#define NY 8
#define N (NX * NY)

const int part[N] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3,
    2, 2, 2, 2, 2, 2, 2, 2, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
    5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4
};

double u[N], v[N];
long tag[N];
int nb[N][8];
int deg[N];
double w = 0.5;
#pragma hyperdo distribute(u, v, tag : table(part))

static void neighbours(int shift)
{
    for (int e = 0; e < N; e++) {
        int cx = e % NX, cy = e / NX, k = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int ax = cx + dx, ay = cy + dy;
                if ((dx || dy) && ax >= 0 && ax < NX && ay >= 0 && ay < NY)
                    nb[e][k++] = ay * NX + ax;
            }
        deg[e] = k;
        /* Rotate the list: the same neighbours in another order, and for
         * shift > 0 one of them replaced by the node across the mesh. */
        for (int r = 0; r < shift % k; r++) {
            int first = nb[e][0];
            for (int j = 0; j + 1 < k; j++)
                nb[e][j] = nb[e][j + 1];
            nb[e][k - 1] = first;
        }
        if (shift)
            nb[e][0] = N - 1 - e;
        while (k < 8)
            nb[e][k++] = -1;
    }
}

int main(void)
{
    for (int e = 0; e < N; e++)
        v[e] = (e * 37 % 61) * 0.25;
    neighbours(0);
    for (int step = 0; step < 6; step++) {
        if (step == 3)
            neighbours(5);
        if (step == 5)
            w = 0.25;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
        {
            double s = 0;
            for (int k = 0; k < 8; k++)
                if (nb[i][k] >= 0)
                    s += v[nb[i][k]];
            u[i] = w * v[i] + (1 - w) / deg[i] * s;
        }
#pragma hyperdo doall
        for (int i = 0; i < N; i++) {
            v[i] = u[i];
            tag[i] = (long)(u[i] * 1000) ^ i;
        }
    }
    /* Fewer iterations than elements (55 of 64): each processor runs its
     * elements below 55; u[55..63] keep their values. */
#pragma hyperdo doall
    for (int i = 0; i < N - 9; i++)
        u[i] = v[(i + 9) % N] - v[i];
    double s = 0;
    long t = 0;
    for (int e = 0; e < N; e++) {
        s += (e + 1) * v[e] + (e % 5) * u[e];
        t += tag[e] * (e % 7);
    }
    printf("%.17g %.17g %.17g %ld\n", s, v[0], v[N - 1], t);
    return 0;
}
