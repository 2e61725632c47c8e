// expect: 9:9: error: only assignments
// rejected: an if statement in the body
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        if (a[i] > 0)
            b[i] = a[i];
    }
    return 0;
}
