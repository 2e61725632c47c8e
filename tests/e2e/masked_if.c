// e2e: dims 1-6
/*
 * masked_if.c: updates under if/else (issue 17, item 1).  A branch runs
 * its reads only where C runs them: c[i ^ 1] and c[N - 1 - i] are read
 * only where b[i] < -3, an element read only under a condition the
 * processors cannot evaluate before the loop is asked for where the
 * branch runs (a request), and a[i] keeps its old value where no branch
 * writes it (so the host must send it first).
 */
#include <stdio.h>

#define N 64
double a[N], b[N], c[N];
int flag[N];
#pragma hyperdo distribute(a, b, c, flag : block)

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = -1;
        b[i] = (i * 7 % 13) - 6;
        c[i] = i;
        flag[i] = i % 5 == 0;
    }
    for (int step = 0; step < 2; step++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++) {
            if (b[i] > 0)
                a[i] = b[i] + step;
            else if (b[i] < -3)
                a[i] = c[i ^ 1] + c[N - 1 - i];
            else {
                double t = b[i ^ 2];
                if (flag[i ^ 4])
                    a[i] = t * 2;
            }
        }
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            if (i & 1)
                c[i] = a[i] + c[i];
            else
                c[i] = a[i ^ 1] - 1;
    }
    double s = 0;
    for (int i = 0; i < N; i++) {
        s += a[i] * (i + 1) + c[i];
        printf("%g ", a[i]);
    }
    printf("\n%g\n", s);
    return 0;
}
