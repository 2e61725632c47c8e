/*
 * Legitimate forms at the edges of the language (docs/annotations.md):
 *   reverse(~i, 8)         reverse() drops the bits above 8 of the (huge)
 *                          unsigned long that ~i converts to: the
 *                          reverse-flip y = A3 x + 11111111;
 *   an unsigned and a long loop variable, a hexadecimal bound;
 *   a doall inside a sequential loop and inside a function other than
 *   main, a body in braces, a comment between the pragma and the loop.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

double a[256], b[256], c[256], d[256], g[256];

static void rounds(void)
{
    for (int round = 0; round < 2; round++) {
#pragma hyperdo doall
        for (int i = 0; i < 256; i++) {
            g[i] = a[i ^ 32];
        }
    }
}

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[reverse(~i, 8)];
#pragma hyperdo doall
    for (unsigned u = 0; u < 256; u++)
        c[u] = a[u ^ 2];
#pragma hyperdo doall
    /* a comment between the pragma and its loop */
    for (long l = 0; l < 0x100; l++)
        d[l] = a[l ^ 4];
    rounds();
    printf("%g %g %g %g\n", b[0], c[0], d[0], g[0]);
    return b[0] == 255 && c[0] == 2 && d[0] == 4 && g[0] == 32 ? 0 : 1;
}
