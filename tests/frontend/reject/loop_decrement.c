// expect: 8:30: error: step by one
// rejected: a decrement
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i--)
        b[i] = a[i];
    return 0;
}
