// e2e: dims 1-8
/*
 * Rule 110, a one-dimensional cellular automaton on a ring of 256 cells
 * (unsigned char), 48 generations: each cell reads its two neighbours
 * (i - 1) and (i + 1) masked -- general communications, in a sequential
 * loop, so each doall runs 24 times; the two arrays alternate.  Every
 * generation is printed.
 */
#include <stdio.h>

#define N 256

unsigned char cur[N], nxt[N];
#pragma hyperdo distribute(cur, nxt : cyclic)

static void show(const unsigned char *c)
{
    char line[N + 1];
    for (int e = 0; e < N; e++)
        line[e] = c[e] ? '#' : '.';
    line[N] = '\0';
    printf("%s\n", line);
}

int main(void)
{
    cur[N - 1] = 1;
    cur[100] = 1;
    show(cur);
    for (int gen = 0; gen < 24; gen++) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            nxt[i] = (unsigned char)((110 >> (cur[(i - 1) & (N - 1)] << 2 | cur[i] << 1
                                              | cur[(i + 1) & (N - 1)])) & 1);
        show(nxt);
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            cur[i] = (unsigned char)((110 >> (nxt[(i + N - 1) & (N - 1)] << 2 | nxt[i] << 1
                                              | nxt[(i + 1) % N])) & 1);
        show(cur);
    }
    return 0;
}
