/*
 * The complement x -> x + 11111111 on an 8-cube (Hou et al. 2001, Example 5, item
 * 2: rotating an image by 180 degrees): y = I x + 11111111, every dimension
 * used once, T = (1,1,1,1,1,1,1,1).  Six spellings: N-1-i, (N-1) ^ i,
 * ~i & 255 (~i alone is a negative int and must be masked), 255 - i, a cast
 * of ~i to unsigned char, and i ^ 0xff.
 */
#include <stdio.h>

#define N 256

double a[N], c1[N], c2[N], c3[N], c4[N], c5[N], c6[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c1[i] = a[N - 1 - i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c2[i] = a[(N - 1) ^ i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c3[i] = a[~i & 255];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c4[i] = a[255 - i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c5[i] = a[(unsigned char)~i];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c6[i] = a[i ^ 0xff];
    for (int i = 0; i < N; i++)
        if (c1[i] != 255 - i || c2[i] != c1[i] || c3[i] != c1[i]
            || c4[i] != c1[i] || c5[i] != c1[i] || c6[i] != c1[i])
            return 1;
    printf("c[3] = %g\n", c1[3]);
    return 0;
}
