// expect: 11:16: error: 'b' is distributed, and this reference to it comes from a macro
// rejected: a distributed read spelt by a macro
double a[256], b[256];

#define B(x) b[x]

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = B(i);
    return 0;
}
