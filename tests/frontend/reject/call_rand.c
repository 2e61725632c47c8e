// expect: 11:16: error: rand
// rejected: rand is not a pure function
#include <stdlib.h>

double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = rand() % 7;
    return 0;
}
