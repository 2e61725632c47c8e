// expect: 12:18: error: 'q[i]' decides whether or which element 'b[q[i]]' reads, and the iteration writes 'q' before it reads it
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
