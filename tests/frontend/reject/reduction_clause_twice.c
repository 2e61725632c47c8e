// expect: 8:52: error: 's' is named in a reduction clause of this doall already
// rejected: one variable in two reduction clauses
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall reduction(+: s) reduction(+: s)
    for (int i = 0; i < 256; i++)
        s += a[i];
    b[0] = s;
    return 0;
}
