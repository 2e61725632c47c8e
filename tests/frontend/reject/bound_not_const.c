// expect: 9:25: error: constant
// rejected: the bound is a variable
double a[256], b[256], c[256];

int main(void)
{
    int n = 256;
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        b[i] = a[i];
    return 0;
}
