// expect: 6:41: error: the owner table 'part' must be a one-dimensional 'const int' array
// rejected: an owner table the program could change (every processor reads its own copy)
#define N 10
int part[N] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1 };
double a[N], b[N];
#pragma hyperdo distribute(a, b : table(part))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i];
    return 0;
}
