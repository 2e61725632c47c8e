// expect: 8:25: error: power of two
// rejected: the bound 100 is not a power of two
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 100; i++)
        b[i] = a[i];
    return 0;
}
