// expect: 11:16: error: iteration i = 1 reads element 0 of 'a', which the earlier iteration i = 0 writes
// rejected: a[i] = a[i ^ 1]: iteration 0 reads a[1] before iteration 1
// writes it (an antidependence, allowed), but iteration 1 then reads a[0],
// which iteration 0 wrote (a flow dependence)
double a[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        a[i] = a[i ^ 1];
    return 0;
}
