// expect: 5:39: error: expected 'block' after 'block,': the 2-D distributions are 'block, block' and 'cyclic, cyclic'
// rejected: HPF's (BLOCK, CYCLIC) is no Hyperdo distribution; the two
// that are must not take it for something else
double a[32][32], b[256];
#pragma hyperdo distribute(a : block, cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i / 32][i % 32];
    return 0;
}
