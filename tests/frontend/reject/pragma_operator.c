// expect: 13:5: error: _Pragma and pragmas from macros are not supported
// expect: 16:5: error: _Pragma and pragmas from macros are not supported
// rejected: the _Pragma operator (C11 6.10.9), directly and from a macro:
// Hyperdo reads '#pragma hyperdo' lines only, and says so rather than
// skipping the loops.
#define DOALL _Pragma("hyperdo doall")

double a[256], b[256];

int main(void)
{
    int ok = 1;
    _Pragma("hyperdo doall")
    for (int i = 0; i < 256; i++)
        a[i] = b[i ^ 1];
    DOALL
    for (int i = 0; i < 256; i++)
        b[i] = a[i ^ 2];
    return ok ? 0 : 1;
}
