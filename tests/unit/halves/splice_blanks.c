// args: -- -w
/*
 * A backslash, blanks, then the end of a line: clang splices the lines
 * (with a warning -w silences), and so does the scan now.
 */
double a[16], b[16];
#define M 1
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ M];
    /* ends here *\ 
/
#undef M
#define M 2
    /* the scan resumes here */
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[i ^ M];
}
