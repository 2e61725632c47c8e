// expect: 6:25: error: the mapping rows(5, 6, 3) is singular over GF(2) (rank 2 of 3)
// only the expected errors
// rejected: a data mapping that is no bijection (Wu 1984, Section 1.2)
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : rows(5, 6, 3))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
