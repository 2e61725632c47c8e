// expect: 12:18: error: the index of 'b[q[i]]' reads 'q[i]', which this doall writes
// rejected: the element b[q[i]] is fetched before the loop runs, so q[i]
// must not change in the loop (here the same iteration writes it first)
double a[256], b[256];
int q[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        q[i] = i ^ 3;
        a[i] = b[q[i]];
    }
    return 0;
}
