// expect: 4:1: error: must be followed by a for loop
// rejected: a doall pragma at file scope
double a[256], b[256];
#pragma hyperdo doall
double c[256];

int main(void)
{
    c[0] = a[0] + b[0];
    return 0;
}
