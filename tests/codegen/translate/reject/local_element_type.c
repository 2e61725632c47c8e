// expect: 13:9: error: the elements of 'pts' have a type declared inside a function ('struct pt'): the processors' code is at file scope and cannot name it; declare the type at file scope
// rejected: a distributed array's slices are declared at file scope, where
// a struct of main's block is not visible
#include <stdio.h>
#pragma hyperdo cube(2)
int main(void)
{
    struct pt { int x, y; };
    struct pt pts[4];
#pragma hyperdo distribute(pts : cyclic)
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        pts[i].x = i;
    printf("%d\n", pts[3].x);
    return 0;
}
