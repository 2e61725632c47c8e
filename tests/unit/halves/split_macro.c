/*
 * A macro closes one body and opens another: the scan sees one body where
 * clang sees two, and the halves would number the file-scope declarations
 * apart. Read whole.
 */
double a[16], b[16];
#define SPLIT } void h(void) {
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
    SPLIT
}
double y[64];
double x[16];
#pragma hyperdo distribute(y : block)
void f2(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = y[4 * i];
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = x[i ^ 2];
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i] + a[i ^ 3];
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i] + a[i ^ 5];
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i] + a[i ^ 7];
}
