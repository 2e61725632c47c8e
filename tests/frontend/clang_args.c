// args: -- -DLOGN=6
/*
 * Compiler arguments after `--` reach clang: -DLOGN=6 makes the loop run
 * 2^6 times over arrays of 2^6 elements, so the cube is a 6-cube and the
 * read is the 6-bit bit-reverse (without the flag LOGN is 4).
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#ifndef LOGN
#define LOGN 4
#endif

double a[1 << LOGN], b[1 << LOGN];

int main(void)
{
    for (int i = 0; i < 1 << LOGN; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 1 << LOGN; i++)
        b[i] = a[reverse(i, LOGN)];
    printf("%g\n", b[1]);
    return b[1] == 1 << (LOGN - 1) ? 0 : 1;
}
