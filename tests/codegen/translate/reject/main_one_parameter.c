// expect: 5:5: error: main must take no parameters or (int argc, char **argv)
// rejected: main(int) (clang warns about it as well)
double a[256], b[256];

int main(int n)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i];
    return n - 1;
}
