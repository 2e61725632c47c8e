// expect: 14:9: error: 'm[i][0]' writes an array distributed by cyclic (of any extent) at an element other than i
// rejected: a 2-D array of any extent is spread by its flattened elements; a doall writes element i (m[i / C][i % C]), not a row
#define R 6
#define C 10
double m[R][C], v[R];
#pragma hyperdo distribute(m : cyclic)
#pragma hyperdo distribute(v : block)
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < R; i++)
        m[i][0] = v[i];
    return 0;
}
