// expect: 14:20: error: cannot check that 'a[i]' reads no element of 'a' that an earlier iteration writes: the element 'a[i ^ s]' writes is not known when translating
// rejected: a[i ^ s] writes one element per iteration whatever s is, but
// which iteration writes the element a[i] reads depends on s, so the flow
// dependences cannot be checked when translating (for s = 1, iteration 1
// reads a[1] after iteration 0 wrote it)
double a[16];
#pragma hyperdo distribute(a : block)

int main(void)
{
    int s = 1;
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i ^ s] = a[i] + 1;
    return 0;
}
