// expect: 12:5: error: 'f' (line 13) is read in this doall but is a pointer or a function ('double (*)(double)')
// rejected: a pointer to a function is an address, not a value
double a[256], b[256];
double twice(double x) { return 2 * x; }
double (*f)(double) = twice;

int main(void)
{
    if (f(1) != 2)
        return 1;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i] + (f != 0);
    return 0;
}
