// expect: 10:9: error: this reduction of 's' cannot be translated: its operand is not an integer
// rejected: an integer reduction of floating values (each step truncates)
double x[256], b[256];

int main(void)
{
    int s = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        s += x[i];
    b[0] = s;
    return 0;
}
