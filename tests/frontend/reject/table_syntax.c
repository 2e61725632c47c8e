// expect: 4:41: error: expected table(T)
// rejected: table() without its owner table
double a[10], b[10];
#pragma hyperdo distribute(a, b : table())
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[i] = a[i];
    return 0;
}
