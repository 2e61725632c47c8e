/*
 * heavy.c — doalls with real work per element and no communication:
 * a[i] = sinf(b[i]) * cosf(b[i] * 0.5f) + 1.0f over 2^22 floats, block
 * layout, twenty times.  bench/bench_node.sh runs it translated on two
 * threads against the sequential program and OpenMP's parallel for.
 */
#include <math.h>
#include <stdio.h>

#define N (1 << 22)

float a[N], b[N];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = (float)(i % 1000) * 0.001f;
    for (int k = 0; k < 10; k++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            a[i] = sinf(b[i]) * cosf(b[i] * 0.5f) + 1.0f;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            b[i] = sinf(a[i]) * cosf(a[i] * 0.5f) + 1.0f;
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += b[i];
    printf("%.9g\n", s);
    return 0;
}
