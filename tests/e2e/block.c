// e2e: dims 1-8
/*
 * Block layout: 512 elements, element e on processor e >> (9 - n), i.e.
 * contiguous blocks of 2^(9-n).  Reads that stay inside a block (low bits
 * flipped), that cross blocks (high bits flipped, reversed), and a loop
 * over half the elements of a 512-element array from a 256-element one
 * (a 256-element array computed from both halves of a 512-element one).
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 512

long a[N], b[N], c[N];
#pragma hyperdo distribute(a, b, c : block)
long h[N / 2];
#pragma hyperdo distribute(h : block)

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = (long)e * e - 1000;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ 3] - a[i ^ 256];

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = b[reverse(i, 9)] + 2 * a[i];

#pragma hyperdo doall
    for (int i = 0; i < N / 2; i++)
        h[i] = c[i ^ 0x1f] + c[i + 256];

    long sum = 0;
    for (int e = 0; e < N; e++) {
        printf("%s%ld/%ld", e % 8 ? " " : e ? "\n" : "", b[e], c[e]);
        sum += (e + 1) * (b[e] + 3 * c[e]);
    }
    printf("\n");
    for (int e = 0; e < N / 2; e++) {
        printf("%s%ld", e % 16 ? " " : e ? "\n" : "", h[e]);
        sum += (e + 1) * 7 * h[e];
    }
    printf("\nweighted sum %ld\n", sum);
    return 0;
}
