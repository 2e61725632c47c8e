// expect: 6:36: error: row 2 of the mapping (8) has bits beyond the 3-cube's
// only the expected errors
// rejected: a row naming an owner bit the cube does not have
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : rows(1, 2, 8))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
