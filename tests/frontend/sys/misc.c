/*
 * The rest of the everyday headers: <assert.h>, <ctype.h>, <time.h>,
 * <errno.h>, <float.h>, <stdarg.h>, <string.h>, <stdlib.h>.  Their
 * functions are used outside the doall loops; inside, only arithmetic and
 * math.h.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SIZE = 64 };

static char text[SIZE + 1] = "Hypercube processor mapping for linear-complement";
static double code[SIZE], shifted[SIZE];

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

static int compare(const void *p, const void *q)
{
    double x = *(const double *)p, y = *(const double *)q;
    return (x > y) - (x < y);
}

int main(void)
{
    clock_t start = clock();
    size_t len = strlen(text);
    assert(len <= SIZE);
    for (size_t i = 0; i < SIZE; i++)
        code[i] = i < len ? toupper((unsigned char)text[i]) : 0;
#pragma hyperdo doall
    for (int i = 0; i < SIZE; i++)
        shifted[i] = code[i ^ (SIZE - 1)] * (1.0 + DBL_EPSILON) + sqrt(code[i]);
    qsort(shifted, SIZE, sizeof shifted[0], compare);
    errno = 0;
    double x = strtod("2.5", NULL);
    if (errno)
        return 1;
    say("%s: %g %g (%ld clocks)\n", isalpha('h') ? "ok" : "?", shifted[SIZE - 1],
        x, (long)(clock() - start));
    return 0;
}
