// expect: 10:9: error: 'f' has type '_Bool': a reduction variable must have an integer, floating or _Complex type
// rejected: a _Bool reduction variable
double x[256], b[256];

int main(void)
{
    _Bool f = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        f |= x[i] > 3;
    b[0] = f;
    return 0;
}
