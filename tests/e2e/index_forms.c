// e2e: dims 1-8
/*
 * Every index form of docs/annotations.md ("Index expressions" and the
 * helpers of <hyperdo/bits.h>), one doall each, reading a 256-element
 * cyclic array into row f of o[32][256] (cyclic, so o[f][i] lives where
 * a[i] lives).  The values are distinct, so any element read from the
 * wrong place shows in its row's weighted sum.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 256

long long a[N], g[16][16];
#pragma hyperdo distribute(a, g : cyclic)
long long o[32][N];
#pragma hyperdo distribute(o : cyclic)

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = g[e >> 4][e & 15] = 7919LL * e + 13;

    /* 0: a constant: a broadcast */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[0][i] = a[7];

    /* 1: the loop variable: local */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[1][i] = a[i];

    /* 2: ^ with a constant */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[2][i] = a[i ^ 5];

    /* 3: & with a constant */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[3][i] = a[i & 0xF0];

    /* 4: | with a constant */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[4][i] = a[i | 3];

    /* 5: >> by a constant */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[5][i] = a[i >> 1];

    /* 6: << by a constant, masked */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[6][i] = a[(i << 1) & 255];

    /* 7: ~, masked */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[7][i] = a[~i & 255];

    /* 8: N-1-i, the complement */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[8][i] = a[N - 1 - i];

    /* 9: (N-1) ^ i */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[9][i] = a[(N - 1) ^ i];

    /* 10: | of affine parts: the transpose */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[10][i] = a[(i >> 4) | ((i & 15) << 4)];

    /* 11: ^ of affine parts: the Gray code */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[11][i] = a[i ^ (i >> 1)];

    /* 12: + without carries */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[12][i] = a[(i >> 4) + ((i & 15) << 4)];

    /* 13: *, /, % by powers of two */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[13][i] = a[i % 16 * 16 + i / 16];

    /* 14: a cast keeps the low bits */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[14][i] = a[(unsigned char)~i];

    /* 15: casts around ^ */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[15][i] = a[(int)((unsigned)i ^ 0x55u)];

    /* 16: ?: with a constant condition */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[16][i] = a[1 ? i ^ 64 : 0];

    /* 17: reverse() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[17][i] = a[reverse(i, 8)];

    /* 18: gray() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[18][i] = a[gray(i)];

    /* 19: rotl() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[19][i] = a[rotl(i, 3, 8)];

    /* 20: rotr() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[20][i] = a[rotr(i, 2, 8)];

    /* 21: shuffle() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[21][i] = a[shuffle(i, 8)];

    /* 22: unshuffle() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[22][i] = a[unshuffle(i, 8)];

    /* 23: transpose() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[23][i] = a[transpose(i, 8)];

    /* 24: bit() */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[24][i] = a[(bit(i, 7) << 1) | (i & 0xFD)];

    /* 25: several subscripts */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[25][i] = g[i & 15][i >> 4];

    /* 26: | of a part and a complemented part */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[26][i] = a[(i & 0x0F) | (~i & 0xF0)];

    /* 27: - without borrows */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[27][i] = a[i - (i & 1)];

    /* 28: - of a constant without borrows */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[28][i] = a[((i >> 2) << 2) | (3 - (i & 3))];

    /* 29: * and % together */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[29][i] = a[(i * 4) % 256];

    /* 30: a long index */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[30][i] = a[(long)i ^ 200L];

    /* 31: helpers composed */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        o[31][i] = a[reverse(gray(i), 8) ^ 0x81];

    for (int f = 0; f < 32; f++) {
        long long sum = 0;
        for (int e = 0; e < N; e++)
            sum += (e + 1) * o[f][e];
        printf("%2d: %lld %lld %lld %lld ... %lld  sum %lld\n", f, o[f][0], o[f][1],
               o[f][2], o[f][3], o[f][N - 1], sum);
    }
    return 0;
}
