// expect-file: error: no definition of main
// rejected: the translated program's host runs the file's own main, and
// this file has none (a library of doalls is not supported)
double a[256], b[256];

void copy(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i];
}
