// args: -- -std=c89
/*
 * In C89 // is no comment: read whole, whatever the text scan thinks.
 */
double a[16], b[16];
void f(void) {
    int n;
    #pragma hyperdo doall
    for (n = 0; n < 16; n++) a[n] = b[n ^ 1];
    n = 4 //**/ 2; } int dupv = 1; void h1(void) { int m; m = 4
    ;
}
void g(void) {
    int n;
    #pragma hyperdo doall
    for (n = 0; n < 16; n++) b[n] = a[15 - n];
    n = 4 //**/ 2; } int dupv = 1; void h2(void) { int m; m = 4
    ;
}
