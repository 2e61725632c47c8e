// expect: 11:9: error: an array of more than 32 dimensions is not supported
// rejected: the model holds at most 32 dimensions per array (HD_MAX_DIMS);
// beyond that the front end says so rather than truncate
char z[2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2][2];
#pragma hyperdo distribute(z : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 1024; i++)
        z[i >> 0 & 1][i >> 1 & 1][i >> 2 & 1][i >> 3 & 1][i >> 4 & 1][i >> 5 & 1][i >> 6 & 1][i >> 7 & 1][i >> 8 & 1][i >> 9 & 1][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0] = 1;
    return 0;
}
