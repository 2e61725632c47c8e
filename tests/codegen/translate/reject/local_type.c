// expect: 12:5: error: 'q' (line 13) is read in this doall but its type 'qs' is declared inside a function: the processors' code is at file scope and cannot name it; declare the type at file scope
// rejected: the node code declares the loop's environment at file scope,
// where a typedef of main's block is not visible
#include <stdio.h>
#pragma hyperdo cube(2)
int a[4];
int main(void)
{
    typedef struct { int off; } qs;
    qs q = { 3 };
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        a[i] = i + q.off;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    return 0;
}
