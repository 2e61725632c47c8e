// expect: 3:1: error: '#pragma hyperdo network(butterfly)' disagrees with network(omega) in
// rejected: the files of a program run on one network
#pragma hyperdo network(butterfly)
extern double x[256];

void twice(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = 2 * x[i];
}
