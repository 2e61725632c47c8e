// expect: 10:5: error: this doall loop of 10 iterations gives no cube dimension
// rejected: 10 iterations give no k-cube
const int part[10] = { 0, 0, 1, 1, 2, 2, 3, 3, 0, 1 };
double a[10], b[10];
#pragma hyperdo distribute(a, b : table(part))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[i] = a[i];
    return 0;
}
