// expect: 7:46: error: 'count' in extent(count) is no parameter or variable of this function, and no name at file scope
// rejected: the extent is C the host evaluates in the doall's function: its names must be there
#pragma hyperdo cube(2)

void twice(int n, double *y)
{
#pragma hyperdo distribute(y : block) extent(count)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        y[i] = 2 * y[i];
}
