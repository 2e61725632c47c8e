// expect: 10:9: error: a doall body may contain only
// rejected: a switch statement in the body (if/else and loops are read;
// switch is not)
double a[256], b[256], c[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        switch (i & 3) {
        case 0:
            b[i] = a[i];
            break;
        default:
            b[i] = 0;
        }
    }
    return 0;
}
