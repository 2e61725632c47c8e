// expect: 10:9: error: only assignments
// rejected: a loop in the body
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = 0;
        for (int j = 0; j < 4; j++)
            b[i] += a[i];
    }
    return 0;
}
