// e2e: dims 3-6
/*
 * A program over a finite element mesh (Chung and Ranka 1990): the 8 x 8
 * quad grid of the paper's sample 1, its nodes distributed by the owner
 * table `part` (the 2-way stripes mapping onto the 3-cube that `hyperdo
 * map grid:8x8 --dim 3` writes), each node averaged with its NB
 * neighbours (the nodes it shares a quad with) through a replicated
 * neighbour list.  The neighbour list changes between time steps, so a
 * kept inspector that missed the change would read the wrong elements
 * (docs/meshes.md, "Programs over meshes").  On a cube above 3 the
 * processors past 7 own nothing.
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
            u[i] = w * v[i] + (1 - w) / deg[i] *
                   ((nb[i][0] >= 0 ? v[nb[i][0]] : 0.0) + (nb[i][1] >= 0 ? v[nb[i][1]] : 0.0) +
                    (nb[i][2] >= 0 ? v[nb[i][2]] : 0.0) + (nb[i][3] >= 0 ? v[nb[i][3]] : 0.0) +
                    (nb[i][4] >= 0 ? v[nb[i][4]] : 0.0) + (nb[i][5] >= 0 ? v[nb[i][5]] : 0.0) +
                    (nb[i][6] >= 0 ? v[nb[i][6]] : 0.0) + (nb[i][7] >= 0 ? v[nb[i][7]] : 0.0));
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
