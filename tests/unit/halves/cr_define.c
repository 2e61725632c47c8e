/*
 * A lone CR ends a line for clang: the #define after it is a directive
 * inside a body, so the file is read whole.
 */
double a[16], b[16];
void f(void) {#define N 8
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
#ifndef N
#define N 4
#endif
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[i ^ N];
}
