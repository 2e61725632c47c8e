// expect: 23:16: error: a doall body may call only pure functions, and 'clamp' is not: it calls 'clip' (line 17), which writes through a pointer (line 13)
// only the expected errors
// rejected: a write through a pointer (here to the caller's local, which
// would be harmless, but a pointer is not followed)
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

static double clip(double x, double lo)
{
    double y = x, *p = &y;
    if (*p < lo)
        *p = lo;
    return y;
}

static double clamp(double x) { return clip(x, 0); }

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = clamp(a[i]);
    return 0;
}
