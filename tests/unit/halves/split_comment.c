/*
 * A comment opener split by a line splice, with braces inside the
 * comments: the scan reads it as clang does.
 */
extern double a[16];
double b[16];
/\
* ) { */
double a[16];
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
/\
* } */
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
