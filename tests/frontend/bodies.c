/*
 * The accepted body forms, and reads that need no message:
 *   a block with declarations of local scalars, assignments and compound
 *   assignments to them, an empty statement, calls of pure math.h
 *   functions, several array writes with the same owner, reads of the
 *   element being updated (the read half of b[i] += ...), reads of arrays
 *   that are neither exactly 2^n elements nor distributed (replicated:
 *   every processor has a copy, so reading table[...] is local, whatever
 *   the index, even i + 1), and reads of scalars declared outside.
 * The only message of the file is the last loop's a[i ^ 128]:
 * y = I x + 00000001.
 */
#include <math.h>
#include <stdio.h>

double a[256], b[256], c[256];
double table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
double shifted[257];
double scale = 0.5;

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
    for (int i = 0; i < 257; i++)
        shifted[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        double t = a[i] * 2.0;
        double u;
        int j = i & 7;
        u = sqrt(fabs(t)) + sin(a[i]) * cos(a[i]);
        t += u;
        ;
        b[i] = t + table[j] + shifted[i + 1] * scale;
        c[i] = floor(b[i]) + pow(2.0, 3.0) + fmod(a[i], 3.0);
    }
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] += a[i] * c[i];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] -= a[i ^ 128];
    printf("%g %g\n", b[0], c[0]);
    return 0;
}
