// expect: 5:32: error: table distributions in a program of several files are not supported yet
// rejected: the owner table would be written once, in the file with main,
// for node code in every file
#pragma hyperdo cube(3)
#pragma hyperdo distribute(x : table(owner))
const int owner[200] = { 0 };
double x[200];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 200; i++)
        x[i] = i;
    return 0;
}
