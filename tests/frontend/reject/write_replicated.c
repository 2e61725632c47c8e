// expect: 10:9: error: 't' is written in a doall loop but not distributed
// expect: 10:9: error: it has 300
// rejected: t has 300 elements: neither 2^n nor distributed, so replicated
double a[256], t[300];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        t[i] = a[i];
    return 0;
}
