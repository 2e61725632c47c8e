// expect: 12:16: error: 'a[i + 1]' reads 'a', which this doall writes, at an element other iterations may write
// rejected: a read of a written spread array at another element depends on the order of the iterations
#define N 100
double a[N];
#pragma hyperdo distribute(a : cyclic)
#pragma hyperdo cube(3)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N - 1; i++)
        a[i] = a[i + 1] * 2;
    return 0;
}
