// e2e: dims 1-5
/*
 * Two translations tools/difftest found wrong:
 *   - a guarded read whose element lies outside its array where the guard
 *     is false (a0[i ^ 8192] under i > 5560, never true here) was taken as
 *     the base of the loop's local offsets, and the writes went far outside
 *     the slice (seed 300118);
 *   - a const array of exactly 2^n elements was distributed, and the host
 *     could not take it back (passing a const array as void *; seed
 *     300128): a const array is never written, so every processor reads
 *     its own copy.
 */
#include <math.h>
#include <stdio.h>

#define N 128

short a0[32], q4[N];
#pragma hyperdo distribute(q4 : cyclic)
const long long t4[32] = { 275, 356, -207, -849, -249, -668, -495, -786, -623, 759, 89,
                           -623, -716, -31, 599, -605, 46, -354, 207, 256, 942, -567, 459,
                           -287, -771, 881, -980, -252, -166, -380, -326, -495 };
long long u[N];
#pragma hyperdo distribute(u : block)

int main(void)
{
    for (int e = 0; e < 32; e++)
        a0[e] = (short)(e * 7 - 100);
    for (int e = 0; e < N; e++)
        q4[e] = (short)((e * 109 + 103) % 32);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        q4[i] = (short)fmod(fabs((i > 5560 ? a0[i ^ 8192] : -5.0) * 9), 32.0);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        u[i] = t4[i & 31] * 3 + q4[i];
    long long s = t4[14];
    for (int e = 0; e < N; e++)
        s += (q4[e] + u[e]) * (e + 1);
    printf("%lld\n", s);
    return 0;
}
