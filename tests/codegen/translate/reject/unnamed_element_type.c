// expect: 11:16: error: the elements of 's' have a type without a name
// rejected: the node function must declare a pointer to s's elements,
// which it cannot name
double a[256];
struct { double x; } s[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = s[i].x;
    return 0;
}
