// expect: 18:16: error: 'scaled' is not: it reads 'scale', declared outside it and not a constant (line 11): each processor has a copy of its own, which the host's code does not update
// only the expected errors
// rejected: scaled reads a global the host sets before the loop; a
// processor's copy of it is not the host's (read scale in the body
// instead: outer scalars are sent to the processors)
#define N 256
double a[N], b[N];
#pragma hyperdo distribute(a, b : block)
double scale;

static double scaled(double x) { return x * scale; }

int main(void)
{
    scale = 3;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = scaled(a[i]);
    return 0;
}
