/*
 * A warning of clang's in one half only: the file is read whole, so that
 * the warning is reported once, as it would be.
 */
#pragma hyperdo cube(4)

double a[16], b[16];

int f(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = b[i ^ 3];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[15 - i];
}
