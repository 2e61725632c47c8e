/*
 * light.c — doalls with little work per element and no communication:
 * a[i] = b[i] * 0.5f + 1.0f and back over 2^22 floats, block layout, 40
 * doalls; memory bandwidth bounds them, so two threads cannot gain much.
 */
#include <stdio.h>

#define N (1 << 22)

float a[N], b[N];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = (float)(i % 1000);
    for (int k = 0; k < 20; k++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            a[i] = b[i] * 0.5f + 1.0f;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            b[i] = a[i] * 0.5f + 1.0f;
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += b[i];
    printf("%.9g\n", s);
    return 0;
}
