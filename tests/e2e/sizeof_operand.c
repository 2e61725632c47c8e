// e2e: dims 1-4
/*
 * References inside the operand of sizeof (C11 6.5.3.4p2: not evaluated):
 * outside their array, remote, of an array the loop writes, in an index
 * and in a guard.  None is fetched or checked against its bounds; the body
 * only needs their type (found by tools/difftest: 'a[i + 1]' was refused
 * as out of bounds).
 */
#include <stdio.h>

#define N 32

struct rec { double x; int id; };

int a[N], b[N];
short c[N];
struct rec s[N];
#pragma hyperdo distribute(a, b, c, s : block)

int main(void)
{
    for (int e = 0; e < N; e++) {
        a[e] = e * 3 - 7;
        c[e] = (short)(e % 9);
        s[e].x = e * 0.5;
        s[e].id = e;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i] + (int)sizeof(a[i + 1]) + (int)sizeof c[(i * 5) ^ 17] + (int)sizeof(s[N - i]);
    /* writes a and names a[i - 1] and a[i + 1] only inside sizeof: no
     * dependence, no bounds */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[i ^ (int)sizeof(c[N])] * (int)sizeof(a[i - 1] + a[i + 1]);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = sizeof(s[i + N].x) > 4 ? c[i ^ 1] + (int)_Alignof(int) : a[N + i];
    /* under a guard that holds at some iterations: still never checked
     * (a run-time check stopped the program) */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = (i & 1) ? b[i] + (int)sizeof(a[i + 1]) : (b[i] > 3 && sizeof c[2 * N + i] == 2) ? 1 : b[i ^ 2];
    long sum = 0;
    for (int e = 0; e < N; e++)
        sum += (long)(a[e] + 3 * b[e]) * (e + 1);
    printf("%ld\n", sum);
    return 0;
}
