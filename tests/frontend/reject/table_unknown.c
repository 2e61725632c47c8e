// expect: 5:41: error: 'owners' in table(owners) is not an array declared at file scope
// rejected: an owner table that names nothing
#define N 10
double a[N], b[N];
#pragma hyperdo distribute(a, b : table(owners))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i];
    return 0;
}
