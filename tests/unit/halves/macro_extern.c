/*
 * An extern declaration inside a body, written through a macro, so that no
 * text scan sees the word: read whole.
 */
#define EXT extern
double a[16], b[16];
void f(void) {
    EXT int c[4];
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    EXT double c[4];
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
