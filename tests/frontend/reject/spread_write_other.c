// expect: 12:9: error: 'a[i + 1]' writes an array distributed by block (of any extent) at an element other than i
// rejected: an array of any extent is spread (HPF's BLOCK): iteration i runs on the owner of element i and writes only there
#define N 100
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo cube(3)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N - 1; i++)
        a[i + 1] = b[i];
    return 0;
}
