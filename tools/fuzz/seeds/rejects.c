/* Constructs the reader must reject with a diagnostic, one loop each. */
#pragma hyperdo cube(4) /* a comment */ // and another
double a[16], b[16], m[4][4], *p;
double s;
struct { double f; } st;
#define X(i) ((i) ^ 1)
#pragma hyperdo distribute(b /* c */ : block_cyclic(3))
#pragma hyperdo distribute(m : block_cyclic(n))

void rejects(int n, double vla[n])
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = p[i] + vla[i];

    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = *(b + i) + m[i][0] + m[i & 3][i >> 2] + b[X(i)];

    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) {
        i = 3;
        s = b[i];
        st.f = b[i];
        a[i] = ({ int t = i; b[t]; });
    }

    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) {
        int v0, v1, v2, v3, v4, v5, v6, v7, v8;
        double tmp[4];
        static double keep;
        double *q = &a[i];
        a[i] = b[i, 1] + b[i++] + keep + tmp[0] + *q;
    }

    #pragma hyperdo doall
    for (char i = 0; i < 256; i++)
        a[i & 15] = b[i & 15];

    #pragma hyperdo doall
    for (int i = 0; i < 16; i++) {
        if (b[i] > 0)
            continue;
        while (0)
            ;
        a[i] = b[i];
    }
}
