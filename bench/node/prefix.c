/*
 * prefix.c — the Hillis-Steele prefix sum of 2^20 doubles, block layout:
 * step d computes y[i] = i >= d ? x[i] + x[i - d] : x[i], a read under a
 * guard through an outer scalar (docs/annotations.md, "Guarded reads").
 */
#include <stdio.h>

#define N (1 << 20)

double x[N], y[N];
#pragma hyperdo distribute(x, y : block)

int main(void)
{
    for (int i = 0; i < N; i++)
        x[i] = (i % 19) * 0.25;
    for (int d = 1; d < N; d *= 2) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            y[i] = i >= d ? x[i] + x[i - d] : x[i];
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            x[i] = y[i];
    }
    printf("%.17g %.17g %.17g\n", x[N - 1], x[N / 2], x[12345]);
    return 0;
}
