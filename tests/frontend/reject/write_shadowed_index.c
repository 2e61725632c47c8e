// expect: 18:13: error: the element written by 'y[j ^ r]' is not known at compile time (the index depends on 'r', a variable of the loop body; write its expression into the index to have it analysed), so its owner cannot run the iteration
// expect: 18:13: error: 'y[j ^ r]' and 'x[j ^ r]' are written by the same iteration but live on different processors; split the loop
// rejected: the two writes have the same text, but the second r is a
// variable of the body that hides the outer one, so the elements differ
// (the same text means the same element only when every unknown in it is
// an outer variable)
int x[16], y[16];
#pragma hyperdo distribute(x, y : block)

int main(void)
{
    int r = 1;
#pragma hyperdo doall
    for (int j = 0; j < 16; j++) {
        x[j ^ r] = j;
        {
            int r = 2;
            y[j ^ r] = j;
        }
    }
    return 0;
}
