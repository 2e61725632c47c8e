// expect: 4:48: error: power of two
// rejected: a block size that is not a power of two
double a[1024], b[1024];
#pragma hyperdo distribute(a, b : block_cyclic(3))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
