// expect: 5:31: error: 'b' has 12 elements and the owner table 'part' has 10
// rejected: a table names the owner of every element, no more, no fewer
const int part[10] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1 };
double a[10], b[12];
#pragma hyperdo distribute(a, b : table(part))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[i] = a[i];
    return 0;
}
