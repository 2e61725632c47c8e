// expect-program: error: no file of the program defines main
// rejected: neither file defines main, whose file gets the program's
// tables and the real main
double x[256];

void fill(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = i;
}
