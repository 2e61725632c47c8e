// expect: 14:9: error: cannot check that no two iterations write one element of 'a': the index of 'a[(i * 3) & (N - 1)]' is not a GF(2)-affine map of i, and the loop has 2^23 iterations
// rejected: i * 3 is not GF(2)-affine, so whether two iterations write one
// element is decided by enumerating the iterations, which stops at 2^22;
// beyond that the loop is refused rather than translated unchecked (here
// it would in fact be safe: 3 is odd, so i * 3 mod 2^23 is one-to-one)
#define N (1 << 23)
float a[N];
#pragma hyperdo distribute(a : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[(i * 3) & (N - 1)] = 1.0f;
    return 0;
}
