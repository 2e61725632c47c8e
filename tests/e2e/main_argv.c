// e2e: dims 1-4
/*
 * main declared with char *argv[] (the host calls it with the real argc
 * and argv) and a doall whose bound comes from argc at run time through a
 * replicated scalar: iteration i reads a[(i + shift) & (N - 1)], a general
 * communication whose shift is only known when the program runs.
 */
#include <stdio.h>
#include <string.h>

#define N 32

int a[N], b[N];
#pragma hyperdo distribute(a, b : cyclic)

int main(int argc, char *argv[])
{
    int shift = argc + 2;               /* 3 when run without arguments */
    for (int e = 0; e < N; e++)
        a[e] = e * e;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[(i + shift) & (N - 1)] - i;
    printf("argc %d, argv[0] %s\n", argc, argv[0] && strlen(argv[0]) ? "set" : "empty");
    for (int e = 0; e < N; e++)
        printf("%d%c", b[e], e % 8 == 7 ? '\n' : ' ');
    return b[1] == 16 - 1 ? 0 : 2;
}
