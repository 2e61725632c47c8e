// expect: 11:5: error: this doall over a spread distribution reduces into 's'
// rejected: reductions over a spread (an array of any extent) are not supported yet
double a[50], b[50];
#pragma hyperdo distribute(a, b : block)
#pragma hyperdo cube(2)

int main(void)
{
    double s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 50; i++) {
        b[i] = a[i];
        s += a[i];
    }
    return s > 0;
}
