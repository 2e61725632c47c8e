/*
 * With cube(n) each half checks its own loops; the distribute pragma names
 * arrays that only one half or the other uses, which is checked once the
 * halves are merged.
 */
#pragma hyperdo cube(3)
#pragma hyperdo distribute(x : block)
#pragma hyperdo distribute(y : block_cyclic(2))

double x[32], y[64], z[8];

void f(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        x[i] = x[i ^ 31] + z[i & 7];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        y[i] = y[(i << 1) & 63];
}
