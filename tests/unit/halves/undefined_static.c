/*
 * h is static, used and never defined, and its name appears in a comment
 * before a body: the warning is real, so the file is read whole.
 */
static void h(void);
double a[16], b[16];
/* unlike h(), this one is real */
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    h();
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
