// expect: 11:16: error: 's' is a reduction variable of this doall (line 10) and is read here
// rejected: a guard that reads the reduction variable
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        s += a[i];
        b[i] = s > 3 ? a[i] : 0;
    }
    return 0;
}
