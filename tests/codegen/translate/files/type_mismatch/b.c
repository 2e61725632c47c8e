// expect: 4:14: error: 'x' is declared here as float[256] and in
// rejected: the linker would join the two, and C leaves the program
// undefined
extern float x[256];

void twice(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = 2 * x[i];
}
