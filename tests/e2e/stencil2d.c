// e2e: dims 2-8
/*
 * A Jacobi relaxation on a 16 x 16 torus: every point becomes the mean of
 * its four neighbours, m[(r +- 1) & 15][c] and m[r][(c +- 1) & 15]
 * (general communications: the +- carry), 20 sweeps with the two grids
 * alternating, a fixed hot spot re-imposed by the host between sweeps.
 * Block layout: whole rows per processor up to the 4-cube, parts of rows
 * beyond.
 */
#include <stdio.h>

double g[16][16], h[16][16];
#pragma hyperdo distribute(g, h : block)

int main(void)
{
    g[3][4] = 100.0;
    g[12][9] = -40.0;
    for (int sweep = 0; sweep < 10; sweep++) {
#pragma hyperdo doall
        for (int i = 0; i < 256; i++)
            h[i >> 4][i & 15] = 0.25 * (g[((i >> 4) + 1) & 15][i & 15] + g[((i >> 4) + 15) & 15][i & 15]
                                        + g[i >> 4][((i & 15) + 1) & 15] + g[i >> 4][((i & 15) + 15) & 15]);
        h[3][4] = 100.0;
#pragma hyperdo doall
        for (int i = 0; i < 256; i++)
            g[i >> 4][i & 15] = 0.25 * (h[((i >> 4) + 1) & 15][i & 15] + h[((i >> 4) + 15) & 15][i & 15]
                                        + h[i >> 4][((i & 15) + 1) & 15] + h[i >> 4][((i & 15) + 15) & 15]);
        g[3][4] = 100.0;
    }
    double sum = 0.0;
    for (int r = 0; r < 16; r++) {
        for (int c = 0; c < 16; c++) {
            printf("%s%8.4f", c ? " " : "", g[r][c]);
            sum += (16 * r + c + 1) * g[r][c];
        }
        printf("\n");
    }
    printf("weighted sum %.17g\n", sum);
    return 0;
}
