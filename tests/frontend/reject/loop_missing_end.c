// expect: 8:1: error: must be followed by a for loop
// rejected: the pragma ends its block: no loop follows
double a[256], b[256], c[256];

int main(void)
{
    b[0] = a[0];
#pragma hyperdo doall
    return 0;
}
