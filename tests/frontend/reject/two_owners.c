// expect: 12:9: error: split
// rejected: two writes with different owners
#include <hyperdo/bits.h>

double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = a[i];
        c[reverse(i, 8)] = a[i];
    }
    return 0;
}
