// expect: 20:18: error: 'v[nb[i][k]]' is read inside a loop that a break or continue may leave early
// rejected: over a table the neighbour is asked for before the body runs,
// for every k; after the break C reads no more of them, and nb[i][k] may
// then be -1 (no neighbour): asking would go outside v
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
        for (int k = 0; k < 4; k++) {
            if (nb[i][k] < 0)
                break;
            s += v[nb[i][k]];
        }
        u[i] = s;
    }
    return 0;
}
