// e2e: dims 3-3
/*
 * skew_rot, Hyperdo's extension of Lee and Aboelaze's skewed storage to
 * an odd cube (docs/layouts.md): A(i, j) at offset i of processor
 * rotl(i, 1, 3) XOR j on the 3-cube.  Its conflict-free templates are
 * rows, columns, contiguous 4 x 2 blocks and distributed 2 x 4 blocks;
 * each is gathered into a vector, with constant and with outer-variable
 * template numbers, and the matrix is transposed.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(3)
#define N 8

double A[N][N], T[N][N];
double v[N], w[N];
#pragma hyperdo distribute(A, T : skew_rot)

static double sum(const double *x, int salt)
{
    double s = 0;
    for (int p = 0; p < N; p++)
        s += x[p] * (p + salt);
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    int I = argc, J = 2 + argc;         /* 1 and 3 */
    for (int k = 0; k < N * N; k++)
        A[k / N][k % N] = (k * 19) % 23 - 11;

#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        v[j] = A[5][j];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        w[gray(i)] = A[i][J];
    printf("row, column: %.1f %.1f\n", sum(v, 1), sum(w, 2));

    /* Contiguous block I,J: A(4 I + alpha, 2 J + beta), p = alpha:beta. */
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        v[p] = A[4 * 1 + (p >> 1)][2 * 3 + (p & 1)];
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        w[p] = A[4 * (I % 2) + (p >> 1)][2 * (J % 4) + (p & 1)];
    printf("s-block: %.1f %.1f\n", sum(v, 3), sum(w, 4));

    /* Distributed block I,J: A(4 alpha + I, 2 beta + J), p = alpha:beta. */
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        v[p] = A[4 * (p >> 2) + 3][2 * (p & 3) + 1];
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        w[p] = A[4 * (p >> 2) + (J & 3)][2 * (p & 3) + (I & 1)];
    printf("d-block: %.1f %.1f\n", sum(v, 5), sum(w, 6));

#pragma hyperdo doall
    for (int k = 0; k < N * N; k++)
        T[k / N][k % N] = A[k % N][k / N];
    double s = 0;
    for (int k = 0; k < N * N; k++)
        s += T[k / N][k % N] * (k % 7 + 1);
    printf("transpose: %.1f\n", s);
    return 0;
}
