#include <stddef.h>
#define N 256
#define IDX(i) ((i) ^ 0x0f)
#define DOALL _Pragma("hyperdo doall")
#pragma hyperdo cube(8)
typedef double vec[N];
static vec a, b;
struct s { double f[N]; } st;

void m(double *restrict out)
{
    DOALL
    for (int i = 0; i < N; i++)
        a[i] = b[IDX(i)] + st.f[i] + out[i];

    #pragma hyperdo doall
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
        b[i] = a[(i >> 7) | ((i & 127) << 1)];

    #pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        const double z = a[i ^ 0xff];
        if (z > 0)
            b[i] = z;
        else
            b[i] = -z;
    }
}
