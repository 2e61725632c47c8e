// expect: 15:16: error: a doall body may call only pure functions, and 'ext_gain' is only declared (line 9), not defined in this file: its body cannot be checked
// only the expected errors
// rejected: a function defined in another file cannot be checked to be
// pure
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

double ext_gain(double x);

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = ext_gain(a[i]);
    return 0;
}
