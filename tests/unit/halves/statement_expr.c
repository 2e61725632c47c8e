/*
 * Functions declared inside statement expressions in two bodies conflict:
 * read whole.
 */
double a[16], b[16];
void f(void) {
    (void)({ int h(int); 0; });
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    (void)({ double h(double); 0; });
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
