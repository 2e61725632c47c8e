// expect: 11:5: error: 'p' (line 12) is read in this doall but is a pointer or a function ('double *')
// rejected: an outer variable that is a pointer means nothing on another
// processor (the front end lets a pointer compared, not dereferenced,
// through); the diagnostic is at the loop and names the line of the read
double a[256], b[256];
double *p;

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = b[i] + (p != 0);
    return 0;
}
