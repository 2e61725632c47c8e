// expect: 11:9: error: only assignments
// rejected: ++ on a scalar declared outside the loop
double a[256], b[256], c[256];

int main(void)
{
    int count = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        b[i] = a[i];
        count++;
    }
    b[0] = count;
    return 0;
}
