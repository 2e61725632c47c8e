// expect: 7:5: error: main must take no parameters or (int argc, char **argv)
// rejected: main(argc, argv, envp), a common extension, cannot be called
// by the run-time library's main
double a[256], b[256];
extern char **environ;

int main(int argc, char **argv, char **envp)
{
    (void)argv;
    if (envp != environ)
        return argc;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i];
    return 0;
}
