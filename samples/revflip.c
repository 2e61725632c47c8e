// e2e: dims 2-8
/*
 * revflip.c: the reverse-flip of Hou et al. 2001, Section 6.1, on the 8-cube:
 * node x = [x_0 .. x_7]^t sends to y = [~x_7 ~x_6 .. ~x_0]^t, "like
 * bit-reverse except the address bits of the destination node were
 * complemented": the LCC y = A x + b with A the anti-diagonal of Example 1
 * and b = [11111111]^t, an LCP with T = (1,2,4,8,8,4,2,1) before mapping
 * and 1 after (Corollary 1; the M-G mapping of Section 6.1 keeps it
 * contention-free).
 *
 * Iteration i writes f[i] on its own processor and reads element
 * 255 - reverse(i, 8) of a, so y = i and x = ~reverse(y): the same LCC
 * written three ways (the analyzer reports three identical entries).
 * Named cyclic so that the file also translates for --dim 2..7.
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#pragma hyperdo cube(8)

#define N 256

int a[N], f1[N], f2[N], f3[N];
#pragma hyperdo distribute(a, f1, f2, f3 : cyclic)

int main(void)
{
    for (int e = 0; e < N; e++)
        a[e] = 3 * e + 7;

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f1[i] = a[N - 1 - reverse(i, 8)];

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f2[i] = a[reverse(i, 8) ^ (N - 1)];

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        f3[i] = a[reverse(~i & (N - 1), 8)];

    long sum = 0;
    int differ = 0;
    for (int i = 0; i < N; i++) {
        printf("%s%3d", i % 16 ? " " : "", f1[i]);
        if (i % 16 == 15)
            printf("\n");
        sum += (long)(i + 1) * f1[i];
        differ += f1[i] != f2[i] || f1[i] != f3[i];
    }
    /* f1[i] comes from a[e] with e = 255 - reverse(i): 3 e + 7. */
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += f1[i] != 3 * (int)(N - 1 - reverse((unsigned long)i, 8)) + 7;
    printf("checksum %ld, %d spellings differ, %d wrong\n", sum, differ, wrong);
    return differ || wrong;
}
