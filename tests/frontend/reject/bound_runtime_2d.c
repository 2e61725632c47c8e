// expect: 11:25: error: the bound of a doall loop must be a constant expression, or the loop must write 'x[i]' of a one-dimensional array
// rejected: a bound known only at run time needs the array written at
// x[i] to number the iterations; c[i][j] is two-dimensional (this once
// made the analysis loop for ever)
double a[4][4], c[4][4];
#pragma hyperdo distribute(a, c : block)

void f(int hi)
{
#pragma hyperdo doall
    for (int i = 0; i < hi; i++)
        for (int j = 0; j < 4; j++)
            c[i][j] = a[i][j];
}

int main(void)
{
    f(4);
    return 0;
}
