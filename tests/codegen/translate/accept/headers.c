// args: --dim 3
// Accepted: sizes from local headers, <hyperdo/bits.h> from the helpers'
// directory, main(argc, argv), an outer scalar and a replicated array.
#include <stdio.h>
#include <stdlib.h>

#include <hyperdo/bits.h>

#include "inc/sizes.h"
#include "inc/sizes.h"

#pragma hyperdo distribute(x, y : block)
double x[N], y[N];
int weights[4] = { 1, 2, 3, 4 };

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 3;
    for (int i = 0; i < N; i++)
        x[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        y[i] = x[reverse(i, LOG_N)] * scale + weights[i & 3];
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += y[i] * i;
    printf("%g\n", sum);
    return 0;
}
