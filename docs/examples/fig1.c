/* Seed 000's Fig. 1a on a 3-cube: b[i] = r[reverse(i, 3)], then a sum. */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 8
double b[N], r[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        r[i] = i * i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = r[reverse(i, 3)];
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += b[i] * (i + 1);
    printf("%g\n", sum);
    return 0;
}
