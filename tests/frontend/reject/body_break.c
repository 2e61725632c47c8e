// expect: 10:13: error: 'break' outside an inner loop of a doall body
// rejected: a break of the doall itself (every iteration runs)
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        if (a[i] < 0)
            break;
        b[i] = a[i];
    }
    return 0;
}
