/*
 * Static locals of two bodies in one section, const and not, conflict:
 * read whole.
 */
double a[16], b[16];
void f(void) {
    static const int v1 __attribute__((section("s"))) = 1;
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ v1];
}
void g(void) {
    static int v2 __attribute__((section("s"))) = 1;
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
    v2++;
}
