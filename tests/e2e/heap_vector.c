// e2e: dims 1-8
/*
 * Vectors on the heap whose size is known only at run time (docs/
 * annotations.md, "Pointers and the heap"): n comes from argc, so no
 * translator could know it; v and w are malloc'ed in main and named with
 * distribute(v, w : cyclic) extent(n); g, a global pointer, is calloc'ed
 * and named at file scope with extent(gn).  The doalls run over all of a
 * vector, over its interior (for (i = 1; i < n - 1; i++)) and over a
 * range read at run time, read their neighbours, and mix a heap vector
 * with a static array of any extent (block, 30 elements).  Between two
 * sweeps g grows by realloc, so its extent, its layout and its address
 * change.  The sequential code reads and writes every vector between the
 * doalls; all are printed whole.
 */
#include <stdio.h>
#include <stdlib.h>

double *g;
long gn;
#pragma hyperdo distribute(g : block) extent(gn)

double t[30];
#pragma hyperdo distribute(t : block)

int main(int argc, char **argv)
{
    (void)argv;
    int n = 40 + 19 * argc;     /* 59 when run without arguments */
    double *v = malloc((size_t)n * sizeof *v), *w = malloc((size_t)n * sizeof *w);
#pragma hyperdo distribute(v, w : cyclic) extent(n)
    for (int e = 0; e < n; e++) {
        v[e] = (e * 7) % 13 - 6;
        w[e] = 0;
    }
    gn = n / 2 + 3;
    g = calloc((size_t)gn, sizeof *g);
    for (int e = 0; e < 30; e++)
        t[e] = e * 0.25;

    for (int sweep = 0; sweep < 3; sweep++) {
#pragma hyperdo doall
        for (int i = 1; i < n - 1; i++)
            w[i] = 0.25 * v[i - 1] + 0.5 * v[i] + 0.25 * v[i + 1];
        w[0] = v[0];
        w[n - 1] = v[n - 1];
#pragma hyperdo doall
        for (long i = 0; i < gn; i++)
            g[i] = g[i] + w[(2 * i) % n] - (i < 30 ? t[i] : 0);
        int lo = sweep + 2, hi = n - 2 * sweep;
#pragma hyperdo doall
        for (int i = lo; i < hi; i++)
            v[i] = w[i] + (i % 3 == 0 ? g[i % gn] : 0);
#pragma hyperdo doall
        for (int i = 0; i < 30; i++)
            t[i] = t[i] + v[i + 3] * 0.5;
        if (sweep == 1) {
            long more = gn + 11;
            g = realloc(g, (size_t)more * sizeof *g);
            for (long e = gn; e < more; e++)
                g[e] = -(double)e;
            gn = more;
        }
    }

    for (int e = 0; e < n; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n  " : "v: ", v[e]);
    for (int e = 0; e < n; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n  " : "\nw: ", w[e]);
    for (long e = 0; e < gn; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n  " : "\ng: ", g[e]);
    for (int e = 0; e < 30; e++)
        printf("%s%g", e % 10 ? " " : e ? "\n  " : "\nt: ", t[e]);
    printf("\n");
    free(v);
    free(w);
    free(g);
    return 0;
}
