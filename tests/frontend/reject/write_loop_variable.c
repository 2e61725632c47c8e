// expect: 10:9: error: loop variable
// rejected: the body assigns the loop variable
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = a[i];
        i = i | 1;
    }
    return 0;
}
