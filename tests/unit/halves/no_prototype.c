/*
 * f is defined without a prototype: its blanked copy would lose its
 * (empty) parameter list and the warning about f(1). Read whole.
 */
double a[16], b[16];
void f() {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    f(1);
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
