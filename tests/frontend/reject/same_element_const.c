// expect: 9:9: error: both write element 0 of 'a'
// rejected: every iteration writes a[0]
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[0] = b[i];
    return 0;
}
