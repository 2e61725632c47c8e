// expect: 9:9: error: 'y' is a pointer: name it with the number of elements it points to, '#pragma hyperdo distribute(y : block) extent(N)'
// rejected: a pointer's elements are distributed only with their number, given by extent(...)
#pragma hyperdo cube(2)

void twice(int n, const double *x, double *y)
{
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        y[i] = 2 * x[i];
}
