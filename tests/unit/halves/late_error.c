/*
 * An error only the checks after the walk find (two iterations write one
 * element), in the second half, and a distribute pragma naming no array.
 * Without cube(n) or --dim the loops are checked after the merge: the
 * merged reader reports both, quoting the file's own lines, as the whole
 * file's parse does.
 */

double a[16], b[16], c[16];

void f(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = b[i ^ 1];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        c[i & 7] = a[i];
}

#pragma hyperdo distribute(nothing : cyclic)
