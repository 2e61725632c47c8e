// expect: 9:14: error: 's' is a reduction variable of this doall (line 9) and is read here
// rejected: the reduction's operand reads the variable itself
double a[256], b[256], s;

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        s += s * a[i];
    b[0] = s;
    return 0;
}
