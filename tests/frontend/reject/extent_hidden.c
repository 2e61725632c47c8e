// expect: 7:47: error: extent(gn) of 'g' is evaluated before the doall of line 13, whose function has a 'gn' of its own that hides the one at file scope
// rejected: the extent is evaluated in the doall's function, where a local of the same name would be read
#pragma hyperdo cube(2)

double *g;
int gn;
#pragma hyperdo distribute(g : cyclic) extent(gn)

void run(void)
{
    int gn = 3;
#pragma hyperdo doall
    for (int i = 0; i < gn; i++)
        g[i] = i;
}
