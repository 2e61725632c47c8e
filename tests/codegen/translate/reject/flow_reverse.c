// expect: 10:16: error: iteration i = 128 reads element 127 of 'a', which the earlier iteration i = 127 writes
// rejected: the first half only reads elements written later; the second
// half reads what the first half wrote, first at i = 128
double a[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = a[255 - i];
    return 0;
}
