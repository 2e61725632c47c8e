// expect-in: inc/doall_helper.h:5:9: error: a '#pragma hyperdo' in a file the input includes is not read
// only the expected errors
// rejected: a doall in a file the input includes.  Hyperdo reads the
// pragmas of the file it translates; clang ignores the header's, so the
// loop would run sequentially on elements the processors hold (the
// program printed "0 2 4 6" where the sequential one prints "100 101 102
// 103", found by an adversarial tester): an error, never skipped.
#include <stdio.h>
#define N 4
double a[N], b[N];
#pragma hyperdo distribute(a, b : cyclic)
#include "inc/doall_helper.h"
int main(void)
{
    for (int k = 0; k < N; k++)
        a[k] = k;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i] * 2;
    helper();
    printf("%g %g %g %g\n", b[0], b[1], b[2], b[3]);
    return 0;
}
