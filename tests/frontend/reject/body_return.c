// expect: 10:9: error: only assignments
// rejected: a return statement in the body
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = a[i];
        return 1;
    }
    return 0;
}
