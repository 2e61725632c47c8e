// args: -- -fms-extensions
/*
 * __pragma(pack(1)) in one body changes a later struct: read whole.
 */
double a[16], b[16];
struct S { char c; double d; };
void f(void) {
    __pragma(pack(1))
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
struct T { char c; double d; };
double c[sizeof(struct T) == 9 ? 32 : 16];
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) c[i] = a[15 - i];
}
