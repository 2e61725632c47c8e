/* A small program with each kind of thing the translator allocates for:
 * distributed and replicated arrays, an LCC, a general communication, a
 * guarded read, an outer variable and host code (alloc_failures.sh). */
#include <stdio.h>

#define N 16

double a[N], b[N];
int perm[N];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    int s = 3;
    for (int e = 0; e < N; e++) {
        a[e] = e;
        perm[e] = (e * 5) % N;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ 1] + (i > s ? a[perm[i]] : 0.0);
    double sum = 0;
    for (int e = 0; e < N; e++)
        sum += b[e];
    printf("%g\n", sum);
    return 0;
}
