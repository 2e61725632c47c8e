#pragma hyperdo cube(99)
#pragma hyperdo cube()
#pragma hyperdo cube(-1)
#pragma hyperdo bogus
#pragma hyperdo
double a[256], b[256];
int n = 256;

void bad(void)
{
    #pragma hyperdo doall
    a[0] = 1;

    #pragma hyperdo doall
    for (int i = 0; i < n; i++)
        a[i] = b[i];

    #pragma hyperdo doall
    for (int i = 0; i < 255; i++)
        a[i] = b[i];

    #pragma hyperdo doall
    for (int i = 1; i <= 256; i--)
        a[i] = b[i];

    #pragma hyperdo doall
    #pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        #pragma hyperdo doall
        for (int j = 0; j < 256; j++)
            a[j] = b[i];
        a[i] = a[i ^ 1];
    }
}
#pragma hyperdo doall
