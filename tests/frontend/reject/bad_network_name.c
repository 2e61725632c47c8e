// expect: 3:25: error: unknown network 'mesh': expected ecube, omega or butterfly
// rejected: a network Hyperdo has no model of
#pragma hyperdo network(mesh)

double a[8], b[8];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        a[i] = b[i ^ 7];
    return 0;
}
