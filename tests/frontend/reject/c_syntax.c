// expect: 9:24: error: expected ';' after expression
// rejected: clang's own diagnostic for a missing semicolon
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i] * 2
    return 0;
}
