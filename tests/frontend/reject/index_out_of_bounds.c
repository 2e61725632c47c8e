// expect: 10:16: error: bounds
// rejected: i + 300 is general AND reaches 555 on 512 elements
double a[512], b[256];
#pragma hyperdo distribute(a : cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i + 300];
    return 0;
}
