// expect: 3:39: error: element 5 of the owner table 'part' is 4, not a processor of the 2-cube (0 to 3)
// rejected: an owner outside the cube
const int part[10] = { 0, 0, 1, 1, 2, 4, 3, 3, 0, 1 };
double a[10], b[10];
#pragma hyperdo distribute(a, b : table(part))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[i] = a[i];
    return 0;
}
