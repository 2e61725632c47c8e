// expect: 11:16: error: subscript 2 is 16, but that dimension of 'a' has 16 elements
// rejected: the flattened index of a[0][i & 31] stays inside the 256
// elements of a, but C bounds each subscript by its own extent (C11
// 6.5.6p8, J.2): a[0][16] is undefined.
double a[16][16], b[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[0][i & 31];
    return 0;
}
