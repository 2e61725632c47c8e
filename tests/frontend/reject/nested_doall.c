// expect: 10:9: error: nested doall
// rejected: a doall inside a doall
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 16; i++) {
#pragma hyperdo doall
        for (int j = 0; j < 16; j++)
            b[i * 16 + j] = a[j * 16 + i];
    }
    return 0;
}
