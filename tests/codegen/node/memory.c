/*
 * memory.c — an array of 64 MiB that only doalls use (cyclic, never named
 * by the sequential code): it must live in the processors' slices only,
 * the host's copy never touched (docs/codegen.md, "What the host
 * holds").  tests/codegen/node/node_test.c measures the resident memory of the
 * translated program against the same built with -DNAMED, where the host
 * initialises the array.
 */
#include <stdio.h>

#define N (1 << 23)
#define M (1 << 10)

double big[N];
double small[M];
#pragma hyperdo distribute(big, small : cyclic)

int main(void)
{
#ifdef NAMED
    for (int i = 0; i < N; i++)
        big[i] = 0;
#endif
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        big[i] = (i % 1000) * 0.5;
#pragma hyperdo doall
    for (int i = 0; i < M; i++)
        small[i] = big[(i << 13) | 5];
    double s = 0;
    for (int i = 0; i < M; i++)
        s += small[i];
    printf("%.17g\n", s);
    return 0;
}
