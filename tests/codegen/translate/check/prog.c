/*
 * The program `hyperdo check` is tested on (translate_test.c, mode check).
 * As it is, its translation prints what it prints and exits with its
 * status, 3.  Each macro below makes the two programs differ in one way,
 * through HYPERDO_H, the include guard of hyperdo.h: the translated
 * program includes hyperdo.h before main, the sequential one never does.
 *   DIFFER  the translated program prints -1 for b[4] (line 5)
 *   STATUS  the translated program exits with status 4
 *   CRASH   the translated program kills itself with SIGSEGV
 *   LOOP    the sequential program never ends, and ignores SIGTERM
 */
#include <signal.h>
#include <stdio.h>

#include "prog.h"

int a[N], b[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i * i;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i ^ 1] + SCALE;
#if defined(DIFFER) && defined(HYPERDO_H)
    const int wrong = 4;
#else
    const int wrong = -1;
#endif
    for (int i = 0; i < N; i++)
        printf("b[%d] = %d\n", i, i == wrong ? -1 : b[i]);
    fflush(stdout);
#if defined(CRASH) && defined(HYPERDO_H)
    raise(SIGSEGV);
#endif
#if defined(LOOP) && !defined(HYPERDO_H)
    signal(SIGTERM, SIG_IGN);
    for (volatile int spin = 1; spin;)
        ;
#endif
#if defined(STATUS) && defined(HYPERDO_H)
    return 4;
#else
    return 3;
#endif
}
