// expect: 4:35: error: unknown distribution
// rejected: an unknown distribution
double a[1024], b[1024];
#pragma hyperdo distribute(a, b : diagonal)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
