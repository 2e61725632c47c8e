// expect: 10:9: error: sum
// rejected: a reduction into a scalar declared outside the loop
double a[256], b[256], c[256];

int main(void)
{
    double sum = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        sum += a[i];
    b[0] = sum;
    return 0;
}
