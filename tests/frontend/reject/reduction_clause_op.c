// expect: 8:36: error: 's' is named in reduction(*: ...) but the statement on line 10 combines with '+'
// rejected: the clause's operator is not the statement's
long a[256], b[256];

int main(void)
{
    long s = 0;
#pragma hyperdo doall reduction(*: s)
    for (int i = 0; i < 256; i++)
        s += a[i];
    b[0] = s;
    return 0;
}
