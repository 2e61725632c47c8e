// args: -- -DC=__COUNTER__
/*
 * __COUNTER__ through a macro given with -D: read whole.
 */
double a[16], b[16];
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ C];
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[i ^ C];
}
