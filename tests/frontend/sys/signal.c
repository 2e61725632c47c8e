/*
 * A small signal-processing program with the usual headers: a window
 * function, a bit-reversal reorder (Hou et al. 2001, Fig. 1) and a magnitude, each
 * a doall over 256 samples, with I/O and allocation outside the loops.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hyperdo/bits.h>

#define PI 3.14159265358979323846

#define LOGN 8
#define N (1 << LOGN)

static double re[N], im[N], wre[N], wim[N], mag[N];

static void window(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double w = 0.5 - 0.5 * cos(2.0 * PI * i / (N - 1));
        wre[i] = re[i] * w;
        wim[i] = im[i] * w;
    }
}

static void reorder(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        re[i] = wre[reverse(i, LOGN)];
        im[i] = wim[reverse(i, LOGN)];
    }
}

int main(int argc, char **argv)
{
    double freq = argc > 1 ? atof(argv[1]) : 5.0;
    double *copy = malloc(sizeof re);
    if (!copy)
        return 1;
    for (int i = 0; i < N; i++) {
        re[i] = sin(2.0 * PI * freq * i / N);
        im[i] = 0.0;
    }
    window();
    reorder();
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        mag[i] = sqrt(re[i] * re[i] + im[i] * im[i]) + fabs(hypot(re[i], 1.0))
                 + pow(fabs(re[i]), 0.5) + exp(-fabs(im[i])) + log1p(mag[i] * 0)
                 + atan2(im[i], 1.0) + floor(re[i]) + ceil(im[i]);
    memcpy(copy, mag, sizeof mag);
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += copy[i];
    printf("sum of magnitudes: %.6f\n", sum);
    free(copy);
    return EXIT_SUCCESS;
}
