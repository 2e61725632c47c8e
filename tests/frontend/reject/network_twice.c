// expect: 4:1: error: a second '#pragma hyperdo network' (the first is on line 3)
// rejected: two networks for one program
#pragma hyperdo network(omega)
#pragma hyperdo network(butterfly)

double a[8], b[8];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        a[i] = b[i ^ 7];
    return 0;
}
