// expect: 6:28: error: 'a' cannot be distributed by block, block: its extents must be powers of two, and it is a[6][8]
// only the expected errors
// rejected: the grid's bits are the top bits of the row and the column
#pragma hyperdo cube(2)
double a[6][8], v[4];
#pragma hyperdo distribute(a : block, block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        v[i] = a[1][i];
    return (int)v[0];
}
