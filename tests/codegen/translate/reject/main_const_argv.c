// expect: 6:5: error: main must take no parameters or (int argc, char **argv)
// rejected: argv as const char ** is not what the run-time library passes;
// accepting it gives a program that does not compile
double a[256], b[256];

int main(int argc, const char **argv)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i];
    return argc > 1 && argv[1][0] == 'x';
}
