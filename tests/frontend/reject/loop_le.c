// expect: 8:21: error: <
// rejected: the condition is i <= E (use i < E with E a power of two)
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i <= 255; i++)
        b[i] = a[i];
    return 0;
}
