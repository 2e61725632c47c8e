#include <math.h>
#pragma hyperdo cube(6)

double p[64], q[64];
int r[64];

void general(int k)
{
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++) {
        double s = sqrt(fabs(q[(i + 1) & 63])) + exp(q[(i * 3) % 64]);
        p[i] = s + q[i / 2] + q[i < 32 ? i : 63 - i] + q[(unsigned char)(i << 2)];
    }

    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        r[i] = r[i] + (int)q[(i - 7) & 63] + (int)p[(long)i ^ 0x3f] + (int)p[k & i];

    #pragma hyperdo doall
    for (unsigned i = 0; i < 64u; i++)
        q[i] = p[-i & 63] + p[~i & 63] + p[!i] + p[i % 0 + 1] + p[(i << 70) & 63];
}
