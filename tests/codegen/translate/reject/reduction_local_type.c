// expect: 13:5: error: 's' (line 14) is a reduction of this doall but its type 'count_t' is declared inside a function: the processors' code is at file scope and cannot name it; declare the type at file scope
// rejected: the node code declares the reduction's private copy and the
// static its result comes home in at file scope, where a typedef of
// main's block is not visible
#include <stdio.h>
#pragma hyperdo cube(2)
int a[4];
int main(void)
{
    typedef long count_t;
    count_t s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        s += a[i];
    printf("%ld\n", (long)s);
    return 0;
}
