/*
 * The file includes itself, each copy defining h in another half: read
 * whole.
 */
#ifndef ONCE
#define ONCE
double a[16], b[16];
void h(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
#include "self_include.c"
#else
void h(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
#endif
