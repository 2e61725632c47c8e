// e2e: dims 1-4
/*
 * Subscripts written with the array second, E2[E1] (C11 6.5.2.1p2: E1[E2]
 * is *((E1) + (E2)), so the operands commute): in doall bodies, as
 * writes, reads, constant and remote elements, rows of a 2-D array, and in
 * host code (found by tools/difftest: '(i ^ 1)[a]' was refused).
 */
#include <stdio.h>

#define N 32

int a[N], b[N];
double m[8][4];
#pragma hyperdo distribute(a, b, m : block)

int main(void)
{
    for (int e = 0; e < N; e++)
        e[a] = e * e - 5;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 4; c++)
            r[m][c] = r * 0.25 + c;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        i[b] = (i ^ 1)[a] + 3[a] + a[(N - 1) - i] + (int)((i >> 2)[m][i & 3] * 4);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        (i >> 2)[m][i & 3] = ((i * 7) & (N - 1))[b] * 0.5;
    long s = 0;
    for (int e = 0; e < N; e++)
        s += (long)(e[b] + (int)((e >> 2)[m][e & 3])) * (e + 1);
    printf("%ld\n", s);
    return 0;
}
