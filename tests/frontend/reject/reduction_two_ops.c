// expect: 11:9: error: 's' is combined with '+' on line 10 and with '*' here
// rejected: two operators on one reduction variable
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        s += a[i];
        s *= b[i];
    }
    return (int)s;
}
