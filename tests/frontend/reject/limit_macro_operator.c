// expect: 12:9: error: macro
// rejected: a limit of libclang 14: operators inside a macro body in an index are not read (diagnosed, never skipped)
#define PX(i) ((i) & 15)
#define PY(i) ((i) >> 4)

double img[16][16], out[16][16];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        out[PY(i)][PX(i)] = img[PX(i)][PY(i)];
    return 0;
}
