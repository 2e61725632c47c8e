// e2e: dims 1-3
/*
 * A doall whose loop variable is declared before the loop and read
 * nowhere after it: the translated host sets it to the value C leaves
 * (2^k) and must still build under -Wall -Wextra -Werror, where a
 * variable set and never read is an error (found by an adversarial
 * tester).
 */
#include <stdio.h>

#define N 8

double a[N], b[N];
#pragma hyperdo distribute(a, b : cyclic)

int main(void)
{
    int j;
    for (int k = 0; k < N; k++)
        b[k] = k * 1.5;
#pragma hyperdo doall
    for (j = 0; j < N; j++)
        a[j] = b[j ^ 1];
    printf("%g %g\n", a[3], a[6]);
    return 0;
}
