// e2e: dims 1-8
/*
 * BLAS-style kernels over pointer parameters (docs/annotations.md,
 * "Pointers and the heap"): axpy (y = a x + y, block), scal (x = a x,
 * cyclic) and a three-point smoothing that reads its neighbours (block),
 * each naming its arrays with their extent, distribute(x, y : block)
 * extent(n).  They are called on static arrays, on heap arrays, on parts
 * of arrays (x + 5, n smaller than the array), on null pointers with n
 * = 0 (C's loop reads nothing), with n of 0, 1, fewer
 * than the processors and more, and one after another on the same
 * memory, so that each call's extent, layout and elements are those of
 * that call.  move() takes its arrays written as arrays (struct point
 * p[], const double d[16]: pointers, as C makes them) and writes one
 * member of each element.  Every array is printed whole after all calls.
 */
#include <stdio.h>
#include <stdlib.h>

#define M 50

double p[M], q[M];

static void axpy(int n, double a, const double *x, double *y)
{
#pragma hyperdo distribute(x, y : block) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static void scal(long n, double a, double *x)
{
#pragma hyperdo distribute(x : cyclic) extent(n)
#pragma hyperdo doall
    for (long i = 0; i < n; i++)
        x[i] = a * x[i];
}

/* out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3 inside, out = in at the ends. */
static void smooth(int n, const double *in, double *out)
{
#pragma hyperdo distribute(in, out : block) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++)
        out[i] = i > 0 && i < n - 1 ? (in[i - 1] + in[i] + in[i + 1]) / 3 : in[i];
}

struct point {
    double x, y;
};

static void move(int n, struct point p[], const double d[16])
{
#pragma hyperdo distribute(p, d : cyclic) extent(n)
#pragma hyperdo doall
    for (int i = 0; i < n; i++) {
        p[i].x = p[i].x + d[i];
        p[i].y = p[i].y - d[i] * p[i].x;
    }
}

static void show(const char *name, const double *v, int n)
{
    printf("%s:", name);
    for (int e = 0; e < n; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n  " : " ", v[e]);
    printf("\n");
}

int main(void)
{
    for (int e = 0; e < M; e++) {
        p[e] = e % 7 - 3;
        q[e] = 0.5 * e;
    }
    axpy(M, 2.0, p, q);
    axpy(M - 13, -0.5, q + 13, p);
    scal(M, 0.25, q);
    scal(1, 8.0, p + 49);
    axpy(0, 3.0, p, q);
    axpy(0, 3.0, NULL, NULL);
    axpy(3, 1.5, p + 40, q + 2);

    int n = 23;
    double *u = malloc(n * sizeof *u), *w = calloc(n, sizeof *w);
    for (int e = 0; e < n; e++)
        u[e] = (e * 5) % 11;
    smooth(n, u, w);
    smooth(n, w, u);
    axpy(n, -1.0, w, u);
    scal(n - 3, -2.0, u + 3);
    smooth(5, p + 10, q + 30);
    smooth(M, q, p);

    struct point *pts = malloc(17 * sizeof *pts);
    for (int e = 0; e < 17; e++) {
        pts[e].x = e;
        pts[e].y = -0.5 * e;
    }
    move(17, pts, q);
    move(9, pts + 4, p + 20);

    show("p", p, M);
    show("q", q, M);
    show("u", u, n);
    show("w", w, n);
    for (int e = 0; e < 17; e++)
        printf("%s(%g, %g)", e % 6 ? " " : e ? "\n  " : "pts: ", pts[e].x, pts[e].y);
    printf("\n");
    free(pts);
    free(u);
    free(w);
    return 0;
}
