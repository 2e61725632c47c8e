// expect: 8:18: error: must start at 0
// rejected: the loop variable starts at 1
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 1; i < 256; i++)
        b[i] = a[i];
    return 0;
}
