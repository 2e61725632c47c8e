// args: -- -Wno-backslash-newline-escape
/*
 * The same splice inside a string, which then goes on to the next line.
 */
double a[16], b[16];
#define M 1
void f(void) {
    const char *s = "x\ 
" "/*";
#undef M
#define M 2
    /* the scan resumes after this */
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ M];
    (void)s;
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[i ^ M];
}
