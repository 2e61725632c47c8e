// expect: 10:25: error: the bound of a doall loop may read only constants and integer variables declared outside the loop
// rejected: the bound reads an array element, which the processors do not
// receive before the loop
double a[256], b[256], c[256];
int nn[4] = { 256, 0, 0, 0 };

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < nn[0]; i++)
        b[i] = a[i];
    return 0;
}
