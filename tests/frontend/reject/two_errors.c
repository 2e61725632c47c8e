// expect: 11:21: error: the condition of a doall loop must be
// expect: 15:16: error: printf
// rejected: both loops are diagnosed
#include <stdio.h>

double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i <= 200; i++)
        b[i] = a[i];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = printf("%d\n", i);
    return 0;
}
