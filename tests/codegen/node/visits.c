/*
 * visits.c — doalls whose node loops tests/codegen/node/node_test.c counts,
 * iteration by iteration (HD_VISIT), on each processor: a doall without
 * communication must visit exactly its own iterations on every processor,
 * whatever the layout; one with an LCC its own and, to pack, each element
 * it sends once.  2^12 elements, cubes of 1 to 6
 * dimensions.
 *
 * Doall  writes         layout                   visits per processor
 *   0    a[i]           block                    N / P
 *   1    c[i]           cyclic                   N / P
 *   2    w[i]           block_cyclic(8)          N / P
 *   3    m[i >> 6][i & 63]  block (2-D)          N / P
 *   4    a[i] from b[reverse(i, 12)]  block      N / P + the elements it sends
 */
#include <math.h>
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 4096

float a[N], b[N], c[N], w[N];
float m[64][64];
#pragma hyperdo distribute(a, b, m : block)
#pragma hyperdo distribute(c : cyclic)
#pragma hyperdo distribute(w : block_cyclic(8))

int main(void)
{
    for (int i = 0; i < N; i++)
        b[i] = (float)(i % 13);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = sinf(b[i]) * 2.0f + 1.0f;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = (float)i * 0.5f;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        w[i] = (float)(i & 7);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        m[i >> 6][i & 63] = (float)(i >> 6) - (float)(i & 63);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[reverse(i, 12)];
    double s = 0;
    for (int i = 0; i < N; i++)
        s += (a[i] + c[i] + w[i] + m[i >> 6][i & 63]) * (i % 7 + 1);
    printf("%.9g\n", s);
    return 0;
}
