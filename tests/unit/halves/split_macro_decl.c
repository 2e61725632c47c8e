/*
 * A macro closes a body, declares at file scope and opens another body, in
 * each half: only the whole file sees the redefinition of dup.
 */
double a[16], b[16];
#define SPLIT(n) } int dup = 1; void n(void) {
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
    SPLIT(h1)
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
    SPLIT(h2)
}
