/*
 * Ways of writing the doall pragma line: extra spaces around the words, a
 * comment between pragma and loop.  (The _Pragma operator of C11 6.10.9
 * is rejected with an error: reject/pragma_operator.c.)  Each loop reads
 * a[i ^ 2^j]: y = x + e_j.
 */
#include <stdio.h>

double a[256], b[256], c[256], d[256];

int main(void)
{
    for (int i = 0; i < 256; i++)
        a[i] = i;
#  pragma   hyperdo   doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i ^ 1];
#pragma hyperdo doall   /* a comment after the pragma */
    /* and one between pragma and loop */
    for (int i = 0; i < 256; i++)
        c[i] = a[i ^ 2];
	#	pragma	hyperdo	doall
    for (int i = 0; i < 256; i++)
        d[i] = a[i ^ 4];
    printf("%g %g %g\n", b[0], c[0], d[0]);
    return b[0] == 1 && c[0] == 2 && d[0] == 4 ? 0 : 1;
}
