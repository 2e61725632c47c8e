// expect: 10:9: error: 'sum' is declared outside the doall loop and this statement is not a reduction
// rejected: a plain assignment to a scalar declared outside the loop (no reduction: the iterations race)
double a[256], b[256], c[256];

int main(void)
{
    double sum = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        sum = a[i];
    b[0] = sum;
    return 0;
}
