// expect: 13:25: error: this loop's header depends on the elements of 'deg', which is distributed
// rejected: an inner loop runs deg[i] times, an element of a distributed
// array (issue 17: inner loop bounds may not depend on distributed data)
double a[256], b[256];
int deg[256];
#pragma hyperdo distribute(a, b, deg : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = 0;
        for (int j = 0; j < deg[i]; j++)
            b[i] += a[i];
    }
    return 0;
}
