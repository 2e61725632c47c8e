// expect: 10:9: error: 's' is declared outside the doall loop and this statement is not a reduction
// rejected: s = e - s alternates signs: no reduction
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        s = a[i] - s;
    b[0] = s;
    return 0;
}
