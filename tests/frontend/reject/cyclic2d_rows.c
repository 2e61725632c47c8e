// expect: 7:28: error: 'a' cannot be distributed by cyclic, cyclic on the 3-cube: its 2 rows are fewer than the 4 rows of the 4 x 2 processor grid (the grid's rows take the larger half of the cube's dimensions, docs/layouts.md)
// only the expected errors
// rejected: the 3-cube's grid has 4 rows; a matrix of 2 rows would leave
// half of its processors without an element
#pragma hyperdo cube(3)
double a[2][64], v[8];
#pragma hyperdo distribute(a : cyclic, cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        v[i] = a[1][i];
    return (int)v[0];
}
