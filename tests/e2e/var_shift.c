// e2e: dims 1-8
/*
 * Doalls inside sequential loops whose variable appears in the index:
 * x[i ^ (1 << s)] for s = 0 .. 7 (the index depends on 's', not a
 * compile-time constant: an LCC family, A the identity and b = 1 << s
 * computed when the loop runs, a neighbour exchange at each stage; the
 * loop over s is a stage loop, so the analysis reads one LCC per value of
 * s, docs/annotations.md "Stage loops").  The butterfly all-reduce:
 * after the 8 stages every element holds the sum of all 256, and a prefix
 * form of it (a Hillis-Steele scan with x[(i - d) & 255] and a mask
 * multiplier) gives every prefix sum.  Also a rotation by a variable
 * amount, rotl(i, r, 8).
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define LOG 8
#define N (1 << LOG)

long x[N], y[N], sx[N], sy[N], rot[N], tmp[N];
#pragma hyperdo distribute(x, y, sx, sy, rot, tmp : cyclic)

int main(void)
{
    for (int e = 0; e < N; e++)
        x[e] = sx[e] = (e * 131) % 257 - 100;

    /* All-reduce: x and y alternate. */
    for (int s = 0; s < LOG; s += 2) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            y[i] = x[i] + x[i ^ (1 << s)];
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            x[i] = y[i] + y[i ^ (1 << (s + 1))];
    }

    /* Inclusive scan: sx and sy alternate, d = 1, 2, 4, ... */
    for (int d = 1; d < N; d *= 4) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            sy[i] = sx[i] + (i >= d) * sx[(i - d) & (N - 1)];
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            sx[i] = sy[i] + (i >= 2 * d) * sy[(i - 2 * d) & (N - 1)];
    }

    for (int e = 0; e < N; e++)
        rot[e] = e;
    for (int r = 1; r < LOG; r += 3) {
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            tmp[i] = rot[rotl(i, r, LOG)] * 3 + r;
#pragma hyperdo doall
        for (int i = 0; i < N; i++)
            rot[i] = tmp[i] % 100003;
    }

    long sum = 0;
    for (int e = 0; e < N; e++) {
        printf("%3d %ld %ld %ld\n", e, x[e], sx[e], rot[e]);
        sum += (e + 1) * (x[e] + 3 * sx[e] + 5 * rot[e]);
    }
    printf("weighted sum %ld\n", sum);
    return 0;
}
