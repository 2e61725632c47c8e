// expect: 20:16: error: 'sum2' is not: it takes a pointer, 'v' (line 8): the argument could be a distributed array, whose elements are on other processors
// only the expected errors
// rejected: a helper taking a pointer (here to a replicated array, but
// the translator does not follow what a pointer points to)
#define N 256
double a[N], b[N], w[2] = { 0.25, 0.75 };

static double sum2(const double *v, double x)
{
    double s = 0;
    for (int k = 0; k < 2; k++)
        s += v[k] * x;
    return s;
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = sum2(w, a[i]);
    return 0;
}
