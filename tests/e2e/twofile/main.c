// e2e: dims 3-8
/* A program of two files (docs/annotations.md, "Programs of several
 * files"): doalls in both, an array defined in each and used by the
 * doalls of the other, and sequential code in both that reads and writes
 * the distributed arrays between the doalls.  Every array's checksum is
 * printed after each step, so that an element the host did not fetch or
 * send shows. */
#include <stdio.h>

#include "kernels.h"

#pragma hyperdo distribute(b : cyclic)
#pragma hyperdo distribute(c : block_cyclic(2))

double a[N];
static double c[N];      /* only main.c's */

/* a's address escapes here (the host keeps it current after every doall,
 * in both files); b's and c's do not (the host fetches them where the
 * sequential code of either file uses them). */
static double weighted(const double *x)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += x[i] * (i % 7 + 1);
    return s;
}

static void show(const char *step)
{
    double sb = 0, sc = 0;
    for (int i = 0; i < N; i++)
        sb += b[i] * (i % 5 + 1);   /* main.c reads kernels.c's array */
    for (int i = 0; i < N; i++)
        sc += c[i] * (i % 11 + 1);
    printf("%-8s a %.3f  b %.3f  c %.3f  b' %.3f\n", step, weighted(a), sb, sc, weighted_b());
}

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = (i * 37 % 101) * 0.25;
    show("init");

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        c[i] = a[i ^ 1] + 1.0;
    show("c");

    smooth();                      /* kernels.c's doall writes b from a */
    show("smooth");

    a[3] = 100.0;                  /* the host writes a between doalls */
    b[5] = -2.5;                   /* and b, which kernels.c defines */
    bump(7);                       /* kernels.c's sequential code writes b */
    show("edits");

    scale(0.5);                    /* kernels.c's doall: a from a and b */
    show("scale");

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i] + c[N - 1 - i];   /* main.c's doall writes kernels.c's b */
    show("b");

    smooth();
    a[0] += b[1];                  /* between doalls of the other file */
    scale(1.5);
    smooth();
    b[2] = a[7] - b[9];
    scale(1.5);
    show("rounds");
    return 0;
}
