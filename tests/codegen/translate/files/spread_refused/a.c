// expect: 5:28: error: 'x' has 200 elements, which block spreads as an array of any extent: arrays of any extent in a program of several files are not supported yet
// rejected: a spread's descriptor would be written once, in the file with
// main, for node code in every file
#pragma hyperdo cube(3)
#pragma hyperdo distribute(x : block)
double x[200];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 200; i++)
        x[i] = i;
    return 0;
}
