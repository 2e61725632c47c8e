/*
 * column_gather.c — a column gather of a 16 x 16 matrix on the 4-cube
 * under two layouts, for runtime.sim.column (sim_sample.sh with
 * MAX_SENDS="1 15"): Lee and Aboelaze's skew puts one element of the
 * column on each processor, so no sender sends more than one message
 * (Property 1); cyclic puts the whole column on processor 5, which sends
 * 15.
 */
#include <stdio.h>

#pragma hyperdo cube(4)
double S[16][16], C[16][16], v[16], w[16];
#pragma hyperdo distribute(S : skew)
#pragma hyperdo distribute(C : cyclic)

int main(void)
{
    for (int k = 0; k < 256; k++)
        S[k / 16][k % 16] = C[k / 16][k % 16] = k % 29;
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        v[i] = S[i][5];
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        w[i] = C[i][5];
    double s = 0;
    for (int i = 0; i < 16; i++)
        s += (v[i] + 2 * w[i]) * (i + 1);
    printf("%.1f\n", s);
    return 0;
}
