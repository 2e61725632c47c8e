// expect: 8:28: error: 'a' is already named in a distribute pragma (line 7); an array has one distribution
// only the expected errors
// rejected: the second distribution of 'a' was dropped without a word
// (found by the skew tester)
#pragma hyperdo cube(2)
double a[16], v[4];
#pragma hyperdo distribute(a : cyclic)
#pragma hyperdo distribute(a : skew)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 4; i++)
        v[i] = a[i * 5];
    return (int)v[0];
}
