// expect: 4:34: error: zz
// rejected: distribute names an array that does not exist
double a[1024], b[1024];
#pragma hyperdo distribute(a, b, zz : cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
