// expect: 11:16: error: 'count' is a reduction variable of this doall (line 10) and is read here
// rejected: ++ on a scalar declared outside the loop that the body also reads
double a[256], b[256], c[256];

int main(void)
{
    int count = 0;
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        count++;
        b[i] = count;
    }
    return 0;
}
