/*
 * f is defined twice, once in each half: each half alone sees one
 * definition, so the file is read whole, which reports the redefinition.
 */
double a[16], b[16];
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
