/*
 * The same through a macro parameter.
 */
double a[16], b[16];
#define SE(x, y) (x{ y })
void f(void) {
    int n = 0;
    n += SE(, int h(double); 0;);
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    int n = 0;
    n += SE(, int h(int); 0;);
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
