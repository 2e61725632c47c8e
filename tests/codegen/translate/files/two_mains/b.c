// expect: 5:5: error: main is also defined in
// rejected: a program has one main (a.c's is the first)
extern double x[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = 2 * x[i];
    return 0;
}
