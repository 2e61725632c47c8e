// expect: 5:25: error: unknown mapping: expected rows(r_0, ..., r_{n-1}) or identity
// only the expected errors
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : rowz(1, 3, 4))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
