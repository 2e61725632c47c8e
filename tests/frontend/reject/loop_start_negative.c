// expect: 8:18: error: a doall loop may not start below 0
// rejected: iterations are numbered from 0
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = -1; i < 255; i++)
        b[i + 1] = a[i + 1];
    return 0;
}
