// expect: 8:33: error: expected a reduction operator
// rejected: an operator OpenMP's reduction clause does not have
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall reduction(/: s)
    for (int i = 0; i < 256; i++)
        s += a[i];
    b[0] = s;
    return 0;
}
