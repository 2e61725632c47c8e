// expect: 6:25: error: the mapping rows(1, 2) has 2 rows, but the cube is the 3-cube
// only the expected errors
// rejected: a mapping of another dimension than the cube's
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : rows(1, 2))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
