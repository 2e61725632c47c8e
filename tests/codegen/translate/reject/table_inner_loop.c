// expect: 19:22: error: the index of 'v[nb[i][k]]' uses a variable of the loop body, and the loop runs over an owner table
// rejected: over a table every remote read is a request, made before the
// body runs, and the neighbour's number depends on k, a variable of the
// body (mesh64.c writes the eight reads out instead)
#define N 16
const int part[N] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3 };
double u[N], v[N];
int nb[N][4];
#pragma hyperdo cube(2)
#pragma hyperdo distribute(u, v : table(part))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double s = 0;
        for (int k = 0; k < 4; k++)
            if (nb[i][k] >= 0)
                s += v[nb[i][k]];
        u[i] = s;
    }
    return 0;
}
