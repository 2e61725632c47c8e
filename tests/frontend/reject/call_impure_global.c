// expect: 21:16: error: a doall body may call only pure functions, and 'bump' is not: it writes 'counter', declared outside it (line 13)
// only the expected errors
// rejected: bump changes a global at every call; on the processors each
// call would change that processor's own copy, and the host's counter
// would never see it
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)
int counter;

static int bump(int x)
{
    counter += x;
    return counter;
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = bump(i) + a[i];
    return counter;
}
