// Accepted: every read of an element that the loop also writes happens
// before the iteration that writes it (an antidependence), or in the
// iteration that writes it.  Only flow dependences make a loop not a doall.
#include <stdio.h>

double a[256], b[256], c[256];

int main(void)
{
    for (int i = 0; i < 256; i++) {
        a[i] = i;
        b[i] = 256 - i;
    }
    /* reads its own element before writing it */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i] + a[i];
    /* even i reads a[i + 1], written later; odd i reads its own */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = a[i | 1] * 2;
    /* every iteration reads a[255] before the last one writes it */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = a[255] - a[i];
    /* the second statement reads what the first wrote in the same iteration */
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        c[i] = a[i] * 3;
        b[i] = c[i] + 1;
    }
    double sum = 0;
    for (int i = 0; i < 256; i++)
        sum += a[i] + b[i] + c[i];
    printf("%g\n", sum);
    return 0;
}
