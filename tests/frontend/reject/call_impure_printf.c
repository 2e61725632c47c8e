// expect: 20:16: error: a doall body may call only pure functions, and 'traced' is not: it calls 'printf' (line 12), which is a library function not known to be pure (only the helpers of hyperdo/bits.h and the pure functions of math.h and complex.h are)
// only the expected errors
// rejected: a helper that prints (I/O is an effect, and the processors
// would print in their own order)
#include <stdio.h>

#define N 256
double a[N], b[N];

static double traced(double x)
{
    printf("%g\n", x);
    return x;
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = traced(a[i]);
    return 0;
}
