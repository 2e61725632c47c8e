// expect: 4:28: error: power-of-two number of elements
// rejected: a distributed array of 1000 elements
double a[1000], b[1024];
#pragma hyperdo distribute(a, b : cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
