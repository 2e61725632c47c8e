// rejected: b.c distributes x another way (the error is b.c's)
#pragma hyperdo distribute(x : block)
double x[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        x[i] = i;
    return 0;
}
