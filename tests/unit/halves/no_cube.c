/*
 * No cube pragma: the cube is the first doall's, in the first half; the
 * second half's loops are checked against it after the merge.
 */
double a[32], b[32], c[64];

void f(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        a[i] = b[(i << 1) & 31];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        c[i] = c[i ^ 32];
}

void h(void)
{
    #pragma hyperdo doall
    for (unsigned i = 0; i < 32; ++i)
        b[i] = a[((i << 1) | (i >> 4)) & 31];
}
