// expect: 15:9: error: 'a' is distributed by a table: only a doall that writes element i of an array distributed by a table or spread (and so runs over its owners) may write it
// rejected: a doall whose home is a block array may read a table-distributed array, not write it
const int part[16] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
double a[16], b[16];
#pragma hyperdo distribute(a : table(part))
#pragma hyperdo distribute(b : block)
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++) {
        b[i] =
            a[i];
        a[i] = 0;
    }
    return 0;
}
