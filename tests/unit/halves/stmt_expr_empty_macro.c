/*
 * A statement expression whose ( and { an empty macro keeps apart,
 * declaring a function in two bodies: clang's cursors see it, read whole.
 */
double a[16], b[16];
#define E
void f(void) {
    int n = 0;
    n += (E{ int h(double); 0; });
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) a[i] = b[i ^ 1];
}
void g(void) {
    int n = 0;
    n += (E{ int h(int); 0; });
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) b[i] = a[15 - i];
}
