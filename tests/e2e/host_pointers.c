// e2e: dims 1-4
/*
 * Pointers into distributed arrays taken in sequential code: to an element
 * (&a[k]), to a row of a 2-D array (m[k] decays to a pointer), to a member
 * array of a struct element (p[k].v), and at file scope.  Through them the
 * host reads and writes the arrays between doalls, so every write a doall
 * makes must be home before the next such access, and every write made
 * through them must reach the processors before the next doall.
 */
#include <stdio.h>

#define N 16

typedef struct {
    int id;
    int v[2];
} item;

int a[N], c[N];
int m[N / 2][2];
item p[N];
#pragma hyperdo distribute(a, c, m, p : block)

int *first = &c[1];   /* taken at file scope */

int main(void)
{
    int *e = &a[3];
    int *row = m[5];
    int *pv = p[6].v;
    for (int i = 0; i < N; i++) {
        a[i] = i;
        c[i] = 2 * i;
        m[i >> 1][i & 1] = 10 * i;
        p[i].id = i;
        p[i].v[0] = i + 100;
        p[i].v[1] = i + 200;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = a[i] * 3 + c[i ^ 1];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        m[i >> 1][i & 1] = m[i >> 1][i & 1] + c[N - 1 - i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        p[i].v[0] = p[i].v[1] + c[i ^ 2] * p[i].id;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = c[i] + 5;
    printf("after the doalls: %d %d %d %d %d\n", *e, row[0], row[1], pv[0], *first);
    *e = -7;
    row[1] = -70;
    pv[1] = -700;
    *first = -1;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = a[i] + m[i >> 1][i & 1] + p[i].v[1] + c[i];
    long s = 0;
    for (int i = 0; i < N; i++)
        s += (long)a[i] * (i + 1);
    printf("after writes through the pointers: %d %ld\n", *e, s);
    return 0;
}
