// expect: 5:21: error: 'b' is spread by block over 12 elements, not a power of two at least 2^2
// rejected: Wu 1984's data mappings compose with a GF(2) owner, which a spread has not
double a[12], b[12];
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo map(b : rows(2, 1))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 12; i++)
        b[i] = a[i];
    return 0;
}
