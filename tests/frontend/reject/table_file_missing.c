// expect: 4:41: error: cannot read the mapping file
// rejected: a mapping file that is not there
double a[10], b[10];
#pragma hyperdo distribute(a, b : table("no_such_mapping.map"))
#pragma hyperdo cube(2)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++)
        b[i] = a[i];
    return 0;
}
