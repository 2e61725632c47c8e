// expect: 9:9: error: bounds
// rejected: a write outside the array
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i | 256] = a[i];
    return 0;
}
