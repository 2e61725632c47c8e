// expect: 7:47: error: extent(...) is evaluated before every doall that uses the arrays: it must be an expression without side effects
// rejected: the host evaluates the extent before each doall: n++ would change n each time
#pragma hyperdo cube(2)

void twice(int n, double *y)
{
#pragma hyperdo distribute(y : block) extent(n++)
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        y[i] = 2 * y[i];
}
