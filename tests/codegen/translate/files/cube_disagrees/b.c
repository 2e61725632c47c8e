// expect: 3:1: error: '#pragma hyperdo cube(4)' disagrees with cube(3) in
// rejected: the files of a program run on one cube
#pragma hyperdo cube(4)
extern double x[256];

void twice(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = 2 * x[i];
}
