// expect: 19:25: error: this loop's header depends on the elements of 'a', which is distributed (through 'm')
// rejected: m counts up to a break that a distributed element decides, so
// the second loop's bound depends on distributed data (a break is no bound
// itself: the first loop is fine)
#define N 16
int a[N], out[N];
#pragma hyperdo distribute(a, out : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        int m = 0, s = 0;
        for (int k = 0; k < 8; k++) {
            if (a[i] < k)
                break;
            m++;
        }
        for (int j = 0; j < m; j++)
            s += j;
        out[i] = s;
    }
    return 0;
}
