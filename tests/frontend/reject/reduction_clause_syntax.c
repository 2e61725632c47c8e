// expect: 8:35: error: expected ':' after the reduction operator
// rejected: the clause without its colon
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall reduction(+ s)
    for (int i = 0; i < 256; i++)
        s += a[i];
    b[0] = s;
    return 0;
}
