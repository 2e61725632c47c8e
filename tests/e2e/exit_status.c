// e2e: dims 1-6
/*
 * main returns a non-zero status (computed from a doall's results) after
 * printing them: the translated program must exit with the same status.
 */
#include <stdio.h>

#define N 64

int a[N], b[N];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = e * 3 % 17;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ 7] - a[i ^ 48];

    int neg = 0;
    for (int e = 0; e < N; e++) {
        printf("%s%d", e % 16 ? " " : e ? "\n" : "", b[e]);
        neg += b[e] < 0;
    }
    printf("\n%d negative\n", neg);
    return 2 + neg % 50;
}
