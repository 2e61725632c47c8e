// hd compdb args ab
#pragma hyperdo cube(8)

double a[256], b[256], c[256];

void kernel(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i ^ 5] + c[255 - i];

    #pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        double t = b[(i >> 4) | ((i & 15) << 4)];
        c[i] = t * a[i ^ (i >> 1)];
    }
}
