// expect: 12:16: error: reads element 0 of 'a', which the earlier iteration i = 0 writes
// rejected: the dependence is carried from one statement of the body to
// another: iteration 1's second statement reads a[0], written by
// iteration 0's first
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        a[i] = b[i];
        c[i] = a[i & ~1];
    }
    return 0;
}
