// e2e: dims 1-4
/*
 * matmul.c: C = A B the way a C programmer writes it, a doall over the
 * rows with two sequential loops inside its body (issue 17, item 1).
 * A's row i lives with C's row i (block rows), so a[i][k] is local for
 * every k: the analysis checks it over every iteration and every value
 * of k.  b[k][j] changes with the inner variables, so every processor
 * gets the whole of B before the loop (an all-gather).  A second doall
 * accumulates into c[i][j] with += inside the inner loop, a third takes
 * a row maximum with an if inside a loop.
 */
#include <stdio.h>

#define N 16
double a[N][N], b[N][N], c[N][N], d[N][N];
double rowmax[N];
#pragma hyperdo distribute(a, b, c, d, rowmax : block)

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i * 3 + j) % 7 - 3;
            b[i][j] = (i + 2 * j) % 5 - 2 + 0.5 * (i == j);
        }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            d[i][j] = 0;
            for (int k = 0; k < N; k++)
                d[i][j] += c[i][k] * a[k][j];
        }
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double m = d[i][0];
        for (int j = 1; j < N; j++)
            if (d[i][j] > m)
                m = d[i][j];
        rowmax[i] = m;
    }
    double t = 0;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            t += (c[i][j] + d[i][j] / 7) * (i + 2 * j + 1);
        printf("%g %g %g\n", c[i][i], d[i][N - 1 - i], rowmax[i]);
    }
    printf("checksum %.6f\n", t);
    return 0;
}
