// expect: 12:9: error: 'a' is distributed, and this reference to it comes from a macro
// rejected: the write a[i] is spelt by a macro, and the translator
// rewrites references in the text
double a[256], b[256];

#define A(x) a[x]

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        A(i) = b[i];
    return 0;
}
