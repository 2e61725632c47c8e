// expect: 13:9: error: 'b[p[i]]' writes an array distributed by a table at an element other than i
// rejected: over a table, iteration i runs on the owner of element i and writes only there
const int part[10] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1 };
const int p[10] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
double a[10], b[10];
#pragma hyperdo distribute(a, b : table(part))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[p[i]] = a[i];
    return 0;
}
