// expect: 21:23: error: a doall body may call only pure functions, and 'smooth' is not: it calls 'jitter' (line 15), which calls 'rand' (line 12), which is a library function not known to be pure (only the helpers of hyperdo/bits.h and the pure functions of math.h and complex.h are)
// only the expected errors
// rejected: smooth is pure but for the helper it calls, which calls rand
// (whose state every processor would step on its own)
#include <stdlib.h>

#define N 256
double a[N], b[N];

static double jitter(double x)
{
    return x + rand() % 3;
}

static double smooth(double x) { return 0.5 * jitter(x) + 0.5 * x; }

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i] + smooth(a[i ^ 1]);
    return 0;
}
