// hd halves
/*
 * Split in two halves (tests/unit/test_halves.c): arrays shared by both
 * halves, arrays first used by the second, local arrays of one name in two
 * functions, an extern declaration before the definition, static arrays,
 * distributions, helpers, multi-dimensional and general references, and
 * braces in comments, strings and character constants between the bodies.
 */
#include <stdio.h>
#include <hyperdo/bits.h>

#pragma hyperdo cube(6)
#pragma hyperdo distribute(big, wide : block)
#pragma hyperdo distribute(late : cyclic)

extern double early[64];
double a[64], b[64];
double big[256];
double wide[4][64];
static int s[64];
double late[128];
struct point { int x, y; };
static const struct point origin = { 0, 0 };
enum { SHIFT = 1 };

const char *braces = "} not a { body }";
char open = '{', close = '}';
/* } a comment { */

void first(void)
{
    double local[64];
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        local[i] = a[reverse(i, 6)];
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        early[i] = local[i ^ 63] + big[i] + s[(i + 1) & 63];
}

double early[64];

int second(int t)
{
    double local[64];
    // a brace in a comment: {
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++) {
        local[i] = early[gray(i)] + wide[i & 3][i];
        b[i] = (double)t;
    }
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        a[i] = local[(i >> 3) | ((i & 7) << 3)];
    return origin.x + SHIFT;
}

static void third(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 128; i++)
        late[i] = late[i ^ 1] + big[i * 2];
    #pragma hyperdo doall
    for (int i = 0; i < 64; i++)
        s[i] = (int)b[63 - i] + (int)a[i ^ 5];
}

int main(void)
{
    first();
    third();
    printf("%d %c%c %s\n", second(2), open, close, braces);
    return 0;
}
