// e2e: dims 4-4
/*
 * Data mappings (Wu 1984, Section 1.2) on the 4-cube, mapped for the
 * omega network (the plan's processor mapping F then comes on top of
 * each array's data mapping), over layouts that are no bit field:
 *
 *   A  a 16 x 16 matrix under Lee and Aboelaze's skew, mapped from the
 *      start by rows(3, 2, 12, 8) xor(5): its rows and columns gathered
 *      with numbers known only at run time (LCC families), then the
 *      identity, then the first mapping again for a doall that writes
 *      every element (the layout changes, nothing moves);
 *   B  the same skew, mapped by rows(1, 3, 7, 15) xor(9) for a transpose;
 *   x  16 elements, one per processor, under rows(15, 2, 4, 8) from the
 *      start, read through a distributed index (requests);
 *   h  block, file scope: its slices are runs of the host's copy on the
 *      threads back end until a remap moves its elements into slices of
 *      their own, and again after it is mapped back and sent anew;
 *   y  block, passed whole to a function (it escapes: sent before and
 *      fetched after every doall, so its remaps only change the layout).
 *
 * The program must print what it prints as sequential C.
 */
#include <stdio.h>

#pragma hyperdo cube(4)
#pragma hyperdo network(omega)

#define P 16
#define M (P * P)

double A[P][P], B[P][P], x[P], y[M], h[M];
int idx[M];
#pragma hyperdo distribute(A, B : skew)
#pragma hyperdo distribute(y, h, idx : block)
#pragma hyperdo map(A : rows(3, 2, 12, 8) xor(5))
#pragma hyperdo map(x : rows(15, 2, 4, 8))

static void show(const char *what, const double *v, int n)
{
    double sum = 0.0;
    for (int e = 0; e < n; e++)
        sum += (e % 5 + 1) * v[e];
    printf("%s: %g %g ... %.17g\n", what, v[0], v[n - 1], sum);
}

static double sum_A(void)
{
    double sum = 0.0;
    for (int i = 0; i < P; i++)
        for (int j = 0; j < P; j++)
            sum += (i + 2 * j + 1) * A[i][j];
    return sum;
}

static double sum_h(void)
{
    double sum = 0.0;
    for (int e = 0; e < M; e++)
        sum += (e % 3 + 1) * h[e];
    return sum;
}

int main(void)
{
    for (int i = 0; i < P; i++)
        for (int j = 0; j < P; j++)
            A[i][j] = i * P + j;
    for (int e = 0; e < M; e++) {
        h[e] = e % 11;
        idx[e] = (e * 7 + 3) % M;
    }
    int I = 3, J = 11;

#pragma hyperdo doall
    for (int p = 0; p < P; p++)
        x[p] = A[I][p] + 2 * A[p][J];

#pragma hyperdo map(B : rows(1, 3, 7, 15) xor(9))
#pragma hyperdo doall
    for (int i = 0; i < M; i++)
        B[i >> 4][i & 15] = A[i & 15][i >> 4] + h[i];

#pragma hyperdo map(A, B : identity)
#pragma hyperdo map(h : rows(9, 2, 4, 8) xor(6))
#pragma hyperdo doall
    for (int i = 0; i < M; i++)
        y[i] = A[i >> 4][i & 15] - B[i & 15][i >> 4] + x[idx[i] & 15] + h[M - 1 - i];
    show("y", y, M);
    printf("h %.17g\n", sum_h());

#pragma hyperdo map(A : rows(3, 2, 12, 8) xor(5))
#pragma hyperdo map(h : identity)
#pragma hyperdo doall
    for (int i = 0; i < M; i++)
        A[i >> 4][i & 15] = y[M - 1 - i] * 0.5 + h[i ^ 17];
    printf("A %.17g\n", sum_A());
    h[7] += 2;

#pragma hyperdo map(y : rows(2, 1, 8, 4) xor(15))
#pragma hyperdo doall
    for (int i = 0; i < M; i++)
        y[i] = x[(i >> 4) ^ 5] + A[i & 15][(i >> 4) ^ 3] + h[i];
    show("y", y, M);
    printf("A %.17g h %.17g\n", sum_A(), sum_h());
    return 0;
}
