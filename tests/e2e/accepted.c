// e2e: dims 1-3
/*
 * Valid programs the translator once refused:
 *   - a write at i ^ s and at (i + s) & (N - 1), s an outer variable: one
 *     element per iteration whatever s is (the owner is found at run time);
 *   - a doall that writes only local scalars (it runs as the sequential
 *     loop it is, with a warning);
 *   - int main() with empty parentheses;
 *   - block_cyclic(4) on an 8-element array on a cube of 4 or 8
 *     processors (blocks of 4 would leave processors empty: smaller blocks,
 *     with a warning);
 *   - a distributed array of nine dimensions, and nine variables declared
 *     in one declaration of a doall body.
 */
#include <stdio.h>

#define N 16

double a[N], b[N];
int w[8];
char z[2][2][2][2][2][2][2][2][2];
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo distribute(w : block_cyclic(4))
#pragma hyperdo distribute(z : cyclic)

int main()
{
    int s = 5;
    for (int e = 0; e < N; e++)
        b[e] = e * 1.5;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i ^ s] = b[i] + 1;
    s = 11;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[(i + s) & (N - 1)] = a[i] * 2;
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double t = a[i] * b[i];
        t = t + 1;
    }
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        w[i] = i * i;
#pragma hyperdo doall
    for (int i = 0; i < 512; i++) {
        int c0 = i & 1, c1 = i >> 1 & 1, c2 = i >> 2 & 1, c3 = i >> 3 & 1, c4 = i >> 4 & 1,
            c5 = i >> 5 & 1, c6 = i >> 6 & 1, c7 = i >> 7 & 1, c8 = i >> 8 & 1;
        z[i >> 8 & 1][i >> 7 & 1][i >> 6 & 1][i >> 5 & 1][i >> 4 & 1][i >> 3 & 1][i >> 2 & 1]
         [i >> 1 & 1][i & 1] = (char)(c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8);
    }
    double s1 = 0;
    for (int e = 0; e < N; e++)
        s1 += (a[e] + 3 * b[e]) * (e + 1);
    long s2 = 0;
    for (int e = 0; e < 8; e++)
        s2 += w[e] * (e + 1);
    for (int e = 0; e < 512; e++)
        s2 += z[e >> 8 & 1][e >> 7 & 1][e >> 6 & 1][e >> 5 & 1][e >> 4 & 1][e >> 3 & 1]
               [e >> 2 & 1][e >> 1 & 1][e & 1] * (e % 7);
    printf("%.17g %ld\n", s1, s2);
    return 0;
}
