// expect: 15:58: error: the index of 'y[k]' uses a variable of the loop body
// rejected: the inspector computes indices before the body runs, so a
// body variable in one cannot be followed (found by an adversarial test:
// before, the file-scope k was used and the output was wrong)
const int T[10] = { 1, 0, 1, 0, 1, 0, 1, 0, 1, 1 };
double x[10], y[10];
int nb[10];
int k = 3;
#pragma hyperdo distribute(x, y : table(T))
#pragma hyperdo cube(1)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 10; i++) { int k = nb[i]; x[i] = y[k] + k; }
    return 0;
}
