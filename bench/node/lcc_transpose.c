/*
 * lcc_transpose.c — the transpose of a 1024 x 1024 matrix of doubles
 * (rows in blocks) ten times (Hou et al. 2001, Example 3): against mpi_hand.c.
 */
#include <stdio.h>

#define LOG 10
#define R (1 << LOG)

double a[R][R], b[R][R];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < R; c++)
            a[r][c] = ((r * R + c) % 1000) * 0.5;
    for (int k = 0; k < 5; k++) {
#pragma hyperdo doall
        for (int i = 0; i < R * R; i++)
            b[i >> LOG][i & (R - 1)] = a[i & (R - 1)][i >> LOG] * 0.5 + 1.0;
#pragma hyperdo doall
        for (int i = 0; i < R * R; i++)
            a[i >> LOG][i & (R - 1)] = b[i & (R - 1)][i >> LOG] * 0.5 + 1.0;
    }
    double s = 0;
    for (int i = 0; i < R * R; i++)
        s += a[i >> LOG][i & (R - 1)] * (i % 7 + 1);
    printf("%.17g\n", s);
    return 0;
}
