// expect: 6:38: error: the complement of xor(9) has bits beyond the 3-cube's
// only the expected errors
// rejected: a complement naming a processor bit the cube does not have
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : identity xor(9))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
