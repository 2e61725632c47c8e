// expect: 20:16: error: a doall body may call only pure functions, and 'apply' is not: it calls through a function pointer (line 13): the function called cannot be checked
// only the expected errors
// rejected: which function a pointer names is not known when translating
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

static double half(double x) { return x / 2; }

static double apply(double x)
{
    double (*f)(double) = half;
    return f(x);
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = apply(a[i]);
    return 0;
}
