// expect: 13:16: error: 'b' is written in this doall, so the element 'b[k]' reads must be known when translating
// rejected: k is declared in the body, so only the iteration's processor
// knows the element; a whole copy of b could serve it, but the loop writes
// b, and the copy would miss what earlier iterations wrote
double a[256], b[256];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 128; i++) {
        int k = (i ^ 3) + 128;
        a[i] = b[k];
        b[i] = a[i];
    }
    return 0;
}
