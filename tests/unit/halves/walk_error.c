/*
 * Errors the walk finds, in both halves, and a warning of clang's: the
 * halves are given up and the file is read whole.
 */
#pragma hyperdo cube(4)

double a[16], b[16];

int f(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 12; i++)
        a[i] = b[i];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i += 2)
        b[i] = a[i];
}
