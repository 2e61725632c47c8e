// expect: 8:39: error: 't' is named in reduction(+: ...) but no statement of this doall combines a value into it
// rejected: a clause variable the body never combines into
long a[256], b[256];

int main(void)
{
    long s = 0, t = 0;
#pragma hyperdo doall reduction(+: s, t)
    for (int i = 0; i < 256; i++)
        s += a[i];
    b[0] = s + t;
    return 0;
}
