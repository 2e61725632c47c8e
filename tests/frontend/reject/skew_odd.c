// expect: 6:32: error: skew needs an even cube dimension (Lee and Aboelaze, Section 2: n = 2k), and the cube is the 3-cube; skew_rot distributes A(i, j) to rotl(i, 1, 3) XOR j for any n (Hyperdo's extension, docs/layouts.md)
// rejected: Lee and Aboelaze's layout swaps the two halves of a row
// number's bits, which an odd n does not have
#pragma hyperdo cube(3)
double a[8][8], v[8];
#pragma hyperdo distribute(a : skew)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        v[i] = a[i][2];
    return 0;
}
