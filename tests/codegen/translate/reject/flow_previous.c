// expect: 12:16: error: iteration i = 1 reads element 0 of 'a', which the earlier iteration i = 0 writes
// rejected: iteration i reads a[i - 1 mod 256], which iteration i - 1 wrote
// just before it (iteration 0 reads a[255], written later: that alone
// would be fine)
double a[256];

int main(void)
{
    a[255] = 1;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = a[(i + 255) & 255];
    return 0;
}
