// expect: 11:16: error: the index of 'b[k]' uses a variable of the loop body
// rejected: k is declared in the body; the processor that holds b[k] runs
// other iterations and cannot know it
double a[256], b[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++) {
        int k = i ^ 3;
        a[i] = b[k];
    }
    return 0;
}
