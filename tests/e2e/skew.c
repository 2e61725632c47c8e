// e2e: dims 4-4
/*
 * Lee and Aboelaze's skewed storage of an N x N matrix on N = 2^n
 * processors: A(i, j) at offset i of processor xi(i) XOR j (Section 3).
 * Every template (row I, column J, contiguous block I,J and distributed
 * block I,J, Definitions 1-4 with the block of the Lemma's proof) is
 * gathered into a vector under both routings of Section 4: Method 1, the
 * element at position p of the template to processor p; Method 2, to
 * processor Gray(p) for rows and columns and Gray(alpha):Gray(beta) for
 * blocks (Fig. 4, Table 1).  Then the matrix is transposed into a second
 * skewed matrix.  The template numbers are constants in some loops and
 * outer variables in others.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(4)
#define N 16     /* 2^n */
#define R 4      /* sqrt(N) */
#define H 2      /* n / 2 */

float A[N][N], T[N][N];
float v1[N], v2[N];
#pragma hyperdo distribute(A, T : skew)

static double sum(const float *v, int salt)
{
    double s = 0;
    for (int p = 0; p < N; p++)
        s += v[p] * (p + salt);
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    int I = 2 + argc, J = 7 - argc;     /* 3 and 6, unknown when translating */
    for (int k = 0; k < N * N; k++)
        A[k / N][k % N] = (float)((k * 37) % 101);

    /* Row 3 and row I. */
#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        v1[j] = A[3][j];
#pragma hyperdo doall
    for (int j = 0; j < N; j++)
        v2[gray(j)] = A[I][j];
    printf("row: %.1f %.1f\n", sum(v1, 1), sum(v2, 2));

    /* Column 5 and column J. */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v1[i] = A[i][5];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v2[gray(i)] = A[i][J];
    printf("column: %.1f %.1f\n", sum(v1, 3), sum(v2, 4));

    /* Contiguous block 1,2 and I mod R, J mod R: A(I sqrt N + alpha, J sqrt N + beta),
     * alpha:beta = p. */
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        v1[p] = A[1 * R + (p >> H)][2 * R + (p & (R - 1))];
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        v2[(gray(p >> H) << H) | gray(p & (R - 1))] =
            A[(I & (R - 1)) * R + (p >> H)][(J & (R - 1)) * R + (p & (R - 1))];
    printf("s-block: %.1f %.1f\n", sum(v1, 5), sum(v2, 6));

    /* Distributed block 3,1 and I mod R, J mod R: A(I + alpha sqrt N, J + beta sqrt N). */
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        v1[p] = A[(p >> H) * R + 3][(p & (R - 1)) * R + 1];
#pragma hyperdo doall
    for (int p = 0; p < N; p++)
        v2[(gray(p >> H) << H) | gray(p & (R - 1))] =
            A[(p >> H) * R + (I & (R - 1))][(p & (R - 1)) * R + (J & (R - 1))];
    printf("d-block: %.1f %.1f\n", sum(v1, 7), sum(v2, 8));

    /* Transpose: T(i, j) = A(j, i), both skewed. */
#pragma hyperdo doall
    for (int k = 0; k < N * N; k++)
        T[k / N][k % N] = A[k % N][k / N];
    double s = 0;
    for (int k = 0; k < N * N; k++)
        s += T[k / N][k % N] * (k % 13 + 1);
    printf("transpose: %.1f\n", s);
    return 0;
}
