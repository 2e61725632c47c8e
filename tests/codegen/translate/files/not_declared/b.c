// expect: 4:28: error: 'x' in distribute is not declared in this file
// rejected: a distribute pragma stands in a file that declares the array
// (the one that defines it, or one with an extern declaration)
#pragma hyperdo distribute(x : block)
double y[256];

void fill(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        y[i] = i;
}
