// expect: 16:9: error: the element written by 'b[perm(i)]' is not known at compile time (the index calls 'perm', whose value is known only when the loop runs
// only the expected errors
// rejected: perm is pure, but a written element must be known when
// translating (its owner runs the iteration, and no two iterations may
// write one element): a call in a written index is refused
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

static int perm(int i) { return (i * 5 + 3) & (N - 1); }

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[perm(i)] = a[i];
    return 0;
}
