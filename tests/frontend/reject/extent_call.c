// expect: 8:46: error: extent(...) is evaluated before every doall that uses the arrays: it must be an expression without side effects (names, numbers, sizeof and operators; no assignment, increment, comma or call)
// rejected: a call in extent(...) may have side effects, and would run before every doall
#pragma hyperdo cube(2)

int length(void);
void twice(double *y)
{
#pragma hyperdo distribute(y : block) extent(length())
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        y[i] = 2 * y[i];
}
