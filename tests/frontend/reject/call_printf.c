// expect: 11:16: error: printf
// rejected: printf is not a pure function
#include <stdio.h>

double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = printf("%d\n", i);
    return 0;
}
