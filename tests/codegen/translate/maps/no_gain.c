/*
 * translate --maps wu where Algorithm II's mappings pay in Wu's terms (the
 * permutations' passes and the remaps) but not for the whole program: the
 * reads a1[i & 1], a1[i & 7] and a2[i & 6] are no permutations, outside
 * Wu's model, and under the chosen mappings the plan's passes and the
 * remaps come to 14, as many as without them.  The translator must then
 * write the program it writes without --maps wu (translate.maps_wu).
 */
#include <stdio.h>
#pragma hyperdo network(omega)
#define N 8
double a0[N], a1[N], a2[N];
#pragma hyperdo distribute(a0, a1, a2 : cyclic)
int main(void)
{
    for (int e = 0; e < N; e++) {
        a0[e] = e * 1 + 0;
        a1[e] = e * 2 + 3;
        a2[e] = e * 3 + 6;
    }
#pragma hyperdo doall
    for (unsigned i = 0; i < N; i++)
        a0[i] = (a2[((((i >> 0) & 1) << 0) ^ (((i >> 2) & 1) << 0) ^ (((i >> 1) & 1) << 1) ^ (((i >> 2) & 1) << 2) ^ 0u)] + a1[((((i >> 1) & 1) << 0) ^ (((i >> 0) & 1) << 1) ^ (((i >> 1) & 1) << 1) ^ (((i >> 2) & 1) << 1) ^ (((i >> 2) & 1) << 2) ^ 1u)] + a1[i & 1]) * 0.5;
#pragma hyperdo doall
    for (unsigned i = 0; i < N; i++)
        a1[i] = (a0[((((i >> 2) & 1) << 0) ^ (((i >> 1) & 1) << 1) ^ (((i >> 2) & 1) << 1) ^ (((i >> 0) & 1) << 2) ^ 4u)] + a2[((((i >> 2) & 1) << 0) ^ (((i >> 0) & 1) << 1) ^ (((i >> 2) & 1) << 1) ^ (((i >> 0) & 1) << 2) ^ (((i >> 1) & 1) << 2) ^ (((i >> 2) & 1) << 2) ^ 6u)]) * 0.5;
#pragma hyperdo doall
    for (unsigned i = 0; i < N; i++)
        a0[i] = (a1[((((i >> 1) & 1) << 0) ^ (((i >> 2) & 1) << 0) ^ (((i >> 0) & 1) << 1) ^ (((i >> 2) & 1) << 1) ^ (((i >> 1) & 1) << 2) ^ 2u)] + a2[((((i >> 0) & 1) << 0) ^ (((i >> 2) & 1) << 1) ^ (((i >> 1) & 1) << 2) ^ (((i >> 2) & 1) << 2) ^ 3u)] + a1[i & 7]) * 0.5;
#pragma hyperdo doall
    for (unsigned i = 0; i < N; i++)
        a0[i] = (a2[((((i >> 0) & 1) << 0) ^ (((i >> 1) & 1) << 0) ^ (((i >> 1) & 1) << 1) ^ (((i >> 2) & 1) << 1) ^ (((i >> 0) & 1) << 2) ^ (((i >> 1) & 1) << 2) ^ (((i >> 2) & 1) << 2) ^ 7u)] + a1[((((i >> 0) & 1) << 0) ^ (((i >> 1) & 1) << 0) ^ (((i >> 2) & 1) << 0) ^ (((i >> 0) & 1) << 1) ^ (((i >> 2) & 1) << 1) ^ (((i >> 1) & 1) << 2) ^ (((i >> 2) & 1) << 2) ^ 3u)] + a2[i & 6]) * 0.5;
    for (int e = 0; e < N; e++)
        printf("%d %g %g %g\n", e, a0[e], a1[e], a2[e]);
    return 0;
}
