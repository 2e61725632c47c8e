// e2e: dims 4-4
/*
 * The layouts of docs/layouts.md that are not bit fields of the element
 * index, besides the skews: HPF's (BLOCK, BLOCK) and (CYCLIC, CYCLIC)
 * (High Performance Fortran Forum 1993) on the 4-cube's 4 x 4 processor
 * grid, and Batcher's i XOR j storage of an N x N matrix on N = 16
 * processors (Batcher 1977, as Lee and Aboelaze cite it).  Rectangular
 * matrices under the 2-D layouts (B: blocks of 4 x 8, C: 32 rows dealt
 * out over 4 grid rows), a square one under xor.  For each: a row and a
 * column gathered into a vector, with the row or column number a
 * constant and an outer variable (unknown when translating), a 4 x 4
 * block, an update in place, and a transpose into a second matrix of the
 * same layout.  The sequential program's output is the reference.
 */
#include <stdio.h>

#pragma hyperdo cube(4)
#define N 16

float B[16][32], BT[32][16];   /* (BLOCK, BLOCK) */
float C[32][16], CT[16][32];   /* (CYCLIC, CYCLIC) */
float X[N][N], XT[N][N];       /* i XOR j */
float v[16], w[32];
#pragma hyperdo distribute(B, BT : block, block)
#pragma hyperdo distribute(C, CT : cyclic, cyclic)
#pragma hyperdo distribute(X, XT : xor)
#pragma hyperdo distribute(w : cyclic)

static double sum(const float *x, int len, int salt)
{
    double s = 0;
    for (int p = 0; p < len; p++)
        s += x[p] * (p + salt);
    return s;
}

static double sum2(const float *m, int len, int salt)
{
    double s = 0;
    for (int k = 0; k < len; k++)
        s += m[k] * (k % salt + 1);
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    int I = 2 + argc, J = 8 - argc;     /* 3 and 7, unknown when translating */
    for (int k = 0; k < 512; k++) {
        B[k / 32][k % 32] = (float)((k * 37) % 101);
        C[k / 16][k % 16] = (float)((k * 53) % 97);
    }
    for (int k = 0; k < N * N; k++)
        X[k / N][k % N] = (float)((k * 29) % 89);

    /* (BLOCK, BLOCK): row 3 and row I (32 elements), column 5 and column J. */
#pragma hyperdo doall
    for (int j = 0; j < 32; j++)
        w[j] = B[3][j];
    printf("block row: %.1f", sum(w, 32, 1));
#pragma hyperdo doall
    for (int j = 0; j < 32; j++)
        w[j] = B[I][j];
    printf(" %.1f\n", sum(w, 32, 2));
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        v[i] = B[i][5];
    printf("block column: %.1f", sum(v, 16, 3));
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        v[i] = B[i][J];
    printf(" %.1f\n", sum(v, 16, 4));

    /* (CYCLIC, CYCLIC): row 5 and row I (16 elements), column 7 and column J. */
#pragma hyperdo doall
    for (int j = 0; j < 16; j++)
        v[j] = C[5][j];
    printf("cyclic row: %.1f", sum(v, 16, 5));
#pragma hyperdo doall
    for (int j = 0; j < 16; j++)
        v[j] = C[I][j];
    printf(" %.1f\n", sum(v, 16, 6));
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        w[i] = C[i][7];
    printf("cyclic column: %.1f", sum(w, 32, 7));
#pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        w[i] = C[i][J];
    printf(" %.1f\n", sum(w, 32, 8));

    /* xor: row 3 and row I, column 5 and column J. */
#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        v[j] = X[3][j];
    printf("xor row: %.1f", sum(v, N, 9));
#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        v[j] = X[I][j];
    printf(" %.1f\n", sum(v, N, 10));
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = X[i][5];
    printf("xor column: %.1f", sum(v, N, 11));
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = X[i][J];
    printf(" %.1f\n", sum(v, N, 12));

    /* A 4 x 4 block at (4, 8) of each: A(4 + p / 4, 8 + p % 4). */
#pragma hyperdo doall
    for (int p = 0; p < 16; p++)
        v[p] = B[4 + p / 4][8 + p % 4] + C[4 + p / 4][8 + p % 4] + X[4 + p / 4][8 + p % 4];
    printf("blocks: %.1f\n", sum(v, 16, 13));

    /* In place: each element on its own processor. */
#pragma hyperdo doall
    for (int k = 0; k < 512; k++)
        B[k / 32][k % 32] = B[k / 32][k % 32] * 2 + 1;
#pragma hyperdo doall
    for (int k = 0; k < 512; k++)
        C[k / 16][k % 16] = C[k / 16][k % 16] - (float)(k % 7);
#pragma hyperdo doall
    for (int k = 0; k < N * N; k++)
        X[k / N][k % N] = X[k / N][k % N] + (float)(k % 5);

    /* Transposes, each into a matrix of the same layout. */
#pragma hyperdo doall
    for (int k = 0; k < 512; k++)
        BT[k / 16][k % 16] = B[k % 16][k / 16];
#pragma hyperdo doall
    for (int k = 0; k < 512; k++)
        CT[k / 32][k % 32] = C[k % 32][k / 32];
#pragma hyperdo doall
    for (int k = 0; k < N * N; k++)
        XT[k / N][k % N] = X[k % N][k / N];
    printf("transposes: %.1f %.1f %.1f\n", sum2(&BT[0][0], 512, 13), sum2(&CT[0][0], 512, 11),
           sum2(&XT[0][0], N * N, 7));
    printf("after: %.1f %.1f %.1f\n", sum2(&B[0][0], 512, 5), sum2(&C[0][0], 512, 3),
           sum2(&X[0][0], N * N, 9));
    return 0;
}
