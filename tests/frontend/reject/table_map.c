// expect: 6:21: error: 'b' is distributed by a table, whose owners are data
// rejected: Wu 1984's data mappings are maps of an owner's bits; a table has none
const int part[16] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
double a[16], b[16];
#pragma hyperdo distribute(a, b : table(part))
#pragma hyperdo map(b : rows(2, 1))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[i];
    return 0;
}
