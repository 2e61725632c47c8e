// expect: 4:30: error: expected ':'
// rejected: a missing comma
double a[1024], b[1024];
#pragma hyperdo distribute(a b : cyclic)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
