// expect: 6:28: error: 'a' cannot be distributed by xor on the 2-cube: it needs exactly 2^4 elements (an N x N matrix for N = 2^2 processors, Batcher 1977's storage, as Lee and Aboelaze cite it), and it has 2^5
// only the expected errors
// rejected: i XOR j is defined for an N x N matrix on N processors only
#pragma hyperdo cube(2)
double a[8][4], v[4];
#pragma hyperdo distribute(a : xor)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        v[i] = a[i][2];
    return 0;
}
