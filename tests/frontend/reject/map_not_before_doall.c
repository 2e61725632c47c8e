// expect: 10:1: error: '#pragma hyperdo map' inside a function must stand right before a '#pragma hyperdo doall'
// only the expected errors
// rejected: a map pragma in a function that no doall follows: from where
// would it hold?
#pragma hyperdo cube(3)
double a[8], b[8];

int main(void)
{
#pragma hyperdo map(a : rows(1, 3, 4))
    a[2] = 1;
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
