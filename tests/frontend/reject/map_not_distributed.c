// expect: 6:21: error: 't' is not distributed (every processor holds all of it), so it has no owner to map
// only the expected errors
// rejected: a mapping of a replicated array
#pragma hyperdo cube(3)
double t[5], b[8];
#pragma hyperdo map(t : rows(1, 3, 4))

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = t[i % 5];
    return (int)b[0];
}
