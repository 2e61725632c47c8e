// expect: 9:16: error: bounds
// rejected: ~i is negative: it must be masked
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[~i];
    return 0;
}
