// expect: 3:25: error: expected network(ecube), network(omega) or network(butterfly)
// rejected: network without parentheses
#pragma hyperdo network omega

double a[8], b[8];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        a[i] = b[i ^ 7];
    return 0;
}
