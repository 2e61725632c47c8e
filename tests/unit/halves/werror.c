// args: -- -Wall -Werror -Wno-error=unknown-pragmas
/*
 * With -Werror the blanking's "not defined" warning would be an error that
 * hides the unused function u: read whole.
 */
double a[16], b[16];
static void g(void);
static void u(void) {}
static void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
    g();
}
static void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
    f();
}
void (*entry)(void) = g;
