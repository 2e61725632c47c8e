// expect: 14:9: error: this doall runs over the owner table of 'b', and it writes 'a', which is distributed by block: an iteration writes only element i of arrays of that table
// rejected: a doall over a table writes only arrays of that table (it may read others)
const int part[16] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
double a[16], b[16];
#pragma hyperdo distribute(b : table(part))
#pragma hyperdo distribute(a : block)
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++) {
        b[i] = a[i];
        a[i] = 2;
    }
    return 0;
}
