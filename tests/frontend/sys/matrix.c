/*
 * Matrix programs on 2-D arrays with the C library around them: a
 * transpose (Hou et al. 2001, Example 3), a Gray-code relabelling and a scaled
 * copy, each a doall over the 256 elements of a 16 x 16 matrix.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hyperdo/bits.h>

#define R 16

static float m[R][R], t[R][R], g[R][R];
static long double s[R][R];

int main(void)
{
    srand(7);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < R; c++)
            m[r][c] = (float)(rand() % 100) / 10.0f;
#pragma hyperdo doall
    for (int i = 0; i < R * R; i++)
        t[i >> 4][i & 15] = m[i & 15][i >> 4];
#pragma hyperdo doall
    for (int i = 0; i < R * R; i++)
        g[gray(i) >> 4][gray(i) & 15] = sqrtf(m[i >> 4][i & 15]) + fabsf(t[i >> 4][i & 15]);
#pragma hyperdo doall
    for (int i = 0; i < R * R; i++)
        s[i >> 4][i & 15] = sqrtl((long double)g[i >> 4][i & 15]) * 2.0L;
    char line[64];
    snprintf(line, sizeof line, "%.3f %.3f %.3Lf", t[1][2], g[0][0], s[3][3]);
    puts(line);
    return strlen(line) > 0 ? 0 : 1;
}
