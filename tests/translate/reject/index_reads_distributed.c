// expect: 11:18: error: the index of 'b[q[i]]' reads 'q[i]', which is distributed
// rejected: q has 2^8 elements, so it is distributed: a processor that
// holds b[q[i]] cannot compute q[i] to know whom to send it to
double a[256], b[256];
int q[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[q[i]];
    return 0;
}
