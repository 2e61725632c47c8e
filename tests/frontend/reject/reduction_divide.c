// expect: 10:9: error: 's' is declared outside the doall loop and this statement is not a reduction
// rejected: /= is no reduction (not associative)
double a[256], b[256];

int main(void)
{
    double s = 1;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        s /= a[i];
    b[0] = s;
    return 0;
}
