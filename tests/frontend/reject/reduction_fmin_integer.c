// expect: 11:9: error: this reduction of 'm' cannot be translated: fmin and fmax compute in floating point
// rejected: fmin on an integer reduction variable
#include <math.h>
int k[256], b[256];

int main(void)
{
    int m = 1000;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        m = fmin(m, k[i]);
    b[0] = m;
    return 0;
}
