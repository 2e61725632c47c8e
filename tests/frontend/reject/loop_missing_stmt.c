// expect: 7:1: error: must be followed by a for loop
// rejected: a statement that is not a loop after the pragma
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    b[0] = a[0];
    return 0;
}
