// expect: 6:28: error: 'a' cannot be distributed by block, block: HPF's (BLOCK, BLOCK) (High Performance Fortran Forum 1993) lays out the rows and the columns of a 2-D array T a[R][C], and 'a' has 1 dimension
// only the expected errors
// rejected: a 1-D array has no rows and columns to lay out on a grid
#pragma hyperdo cube(2)
double a[16], v[4];
#pragma hyperdo distribute(a : block, block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        v[i] = a[i];
    return (int)v[0];
}
