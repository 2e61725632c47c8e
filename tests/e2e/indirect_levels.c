// e2e: dims 1-8
/*
 * Indices through distributed arrays, several levels deep: b[q[p[i]]]
 * asks for q[p[i]] once p[i] is known, then for b[...] once that is;
 * a guard that reads an element fetched the same way; and references of
 * one element through one index repeated (each element travels once).
 */
#include <stdio.h>

#define N 1024

double a[N], b[N], r[N];
int q[N], p[N], s[N];
#pragma hyperdo distribute(a, b, r : block)
#pragma hyperdo distribute(q, p : cyclic)
#pragma hyperdo distribute(s : block_cyclic(2))

int main(void)
{
    for (int i = 0; i < N; i++) {
        b[i] = (i * 31) % 97 + 0.5;
        q[i] = (i * 7 + 3) % N;
        p[i] = (i * 13 + 5) % N;
        s[i] = (i * 17) % N;
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[q[p[i]]];

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        r[i] = b[s[q[p[i]]]] + b[s[q[p[i]]]] * 0.5 + (q[p[i]] & 1 ? b[q[i]] : -b[p[i]]);

    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += (a[i] + 2 * r[i]) * (i % 11 + 1);
    printf("%.17g\n", sum);
    for (int i = 0; i < N; i += 97)
        printf("%d %g %g\n", i, a[i], r[i]);
    return 0;
}
