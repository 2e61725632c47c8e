/*
 * random_lcc.c — writes a random annotated program whose doalls read
 * distributed arrays through GF(2)-affine indices (bit permutations,
 * complements, shifts, masks, constants, from hyperdo/bits.h and plain
 * operators), in random layouts, sometimes under guards, sometimes at
 * i + c: the node code's slot groups, blocks, strides, streams and
 * requests in combinations no hand-written test has.  tests/e2e/
 * validate.sh then checks that the translated program prints what the
 * sequential one prints (ctest node.random; tools/random_lcc.sh for long
 * runs).
 *
 *     random_lcc SEED > prog.c
 *
 * The program supports cubes of 1 .. 6 dimensions ("// e2e: dims 1-6").
 * Every doall writes one array through a one-to-one index and reads only
 * arrays it does not write, so it is always a valid doall.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ARRAYS 5
#define MAX_N 6

static uint64_t state;

static uint64_t next(void)
{
    uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int below(int n)
{
    return (int)(next() % (uint64_t)n);
}

static int K;   /* every array has 2^K elements; loops run 2^K iterations */

/* A one-to-one index of i (for the write). */
static void write_index(char *buf, size_t size)
{
    switch (below(7)) {
    case 0: snprintf(buf, size, "i"); break;
    case 1: snprintf(buf, size, "i ^ %d", below(1 << K)); break;
    case 2: snprintf(buf, size, "(int)reverse((unsigned long)i, K)"); break;
    case 3: snprintf(buf, size, "(int)rotl((unsigned long)i, %d, K)", 1 + below(K - 1)); break;
    case 4: snprintf(buf, size, "(int)gray((unsigned long)i)"); break;
    case 5: snprintf(buf, size, "N - 1 - i"); break;
    default: snprintf(buf, size, "(int)transpose((unsigned long)i, K) ^ %d", below(1 << K)); break;
    }
}

/* Any GF(2)-affine index of i inside 0 .. 2^K - 1, or a shift i + c. */
static void read_index(char *buf, size_t size, int *shift)
{
    *shift = 0;
    switch (below(11)) {
    case 0: snprintf(buf, size, "i ^ %d", below(1 << K)); break;
    case 1: snprintf(buf, size, "i >> %d", below(K)); break;
    case 2: snprintf(buf, size, "(i << %d) & (N - 1)", below(K)); break;
    case 3: snprintf(buf, size, "i & %d", below(1 << K)); break;
    case 4: snprintf(buf, size, "(int)reverse((unsigned long)i, K) ^ %d", below(1 << K)); break;
    case 5: snprintf(buf, size, "(int)rotr((unsigned long)i, %d, K)", 1 + below(K - 1)); break;
    case 6: snprintf(buf, size, "%d", below(1 << K)); break;
    case 7: snprintf(buf, size, "(int)transpose((unsigned long)i, K)"); break;
    case 8: snprintf(buf, size, "(i | %d) ^ %d", below(1 << K), below(1 << K)); break;
    case 9:
        snprintf(buf, size, "i %s %d", below(2) ? "+" : "-", 1 + below(1 << (K - 2)));
        *shift = 1;
        break;
    default:   /* through an outer variable */
        snprintf(buf, size, "i %s off", below(2) ? "+" : "-");
        *shift = 1;
        break;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: random_lcc SEED\n");
        return 2;
    }
    state = strtoull(argv[1], NULL, 10) * 1000003u + 17;
    K = 8 + below(4) * 2;        /* 8, 10, 12 or 14: transpose needs K even */
    printf("// e2e: dims 1-%d\n/* random_lcc %s: see tests/codegen/node/random_lcc.c */\n", MAX_N, argv[1]);
    printf("#include <stdio.h>\n\n#include <hyperdo/bits.h>\n\n#define K %d\n#define N (1 << K)\n\n", K);
    for (int a = 0; a < ARRAYS; a++) {
        printf("long x%d[N];\n", a);
        switch (below(4)) {
        case 0: printf("#pragma hyperdo distribute(x%d : block)\n", a); break;
        case 1: printf("#pragma hyperdo distribute(x%d : cyclic)\n", a); break;
        default:
            printf("#pragma hyperdo distribute(x%d : block_cyclic(%d))\n", a,
                   1 << below(K - MAX_N + 1));
        }
    }
    printf("\nint main(void)\n{\n    long total = 0;\n    int off = 0;\n    (void)off;\n");
    printf("    for (int i = 0; i < N; i++) {\n");
    for (int a = 0; a < ARRAYS; a++)
        printf("        x%d[i] = (long)((i * %d + %d) %% 1000);\n", a, 1 + 2 * below(500), below(999));
    printf("    }\n");
    int doalls = 4 + below(4);
    for (int d = 0; d < doalls; d++) {
        int w = below(ARRAYS);
        char wi[96];
        write_index(wi, sizeof wi);
        printf("    off = %d;\n", below(2) ? 1 + below(7) : (1 << (K - 3)) + below(9));
        printf("#pragma hyperdo doall\n    for (int i = 0; i < N; i++)\n        x%d[%s] = %d", w, wi,
               below(10));
        int reads = 1 + below(3);
        for (int r = 0; r < reads; r++) {
            int a = below(ARRAYS - 1);
            if (a >= w)
                a++;
            char ri[96];
            int shift;
            read_index(ri, sizeof ri, &shift);
            if (shift) {
                /* i + c needs a guard that keeps it inside the array. */
                printf(" + (%s >= 0 && %s < N ? x%d[%s] : %d)", ri, ri, a, ri, below(9));
            } else if (below(4) == 0) {
                printf(" + ((i & %d) ? x%d[%s] : -x%d[%s])", 1 << below(K), a, ri, a, ri);
            } else if (below(5) == 0) {
                printf(" + (i > %d && x%d[%s] > 400 ? 3 : 5)", below(1 << K), a, ri);
            } else {
                printf(" + x%d[%s] * %d", a, ri, 1 + below(3));
            }
        }
        printf(";\n");
        printf("    for (int i = 0; i < N; i += %d)\n        total = (total * 31 + x%d[i]) %% 1000000007;\n",
               1 + below(7), w);
    }
    /* Every array in some doall (a distributed array no doall uses is an
     * error): the last reads them all. */
    printf("#pragma hyperdo doall\n    for (int i = 0; i < N; i++)\n        x0[i] = x1[i]");
    for (int a = 2; a < ARRAYS; a++)
        printf(" + x%d[i ^ %d]", a, below(1 << K));
    printf(";\n    for (int i = 0; i < N; i += 3)\n        total = (total * 31 + x0[i]) %% 1000000007;\n");
    printf("    printf(\"%%ld\\n\", total);\n    return 0;\n}\n");
    return 0;
}
