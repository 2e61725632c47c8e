/*
 * Functions declared inside bodies have linkage, and conflict across the
 * halves: read whole.
 */
double a[16], b[16];
void f(void) {
    int h(int);
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    double h(double);
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
