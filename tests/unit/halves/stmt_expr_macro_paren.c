// args: -- -Wno-compound-token-split-by-macro
/*
 * The same with the ( from a macro.
 */
double a[16], b[16];
#define LP (
void f(void) {
    int n = 0;
    n += LP { int h(double); 0; });
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    int n = 0;
    n += LP { int h(int); 0; });
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
