#pragma hyperdo cube(4)
double a[64], b[64], c[256];
#pragma hyperdo distribute(a, b : cyclic)
#pragma hyperdo distribute(c : block_cyclic(4))

void d(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        a[i] = b[i ^ 17] + c[(i << 2) | 3];

    #pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[i >> 2] * b[(i & 63) ^ 63];
}
