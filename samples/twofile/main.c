// e2e: dims 1-8
/*
 * main.c: a program of two files (with stencil.c; docs/annotations.md,
 * "Programs of several files").  Heat spreads from one hot point of a
 * ring of N = 256 points: stencil.c's doalls take 40 steps of the heat
 * equation, main.c prints the temperature near the hot point and the
 * total heat every 8 steps, and checks that the total is kept (the
 * stencil's weights sum to 1) and that the profile is symmetric.
 *
 * Translated together (samples/Makefile, the rule of 'stencil'):
 *   hyperdo translate main.c stencil.c -o out/twofile
 * gives out/twofile/main.c and out/twofile/stencil.c, one mapping for the
 * doalls of both, the program's tables in main.c's translation.  u is
 * defined here and distributed by the pragma below; stencil.c declares it
 * extern (stencil.h).
 */
#include <math.h>
#include <stdio.h>

#include "stencil.h"

#pragma hyperdo cube(3)
#pragma hyperdo distribute(u : block)

double u[N];

/* Sequential code of this file between the other file's doalls. */
static int report(int step)
{
    double total = total_heat();
    printf("step %2d: u[%d] = %.6f, u[%d] = %.6f, total %.6f\n", step, N / 2, u[N / 2],
           N / 2 + 3, u[N / 2 + 3], total);
    int bad = fabs(total - 256.0) > 1e-9;
    for (int i = 1; i < N / 2; i++)
        bad |= fabs(u[N / 2 + i] - u[N / 2 - i]) > 1e-12;
    return bad;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        u[i] = i == N / 2 ? 256.0 : 0.0;
    int bad = report(0);
    for (int step = 1; step <= 40; step++) {
        diffuse();
        if (step % 8 == 0)
            bad |= report(step);
    }
    double weighted = 0;
    for (int i = 0; i < N; i++)
        weighted += u[i] * (i % 13 + 1);
    printf("checksum %.6f\n%s\n", weighted, bad ? "WRONG" : "ok");
    return bad;
}
