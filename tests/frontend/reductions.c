/*
 * Reductions (docs/annotations.md, "Reductions").  A doall whose only
 * effect is its reduction runs iteration i on the owner of a[i], the first
 * element it reads at every iteration at a GF(2)-affine index: c[N - 1 - i]
 * is then the complement y = I x + 11111111 (T = 1 in every dimension),
 * as it would be from a write of a[i].  A doall that writes b[i] and
 * reduces runs on b[i]'s owner as any doall does: a[i ^ 1] is the
 * exchange y = I x + 10000000 at dimension 0.
 */
#include <stdio.h>

#define N 256

double a[N], b[N], c[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = i;
        c[i] = 2 * i;
    }
    double dot = 0, s = 0;
#pragma hyperdo doall reduction(+: dot)
    for (int i = 0; i < N; i++)
        dot += a[i] * c[N - 1 - i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        b[i] = a[i];
        s += a[i ^ 1];
    }
    printf("%g %g %g\n", dot, s, b[3]);
    return 0;
}
