// expect: 13:19: error: main is named here through a macro
// rejected: the translated program renames the program's main, and a
// name that comes out of a macro cannot be renamed in the text
#define ENTRY main
double a[16];
#pragma hyperdo distribute(a : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = i;
    return a[0] ? ENTRY() : 0;
}
