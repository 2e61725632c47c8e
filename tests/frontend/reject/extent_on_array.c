// expect: 8:28: error: 'a' in distribute ... extent(...) is not a pointer used in a doall loop of this file
// rejected: extent gives the number of elements a pointer points to; an array of constant size has its own
#pragma hyperdo cube(2)

int n = 16;
double a[16], b[16];
#pragma hyperdo distribute(b : block)
#pragma hyperdo distribute(a : block) extent(n)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[i];
    return 0;
}
