// expect: 7:28: error: 'v' cannot be distributed by skew on the 2-cube: it needs exactly 2^4 elements (an N x N matrix for N = 2^2 processors, Lee and Aboelaze, Section 2), and it has 2^2
// only the expected errors
// rejected: v's layout is refused; the write to v gets no second error
// saying that v is "not distributed" (it is named in distribute)
#pragma hyperdo cube(2)
double a[16], v[4];
#pragma hyperdo distribute(v, a : skew)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        v[i] = a[i];
    return (int)v[0];
}
