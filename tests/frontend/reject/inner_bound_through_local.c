// expect: 14:16: error: this loop's header depends on the elements of 'deg', which is distributed (through 'm')
// rejected: the bound is a variable of the body set from a distributed
// array: its value depends on distributed data too
double a[256], b[256];
int deg[256];
#pragma hyperdo distribute(a, b, deg : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        int m = deg[i] + 1, j = 0;
        b[i] = 0;
        while (j < m) {
            b[i] += a[i];
            j++;
        }
    }
    return 0;
}
