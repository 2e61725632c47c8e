/*
 * Reverse-flip on an 8-cube (Hou et al. 2001, Section 6.1): y = A x + b with A the
 * bit-reverse of Example 1 and b = 11111111, T = (1,2,4,8,8,4,2,1).
 * Three spellings: ^ with the constant N-1 after reverse(), N-1 minus it
 * (no borrow can occur), and reverse() of the masked complement ~i & 255.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 256

double a[N], f1[N], f2[N], f3[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f1[i] = a[reverse(i, 8) ^ (N - 1)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f2[i] = a[N - 1 - reverse(i, 8)];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f3[i] = a[reverse(~i & 255, 8)];
    for (int i = 0; i < N; i++)
        if (f1[i] != f2[i] || f1[i] != f3[i])
            return 1;
    printf("f[0] = %g\n", f1[0]);
    return f1[0] == 255 ? 0 : 1;
}
