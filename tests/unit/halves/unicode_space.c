// args: -- -w
/*
 * A no-break space before a #define inside a body: clang takes it for
 * white space and runs the directive. Read whole.
 */
double a[16], b[16];
#define K 1
void f(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ K];
 #undef K
 #define K 2
}
void g(void) {
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[i ^ K];
}
