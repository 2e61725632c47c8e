// hd args dZhq dim 8
#pragma hyperdo cube(4)

long u[16], v[16], w[16];

void scatter(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        u[i ^ 3] = v[i];

    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        w[i] = u[i & 12] + v[(i << 1) & 15];

    #pragma hyperdo doall
    for (int j = 0; j < 16; j++) {
        v[j] += w[j >> 1];
        u[j]++;
    }
}
