/*
 * transpose.c — ten transposes of a 512 x 512 matrix of doubles, rows in
 * blocks (block layout): each is Example 3's LCC of Hou et al. 2001 on the
 * processor bits.  bench/bench_node.sh times it sequentially and
 * translated at several cube dimensions (--dim).
 */
#include <stdio.h>

#define LOG 9
#define R (1 << LOG)

double m[R][R], t[R][R];
#pragma hyperdo distribute(m, t : block)

int main(void)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < R; c++)
            m[r][c] = r * 1000.0 + c;
    for (int k = 0; k < 5; k++) {
#pragma hyperdo doall
        for (int i = 0; i < R * R; i++)
            t[i >> LOG][i & (R - 1)] = m[i & (R - 1)][i >> LOG];
#pragma hyperdo doall
        for (int i = 0; i < R * R; i++)
            m[i >> LOG][i & (R - 1)] = t[i & (R - 1)][i >> LOG] + 1.0;
    }
    double s = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < R; c++)
            s += m[r][c] * ((r ^ c) & 7);
    printf("%.17g\n", s);
    return 0;
}
