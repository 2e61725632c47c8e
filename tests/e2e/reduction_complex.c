// e2e: dims 1-6
/*
 * Reductions of _Complex values (docs/annotations.md, "Reductions"): +
 * and * over double _Complex and float _Complex.  The values are Gaussian
 * integers small enough that every partial sum and product is exact in
 * any order, so the translated program prints exactly what the
 * sequential one prints.
 */
#include <complex.h>
#include <stdio.h>

#define N 64
double re[N], im[N];
#pragma hyperdo distribute(re, im : block)

int main(void)
{
    for (int i = 0; i < N; i++) {
        re[i] = (i * 5) % 7 - 3;
        im[i] = (i * 3) % 5 - 2;
    }
    double _Complex z = 1.0 + 2.0 * I, w = 1.0;
    float _Complex f = 0.0f;
#pragma hyperdo doall reduction(+: z) reduction(*: w)
    for (int i = 0; i < N; i++) {
        z += re[i] + im[i] * I;
        /* (1 + i), i or 1: |w| stays below 2^32 */
        w *= i % 3 == 0 ? 1.0 + 1.0 * I : i % 3 == 1 ? 1.0 * I : 1.0;
        f = f + (float)re[i] * (float _Complex)I;
    }
    printf("z = %.1f%+.1fi\n", creal(z), cimag(z));
    printf("w = %.1f%+.1fi\n", creal(w), cimag(w));
    printf("f = %.1f%+.1fi\n", crealf(f), cimagf(f));
    return 0;
}
