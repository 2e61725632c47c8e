// expect: 7:17: error: dooall
// rejected: a misspelt hyperdo pragma is an error, never ignored
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo dooall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return 0;
}
