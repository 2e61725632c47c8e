// args: -- -Wp,-std=c89
/*
 * -Wp, passes anything to clang, -std=c89 here: read whole.
 */
double a[16], b[16];
void f(void) {
    int i, n;
    n = 4 //**/ 2; { static const int v1 __attribute__((section("s"))) = 1; n += v1; }
    #pragma hyperdo doall
    for (i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    int i, n;
    n = 4 //**/ 2; { static int v2 __attribute__((section("s"))) = 1; n += v2++; }
    #pragma hyperdo doall
    for (i = 0; i < 16; i++) b[i] = a[15 - i];
}
