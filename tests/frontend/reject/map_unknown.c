// expect: 6:24: error: 'zz' in map is not an array used in a doall loop of this file
// only the expected errors
// rejected: a mapping of no array the doalls use
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a, zz : rows(1, 3, 4))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
