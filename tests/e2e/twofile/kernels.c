/* The other file of twofile (main.c): two doalls, and sequential code
 * that reads and writes the distributed arrays. */
#include "kernels.h"

#pragma hyperdo distribute(a : block)

double b[N];

void smooth(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = 0.5 * (a[i] + a[(i + 1) & (N - 1)]);
}

void scale(double f)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = a[i] * f + b[(N - 1) ^ i];
}

void bump(int k)
{
    b[k] += 1.0;
    b[(k * 3) % N] *= 2.0;
}

double weighted_b(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += b[i] * (i % 3 + 1);
    return s;
}
