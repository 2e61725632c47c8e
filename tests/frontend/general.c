/*
 * Communications that are not linear-complement: Hyperdo keeps them as
 * "general" with the reason, and still maps the LCCs of the file.
 *   a[(i + 1) & 255]   + with a carry: i + 1 is not GF(2)-affine;
 *   a[(i * 3) & 255]   * by a constant that is not a power of two;
 *   a[p[i]]            data-dependent (p[i] itself is local);
 *   a[(i << s) & 255]  a shift by a variable;
 * and one LCC, a[i ^ 64], so that the file has a mapping.
 */
#include <stdio.h>

double a[256], b[256], c[256], d[256], e[256], f[256];
int p[256];
int s = 1;

int main(void)
{
    for (int i = 0; i < 256; i++) {
        a[i] = i;
        p[i] = (i * 7) & 255;
    }
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[(i + 1) & 255];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        c[i] = a[(i * 3) & 255];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        d[i] = a[p[i]];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        e[i] = a[(i << s) & 255];
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        f[i] = a[i ^ 64];
    printf("%g %g %g %g %g\n", b[255], c[100], d[2], e[3], f[0]);
    return b[255] == 0 && c[100] == 44 && d[2] == 14 && e[3] == 6
           && f[0] == 64 ? 0 : 1;
}
