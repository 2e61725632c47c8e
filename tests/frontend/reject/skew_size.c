// expect: 6:28: error: 'a' cannot be distributed by skew on the 2-cube: it needs exactly 2^4 elements (an N x N matrix for N = 2^2 processors, Lee and Aboelaze, Section 2), and it has 2^5
// rejected: the skewed storage is defined for an N x N matrix on N
// processors only
#pragma hyperdo cube(2)
double a[8][4], v[4];
#pragma hyperdo distribute(a : skew)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        v[i] = a[i][2];
    return 0;
}
