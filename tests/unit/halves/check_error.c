/*
 * With cube(n) each half checks its own loops as soon as it is walked; an
 * error there (two iterations write one element) sends the file back to
 * the whole parse, which reports it.  The distribute pragma names an array
 * that only the other half uses: that is not an error of either half.
 */
#pragma hyperdo cube(4)
#pragma hyperdo distribute(c : cyclic)

double a[16], b[16], c[32];

void f(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = b[i ^ 1];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 32; i++)
        c[i & 15] = a[i & 15];
}
