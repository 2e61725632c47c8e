// expect: 4:1: error: map pragmas in a program of several files are not supported yet
// rejected: each file's host would keep its own record of x's mapping
#pragma hyperdo cube(3)
#pragma hyperdo map(x : rows(2, 1, 4))
#pragma hyperdo distribute(x : block)
double x[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = i;
    return 0;
}
