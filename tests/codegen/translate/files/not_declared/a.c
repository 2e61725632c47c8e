// rejected: b.c distributes an array it does not declare (the error is b.c's)
double x[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = i;
    return 0;
}
