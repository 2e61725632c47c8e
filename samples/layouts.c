// e2e: dims 4-4
/*
 * layouts.c: Lee and Aboelaze's skewed storage of a 16 x 16 matrix on the
 * 4-cube (A(i, j) at location i of processor xi(i) XOR j, Section 3) and
 * the eight routings of their Table 1: row I, column J, contiguous block
 * I,J and distributed block I,J, each fetched and sent to its "proper
 * destination" by Method 1 (element p of the template to processor p) and
 * by Method 2 (to processor Gray(p), or Gray(alpha):Gray(beta) for a
 * block, so that neighbours stay neighbours).  v[t][p] lives on processor
 * p (cyclic), so each doall below is one of the eight routings.
 *
 * The template numbers are the variables of the sequential loop around
 * the doalls, which runs over every row, column and block: unknown when
 * translating, so each doall reads an LCC family (docs/layouts.md,
 * "Parametric indices"), its b computed once per execution.  I and J are
 * masked where they are added to bits the loop variable sets: the body
 * sees only their names, and a signed int could be negative for all the
 * translator knows, when + would carry.
 *
 * `hyperdo analyze layouts.c` reports all eight as LCPs (the skew reads
 * every template conflict-free, Properties 1-4: conflict degree 1), the
 * four of Method 1 BPC (their matrices permute the address bits), and one
 * mapping for the set of them (Hou et al. 2001, Section 5).  Each is a
 * permutation of the processors, so the node code finds its partners and
 * its element from its own number (the Lemma of Section 3).  The program
 * checks every element it gathered against the template's definition and
 * exits 0 when all are right.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(4)
#define N 16      /* 2^n */
#define R 4       /* sqrt(N) */
#define H 2       /* n / 2 */

double A[N][N];
double v[8][N];
#pragma hyperdo distribute(A : skew)
#pragma hyperdo distribute(v : cyclic)

/* Element p (= alpha:beta for blocks) of template t number T (row and
 * column T, blocks I,J = T >> H, T & (R - 1)), by Definitions 1-4 (the
 * contiguous block as the Lemma's proof uses it). */
static double element(int t, int T, int p)
{
    int alpha = p >> H, beta = p & (R - 1), I = T >> H, J = T & (R - 1);
    switch (t % 4) {
    case 0: return A[T][p];
    case 1: return A[p][T];
    case 2: return A[I * R + alpha][J * R + beta];
    default: return A[alpha * R + I][beta * R + J];
    }
}

/* Where Method 1 (t < 4) or Method 2 puts element p. */
static int destination(int t, int p)
{
    if (t < 4)
        return p;
    if (t < 6)
        return (int)gray((unsigned long)p);
    return (int)((gray((unsigned long)(p >> H)) << H) | gray((unsigned long)(p & (R - 1))));
}

int main(void)
{
    for (int k = 0; k < N * N; k++)
        A[k / N][k % N] = (k * 37) % 101 - 50;

    static const char *const names[8] = {
        "row", "column", "contiguous block", "distributed block",
        "row (Gray)", "column (Gray)", "contiguous block (Gray)", "distributed block (Gray)",
    };
    double sum[8] = { 0 };
    int wrong = 0;
    for (int T = 0; T < N; T++) {
        int I = T >> H, J = T & (R - 1);

        /* Method 1: element p to processor p. */
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[0][p] = A[T][p];
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[1][p] = A[p][T];
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[2][p] = A[I * R + (p >> H)][J * R + (p & (R - 1))];
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[3][p] = A[(p >> H) * R + (I & (R - 1))][(p & (R - 1)) * R + (J & (R - 1))];

        /* Method 2: element p to processor Gray(p), blocks Gray(alpha):Gray(beta). */
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[4][gray(p)] = A[T][p];
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[5][gray(p)] = A[p][T];
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[6][(gray(p >> H) << H) | gray(p & (R - 1))] =
                A[I * R + (p >> H)][J * R + (p & (R - 1))];
#pragma hyperdo doall
        for (int p = 0; p < N; p++)
            v[7][(gray(p >> H) << H) | gray(p & (R - 1))] =
                A[(p >> H) * R + (I & (R - 1))][(p & (R - 1)) * R + (J & (R - 1))];

        for (int t = 0; t < 8; t++)
            for (int p = 0; p < N; p++) {
                wrong += v[t][destination(t, p)] != element(t, T, p);
                sum[t] += v[t][p] * (p + 1) * (T + 1);
            }
    }
    for (int t = 0; t < 8; t++)
        printf("%-25s %10.1f\n", names[t], sum[t]);
    printf("%s\n", wrong ? "WRONG" : "every template of every number gathered right");
    return wrong != 0;
}
