// expect: 7:32: error: 'y' points to elements whose number is known at run time: extent(...) goes with block, cyclic or block_cyclic(B)
// rejected: a pointer's elements are spread as HPF's BLOCK and CYCLIC of any extent; the skews need 2^(2n)
#pragma hyperdo cube(2)

void twice(int n, double *y)
{
#pragma hyperdo distribute(y : skew) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        y[i] = 2 * y[i];
}
