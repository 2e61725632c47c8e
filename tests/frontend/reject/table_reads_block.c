// expect: 13:16: error: this doall runs over the owner table of 'b', and 'a' is distributed by block
// rejected: a doall over a table uses arrays distributed by a table and replicated ones only
const int part[16] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
double a[16], b[16];
#pragma hyperdo distribute(b : table(part))
#pragma hyperdo distribute(a : block)
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[i];
    return 0;
}
