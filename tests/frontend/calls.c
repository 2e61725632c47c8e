/*
 * Calls of pure functions in doall bodies (docs/annotations.md, "Calls"):
 *   sq(a[i ^ 1])       a reference inside a call's argument is a reference
 *                      like any other: the LCC x -> x ^ 1;
 *   a[scramble(i)]     a call inside an index: general, with the reason;
 *   sqrt, fabs, cabs   math.h and complex.h, of local elements: no message.
 */
#include <complex.h>
#include <math.h>

double a[256], b[256], c[256];

static inline double sq(double x)
{
    return x * x;
}

static int scramble(int i)
{
    return (i * 37 + 11) & 255;
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = sq(a[i ^ 1]) + sqrt(fabs(a[i]));
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[scramble(i)] + cabs(a[i] * I);
    return 0;
}
