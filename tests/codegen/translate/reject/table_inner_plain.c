// expect: 18:18: error: the index of 'v[nb[i][m]]' uses a variable of the loop body, and the loop runs over an owner table
// rejected: m is a variable of the body that is no inner loop variable
// with known values, so the request cannot be made before the body runs
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
        int m = i % 4;
        if (nb[i][m] >= 0)
            s += v[nb[i][m]];
        s += v[nb[i][m]];
        u[i] = s;
    }
    return 0;
}
