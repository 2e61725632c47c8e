// expect: 6:28: error: 'a' cannot be distributed by block, block on the 4-cube: its 2 columns are fewer than the 4 columns of the 4 x 4 processor grid
// only the expected errors
// rejected: the 4-cube's grid has 4 columns, the matrix 2
#pragma hyperdo cube(4)
double a[64][2], v[16];
#pragma hyperdo distribute(a : block, block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        v[i] = a[i][1];
    return (int)v[0];
}
