/*
 * Seed 000, Example 6: the transpose and the bit-reverse of an 8-cube in
 * one program.  Each alone has T = 8; the best single mapping for both
 * (Section 5, objective max) gives 2 and 1, so the file's cost is 2.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double a[256], t[256], r[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t[i] = a[transpose(i, 8)];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        r[i] = a[reverse(i, 8)];
    printf("%g %g\n", t[1], r[1]);
    return t[1] == 16 && r[1] == 128 ? 0 : 1;
}
