// expect: 9:14: error: incompatible type
// rejected: clang's own diagnostic for a type error
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a;
    return 0;
}
