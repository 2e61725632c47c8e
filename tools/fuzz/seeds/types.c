/* Index expressions through every integer type and a few odd forms. */
#include <stdint.h>
#pragma hyperdo cube(5)
enum e { E0 = 3, E1 = 17 };
double a[32], b[32];
_Bool flag;

void types(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 32; i++) {
        char c = (char)i;
        signed char sc = (signed char)(i ^ E0);
        short sh = (short)(i << 1);
        unsigned short us = (unsigned short)i;
        long long ll = (long long)i * 3;
        uint8_t u8 = (uint8_t)(i + E1);
        int64_t s64 = -(int64_t)i;
        a[i] = b[c & 31] + b[sc & 31] + b[sh & 31] + b[us ^ 31] + b[ll & 31]
             + b[u8 & 31] + b[s64 & 31] + b[(enum e)i & 31] + b[flag ? i : 31 - i];
    }

    #pragma hyperdo doall
    for (unsigned long i = 0; i < 32ul; i += 1)
        b[i] = a[(i >> 3 | i << 2) & 31] + a[i % 32] + a[i / 1] + a[(i & 16) >> 4]
             + a[i <= 15] + a[i != 3] + a[i && 1] + a[i || 0] + a[+i] + a[0x1f & -i];
}
