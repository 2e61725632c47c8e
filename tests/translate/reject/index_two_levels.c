// expect: 11:18: error: whose own index reads a distributed array: one level of indirection is supported
// rejected: b[q[p[i]]]: the element of q is itself chosen through p, which
// the node code would need to fetch before asking for q's element
double a[256], b[256];
int q[256], p[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[q[p[i]]];
    return 0;
}
