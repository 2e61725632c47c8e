// hd dim 4
double a[16], b[16][16], c[256];

void k(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; ++i)
        a[i] = b[i][15 - i] + c[i * 16 + i] + c[(i << 4) | i];
#pragma hyperdo doall
    for (int i = 0; i < 256; i += 1)
        c[i] = b[i >> 4][i & 15] + a[i & 15];
}
