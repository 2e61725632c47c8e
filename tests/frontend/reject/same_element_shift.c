// expect: 9:9: error: both write element 0 of 'a'
// rejected: iterations 2j and 2j+1 both write a[j] (no reductions)
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i >> 1] = b[i];
    return 0;
}
