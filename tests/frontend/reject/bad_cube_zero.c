// expect: 3:22: error: cube
// rejected: cube(0)
#pragma hyperdo cube(0)

double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
