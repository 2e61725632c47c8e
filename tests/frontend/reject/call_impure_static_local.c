// expect: 19:16: error: a doall body may call only pure functions, and 'next' is not: it declares 'calls' static (line 10): it would keep its value from call to call, on each processor apart
// only the expected errors
// rejected: a static local keeps state between calls
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

static double next(double x)
{
    static int calls;
    calls = calls + 1;
    return x + calls;
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = next(a[i]);
    return 0;
}
