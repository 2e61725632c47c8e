// expect: 4:28: error: 'x' is distributed here by cyclic and in
// rejected: an array has one distribution, whichever file says it
extern double x[256];
#pragma hyperdo distribute(x : cyclic)

void twice(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = 2 * x[i];
}
