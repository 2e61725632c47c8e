// expect: 13:5: error: the bound 10 of this doall loop is not a power of two: a loop of any size must write arrays distributed by table(T)
// rejected: any bound only over a table
const int part[10] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1 };
double a[10], b[16], c[16];
#pragma hyperdo distribute(a : table(part))
#pragma hyperdo distribute(b, c : block)
#pragma hyperdo cube(2)

int main(void)
{
    a[0] = 1;
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[i] = c[i];
    return 0;
}
