// e2e: dims 1-4
/*
 * body_edges.c: the cases an adversarial review of issue 17's statements
 * and ranges found translated wrongly or refused, each now as C runs it:
 *   - a write after a break of a do-while may not run: the host must send
 *     the array first (it is not overwritten whole);
 *   - a request whose guard reads an array that the body also reads whole
 *     (whole copies are made before the requests);
 *   - an inner loop inside an if whose condition reads distributed data
 *     (whether it runs is no part of its bounds);
 *   - a write guarded by the inner variable, c[i][k - 1] where k > 0 (the
 *     home is taken at the first value C writes);
 *   - a range read at run time in the loop variable's own type:
 *     unsigned char i from 300 is i from 44, as C converts it.
 */
#include <stdio.h>

#define N 16
int a[N], b[N], out[N], dw[N];
int m[N][4], c[N][4];
int u8[128];
#pragma hyperdo distribute(a, out, dw : block)
#pragma hyperdo distribute(b : cyclic)
#pragma hyperdo distribute(m, c : block)
#pragma hyperdo distribute(u8 : cyclic)

int main(void)
{
    for (int j = 0; j < N; j++) {
        a[j] = (j * 7) % 10;
        b[j] = j;
        out[j] = -1;
        dw[j] = 100 + j;
        for (int k = 0; k < 4; k++) {
            m[j][k] = j * 4 + k;
            c[j][k] = -1;
        }
    }
    for (int j = 0; j < 128; j++)
        u8[j] = -1;
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        do {
            if (a[i] > 5)
                break;
            dw[i] = a[i];
        } while (0);
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        int s = a[i];
        if (a[(i * 3) % N] > 0)
            s += b[(i * 5) % N];
        if (s > 1)
            s += a[(i * 7) % N];
        if (a[i] > 2)
            for (int k = 0; k < 4; k++)
                s += k * b[i ^ 1];
        out[i] = s;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 4; k++)
            if (k > 0)
                c[i][k - 1] = m[i][k] + m[i ^ 1][k];
    int lo = 300, hi = 100;
    unsigned char i;
#pragma hyperdo doall
    for (i = lo; i < hi; i++)
        u8[i] = 7;
    printf("i = %d\n", i);
    for (int j = 0; j < N; j++)
        printf("%d %d %d %d %d %d\n", dw[j], out[j], c[j][0], c[j][1], c[j][2], c[j][3]);
    long t = 0;
    for (int j = 0; j < 128; j++)
        t += (long)(j + 1) * u8[j];
    printf("%ld\n", t);
    return 0;
}
