// expect: 12:5: error: this doall over a table distribution reduces into 's'
// rejected: reductions over a table are not supported yet
const int part[10] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1 };
double a[10], b[10];
#pragma hyperdo distribute(a, b : table(part))
#pragma hyperdo cube(2)

int main(void)
{
    double s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 10; i++) {
        b[i] = a[i];
        s += a[i];
    }
    return s > 0;
}
