// e2e: dims 1-6
/*
 * Bitonic sort of 64 integers, the classic hypercube algorithm: for
 * k = 2, 4, .., 64 and j = k/2, .., 1 every element is compared with its
 * partner i ^ j and keeps the smaller or the larger.  The doall sits in
 * two sequential loops and its partner index depends on j (a general
 * communication); the body chooses with conditional expressions.
 */
#include <stdio.h>

#define N 64

int key[N], nxt[N];
#pragma hyperdo distribute(key, nxt : cyclic)

int main(void)
{
    unsigned seed = 12345u;
    for (int e = 0; e < N; e++) {
        seed = seed * 1103515245u + 12345u;
        key[e] = (int)(seed >> 16) % 1000 - 500;
    }

    int passes = 0;
    for (int k = 2; k <= N; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
#pragma hyperdo doall
            for (int i = 0; i < N; i++) {
                int mine = key[i], other = key[i ^ j];
                int up = (i & k) == 0, low = (i & j) == 0;
                int small = mine < other ? mine : other;
                int large = mine < other ? other : mine;
                nxt[i] = up == low ? small : large;
            }
#pragma hyperdo doall
            for (int i = 0; i < N; i++)
                key[i] = nxt[i];
            passes++;
        }
    }

    int sorted = 1;
    for (int e = 0; e < N; e++) {
        printf("%s%d", e % 16 ? " " : e ? "\n" : "", key[e]);
        if (e > 0 && key[e - 1] > key[e])
            sorted = 0;
    }
    printf("\n%d passes, %s\n", passes, sorted ? "sorted" : "NOT SORTED");
    return !sorted;
}
