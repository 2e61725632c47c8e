#pragma hyperdo cube(8)
double m[16][16], t[16][16], big[1024], small[32];

void transpose2d(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t[i & 15][i >> 4] = m[i >> 4][i & 15];

    #pragma hyperdo doall
    for (int i = 0; i < 1024; i++)
        big[i] = big[i ^ 512] + small[i & 31];
}
