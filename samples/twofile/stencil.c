/*
 * stencil.c: the doalls of the stencil sample (main.c is the other file).
 * One explicit step of the heat equation on a ring of N points,
 * v[i] = u[i] + (u[i - 1] - 2 u[i] + u[i + 1]) / 4 (indices mod N), then
 * u = v.  u is main.c's array; v is this file's own (static).  The
 * neighbours (i +- 1) mod N are no linear-complement communication
 * ('+' carries between the bits of i): the analyzer keeps them general,
 * and under block each processor needs one element from each neighbour
 * block.
 */
#include "stencil.h"

#pragma hyperdo distribute(v : block)
static double v[N];

void diffuse(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = u[i] + 0.25 * (u[(i + N - 1) & (N - 1)] - 2 * u[i] + u[(i + 1) & (N - 1)]);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        u[i] = v[i];
}

/* Sequential code of this file reading main.c's array: the host fetches
 * u here as it would in main.c. */
double total_heat(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += u[i];
    return s;
}
