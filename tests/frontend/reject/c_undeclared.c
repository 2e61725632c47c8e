// expect: 9:16: error: use of undeclared identifier 'zz'
// rejected: clang's own diagnostic for an undeclared identifier
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = zz[i];
    return 0;
}
