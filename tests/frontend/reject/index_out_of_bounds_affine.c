// expect: 9:16: error: bounds
// rejected: i << 1 reaches 510 on 256 elements
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i << 1];
    return 0;
}
