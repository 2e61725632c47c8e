// e2e: dims 3-5
/*
 * A program over a 505-node mesh (Chung and Ranka 1990's sample 3 has 505
 * nodes; its stand-in here is the 101 x 5 quad grid, docs/meshes.md),
 * distributed by the mapping file mesh505.map that `hyperdo map
 * grid:101x5 --dim 3 -o mesh505.map` writes, read when translating: the
 * loops have 505 iterations, not a power of two.  Each node is relaxed
 * towards the mean of its NB neighbours (the nodes it shares a quad with)
 * for a few time steps; the inspector runs in the first and is kept for
 * the others, whose messages are then exactly the paper's c_kl words
 * (tests/e2e/saf_phase.sh checks their time against `hyperdo cost`).
 */
#include <stdio.h>

#define NX 101
#define NY 5
#define N (NX * NY)

double x[N], y[N];
int nb[N][8];
#pragma hyperdo cube(3)
#pragma hyperdo distribute(x, y : table("mesh505.map"))

int main(void)
{
    for (int e = 0; e < N; e++) {
        int cx = e % NX, cy = e / NX, k = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int ax = cx + dx, ay = cy + dy;
                if ((dx || dy) && ax >= 0 && ax < NX && ay >= 0 && ay < NY)
                    nb[e][k++] = ay * NX + ax;
            }
        while (k < 8)
            nb[e][k++] = -1;
        y[e] = (e * 37 % 101) * 0.25;
    }
    for (int step = 0; step < 4; step++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            x[i] = 0.5 * y[i] + 0.0625 * ((nb[i][0] >= 0 ? y[nb[i][0]] : 0.0) +
                                          (nb[i][1] >= 0 ? y[nb[i][1]] : 0.0) +
                                          (nb[i][2] >= 0 ? y[nb[i][2]] : 0.0) +
                                          (nb[i][3] >= 0 ? y[nb[i][3]] : 0.0) +
                                          (nb[i][4] >= 0 ? y[nb[i][4]] : 0.0) +
                                          (nb[i][5] >= 0 ? y[nb[i][5]] : 0.0) +
                                          (nb[i][6] >= 0 ? y[nb[i][6]] : 0.0) +
                                          (nb[i][7] >= 0 ? y[nb[i][7]] : 0.0));
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            y[i] = x[i];
    }
    double s = 0;
    for (int e = 0; e < N; e++)
        s += (e + 1) * y[e];
    printf("%.17g %.17g %.17g %.17g\n", s, y[0], y[N / 2], y[N - 1]);
    return 0;
}
