// expect: 8:1: error: must be followed by a for loop
// rejected: a while loop after the pragma
double a[256], b[256], c[256];

int main(void)
{
    int i = 0;
#pragma hyperdo doall
    while (i < 256) {
        b[i] = a[i];
        i++;
    }
    return 0;
}
