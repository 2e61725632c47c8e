// expect: 8:21: error: 'a' is already mapped at file scope (line 7); an array has one mapping there
// expect: 16:21: error: 'b' is already mapped before this doall (line 15)
// only the expected errors
// rejected: two mappings of one array at one place, one of them dropped
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : rows(1, 3, 4))
#pragma hyperdo map(a : identity)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        a[i] = i;
#pragma hyperdo map(b : rows(1, 3, 4))
#pragma hyperdo map(b : rows(1, 3, 7))
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
