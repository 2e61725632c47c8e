// expect: 7:47: error: pointers named with their extent in a program of several files are not supported yet
// rejected: a pointer's layout is bound at run time through the program's
// tables, which are written once, in the file with main
#pragma hyperdo cube(3)
void twice(int n, double *x)
{
#pragma hyperdo distribute(x : cyclic) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        x[i] = 2 * x[i];
}

int main(void)
{
    double v[4] = { 1, 2, 3, 4 };
    twice(4, v);
    return 0;
}
