// expect: 7:5: error: main must take no parameters or (int argc, char **argv)
// rejected: a variadic main cannot be called through the run-time
// library's int (*)(int, char **); accepting it gives a program that does
// not compile
double a[256], b[256];

int main(int argc, char **argv, ...)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i];
    return argc > 1 && argv[1][0] == 'x';
}
