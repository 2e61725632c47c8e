// expect: 14:16: error: twice
// rejected: a user function, even a pure one, is not a known helper
double a[256], b[256], c[256];

static double twice(double x)
{
    return 2 * x;
}

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = twice(a[i]);
    return 0;
}
