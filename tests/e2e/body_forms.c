// e2e: dims 1-5
/*
 * body_forms.c: the statements a doall body may hold since issue 17,
 * item 1: a local array of constant size, a for loop with continue and
 * break, a while loop and a do loop over variables of the body, an if
 * inside a loop, ++ of a local, all with bounds that read no distributed
 * data (w is const, hence replicated), and a start and bound read at run
 * time.
 */
#include <stdio.h>

#define N 32
int a[N], b[N];
long out[N];
static const int w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
#pragma hyperdo distribute(a, b, out : cyclic)

int main(void)
{
    int lo = 3, hi = 29;
    for (int i = 0; i < N; i++) {
        a[i] = (i * 5) % 11;
        b[i] = i % 7;
        out[i] = -7;
    }
#pragma hyperdo doall
    for (int i = lo; i < hi; i++) {
        int tmp[4] = { 0 };
        long s = 0;
        for (int k = 0; k < 4; k++) {
            if (k == 2)
                continue;
            tmp[k] = a[(i + k) % N] * w[k];
        }
        int m = 0;
        while (m < 4 && w[m] < 3)
            m++;
        do {
            s += tmp[m % 4];
            m++;
        } while (m < 6);
        for (int k = 0; k < 8; k++) {
            if (b[i] + k > 9)
                break;
            s += w[k] * b[i ^ 1];
        }
        out[i] = s;
    }
    for (int i = 0; i < N; i++)
        printf("%ld ", out[i]);
    printf("\n");
    return 0;
}
