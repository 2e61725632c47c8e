// expect: 12:9: error: only assignments
// rejected: a call as a statement
#include <stdio.h>

double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = a[i];
        printf("%g\n", b[i]);
    }
    return 0;
}
