// args: -- -x c++
/*
 * C++ (a template defined in one half, used in the other): read whole.
 */
double a[16], b[16];
template <class T> void f(T t) {
    typename T::type z = 0;
    (void)z;
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
    f(1.0);
}
