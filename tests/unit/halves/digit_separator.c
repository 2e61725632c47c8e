// args: -- -std=c2x
/*
 * C2x digit separators (1'0) look like character constants to the scan:
 * -std=c2x is read whole.
 */
double a[16], b[16];
#define M 1
void f(void) {
    int x = 1'0; const char *s = "'/*";
#undef M
#define M 2
    /* the scan resumes after this */
    (void)x; (void)s;
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ M];
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[i ^ M];
}
