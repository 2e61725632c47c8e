// e2e: dims 1-6
/*
 * Distributed arrays declared inside main (automatic storage) and a
 * static array local to a function, with their distribute pragmas next to
 * the declarations; the loops read and write them and a global one.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 64

int glob[N];
#pragma hyperdo distribute(glob : cyclic)

static int history(int round)
{
    static int hist[N], prev[N];
#pragma hyperdo distribute(hist, prev : block)
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        hist[i] = prev[i ^ 32] + glob[i] * round;
    int s = 0;
    for (int e = 0; e < N; e++) {
        s += (e + 1) * hist[e];
        prev[e] = hist[e];
    }
    return s;
}

int main(void)
{
    double in[N], out[N];
    float half[N];
#pragma hyperdo distribute(in, out, half : cyclic)

    for (int e = 0; e < N; e++) {
        in[e] = e * 1.5;
        glob[e] = e - 30;
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        out[i] = in[reverse(i, 6)] + glob[i ^ 1];
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        half[i] = (float)(out[i ^ 63] / 2);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        glob[i] = (int)half[N - 1 - i] * 3;

    for (int e = 0; e < N; e++)
        printf("%2d %g %g %d\n", e, out[e], (double)half[e], glob[e]);
    for (int round = 1; round <= 3; round++)
        printf("history %d: %d\n", round, history(round));
    return 0;
}
