// compdb: -DLOGN=5
/*
 * `-p BUILDDIR`: the test writes BUILDDIR/compile_commands.json with a
 * command for this file that defines LOGN=5, and runs hyperdo analyze -p
 * BUILDDIR on it: a 5-cube and the 5-bit bit-reverse (without the flag LOGN
 * is 4).
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
