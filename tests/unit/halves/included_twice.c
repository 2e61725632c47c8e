/*
 * A header included twice declares t twice: two arrays, in the halves as
 * in the whole file.
 */
#pragma hyperdo distribute(t : block_cyclic(4))
#include "inc/t.h"
double b[16];
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = t[i ^ 1];
}
#include "inc/t.h"
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i ^ 3] = t[15 - i];
}
