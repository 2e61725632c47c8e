// expect: 5:43: error: expected xor(c) with c a non-negative integer literal
// only the expected errors
#pragma hyperdo cube(3)
double a[8], b[8];
#pragma hyperdo map(a : rows(1, 3, 4) xor 5)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i ^ 3];
    return (int)b[0];
}
