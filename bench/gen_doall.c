/*
 * gen_doall.c — writes a deterministic C file of many `#pragma hyperdo
 * doall` loops for bench_frontend (and seeds for the fuzzer): a
 * `#pragma hyperdo cube(n)`, a dozen arrays of exactly 2^n elements (so
 * each is distributed element e on processor e), and functions of ten
 * loops each.  Every loop runs i = 0 .. 2^n - 1, writes one or two arrays
 * at [i] and reads others through a mix of index forms: the identity,
 * complements (i ^ c, 2^n-1 - i), bit rotations and transposes written with
 * shifts and masks, Gray codes, singular maps (shifts that drop bits,
 * masks), the bits.h helpers (--bits) and general ones ((i + c) & mask).
 * Bodies also compute local scalars and call math.h functions.  Arrays
 * read in a loop are never written in it, so the loops are true doalls.
 *
 * With the defaults (1000 loops, n = 8) the file has about 10 000 lines.
 *
 * usage: gen_doall [--loops N] [--cube n] [--seed S] [--bits] [-o FILE]
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDOUBLE 8           /* arrays x0 .. x7 of double */
#define NINT 4              /* arrays m0 .. m3 of int */
#define LOOPS_PER_FUNCTION 10

static uint64_t rng_state;
static FILE *out;
static long lines;
static int n;               /* cube dimension; arrays and loops have 2^n */
static bool use_bits;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

/* A number in lo .. hi. */
static int pick(int lo, int hi)
{
    return lo + (int)(next_random() % (uint64_t)(hi - lo + 1));
}

__attribute__((format(printf, 1, 2)))
static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    for (const char *p = fmt; *p; p++)
        if (*p == '\n')
            lines++;
}

/* An index expression in the loop variable i with values in 0 .. 2^n - 1. */
static void index_expr(char *buf, size_t size)
{
    unsigned mask = (1u << n) - 1;
    int s = pick(1, n - 1);                 /* a split of the n bits */
    unsigned low = (1u << s) - 1;
    unsigned c = (unsigned)pick(1, (int)mask);
    int form = pick(0, use_bits ? 17 : 12);
    switch (form) {
    case 0: case 1:
        snprintf(buf, size, "i");
        break;
    case 2: case 3:
        snprintf(buf, size, "i ^ %u", c);
        break;
    case 4:
        snprintf(buf, size, "%u - i", mask);
        break;
    case 5:                                 /* rotation of the n bits */
        snprintf(buf, size, "(i >> %d) | ((i & %u) << %d)", s, low, n - s);
        break;
    case 6:                                 /* the same, complemented */
        snprintf(buf, size, "((i >> %d) | ((i & %u) << %d)) ^ %u", s, low,
                 n - s, c);
        break;
    case 7:
        snprintf(buf, size, "i ^ (i >> 1)");
        break;
    case 8:                                 /* singular: drops bits */
        snprintf(buf, size, "(i << %d) & %u", s, mask);
        break;
    case 9:
        snprintf(buf, size, "i & %u", mask & ~low);
        break;
    case 10:
        snprintf(buf, size, "(i & %u) | (~i & %u)", mask & ~low, low);
        break;
    case 11:                                /* general: not GF(2)-affine */
        snprintf(buf, size, "(i + %u) & %u", c, mask);
        break;
    case 12:
        snprintf(buf, size, "(i * %u) & %u", 2 * c + 1, mask);
        break;
    case 13: case 14:
        snprintf(buf, size, "reverse(i, %d)", n);
        break;
    case 15:
        snprintf(buf, size, "gray(i)");
        break;
    case 16:
        snprintf(buf, size, "rotl(i, %d, %d)", s, n);
        break;
    default:
        snprintf(buf, size, "transpose(i, %d) ^ %u", n, c);
        break;
    }
}

/* A double-valued term reading one of the arrays in `readable` (a bit set
 * over x0 .. x7) or one of the locals t0 .. t{nlocals-1}. */
static void double_term(char *buf, size_t size, unsigned readable, int nlocals)
{
    char idx[96];
    int a;
    do
        a = pick(0, NDOUBLE - 1);
    while (!(readable >> a & 1));
    index_expr(idx, sizeof idx);
    switch (pick(0, 9)) {
    case 0:
        snprintf(buf, size, "sqrt(fabs(x%d[%s]))", a, idx);
        break;
    case 1:
        snprintf(buf, size, "sin(x%d[%s])", a, idx);
        break;
    case 2:
        snprintf(buf, size, "fmax(x%d[%s], %d.25)", a, idx, pick(0, 9));
        break;
    case 3:
        if (nlocals > 0) {
            snprintf(buf, size, "t%d * x%d[%s]", pick(0, nlocals - 1), a, idx);
            break;
        }
        /* fall through */
    default:
        snprintf(buf, size, "x%d[%s]", a, idx);
        break;
    }
}

static void double_expr(char *buf, size_t size, unsigned readable,
                        int nlocals)
{
    static const char *const ops[] = { " + ", " - ", " * " };
    int terms = pick(1, 3);
    size_t len = 0;
    buf[0] = '\0';
    for (int t = 0; t < terms && len < size; t++) {
        char term[160];
        double_term(term, sizeof term, readable, nlocals);
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                t ? ops[pick(0, 2)] : "", term);
    }
    if (pick(0, 3) == 0 && len < size)
        snprintf(buf + len, size - len, " * %d.5", pick(0, 3));
}

static void double_loop(void)
{
    /* One or two written arrays; the rest may be read. */
    int w0 = pick(0, NDOUBLE - 1), w1 = -1;
    if (pick(0, 3) == 0)
        do
            w1 = pick(0, NDOUBLE - 1);
        while (w1 == w0);
    unsigned readable = ((1u << NDOUBLE) - 1) & ~(1u << w0);
    if (w1 >= 0)
        readable &= ~(1u << w1);

    int nlocals = pick(3, 6);
    char expr[640];
    emit("    #pragma hyperdo doall\n");
    emit("    for (int i = 0; i < %u; i++) {\n", 1u << n);
    for (int t = 0; t < nlocals; t++) {
        double_expr(expr, sizeof expr, readable, t);
        emit("        double t%d = %s;\n", t, expr);
    }
    /* Every local is used, so the file compiles cleanly with -Wall. */
    double_expr(expr, sizeof expr, readable, nlocals);
    emit("        x%d[i] = ", w0);
    for (int t = 0; t < nlocals; t++)
        emit("t%d + ", t);
    emit("%s;\n", expr);
    if (w1 >= 0) {
        double_expr(expr, sizeof expr, readable, nlocals);
        emit("        x%d[i] = t0 + %s;\n", w1, expr);
    }
    emit("    }\n");
}

static void int_loop(void)
{
    int w = pick(0, NINT - 1);
    char idx[3][96];
    int r[3];
    for (int k = 0; k < 3; k++) {
        do
            r[k] = pick(0, NINT - 1);
        while (r[k] == w);
        index_expr(idx[k], sizeof idx[k]);
    }
    emit("    #pragma hyperdo doall\n");
    emit("    for (int i = 0; i < %u; i++) {\n", 1u << n);
    emit("        int s = m%d[%s] ^ (m%d[%s] >> 1);\n", r[0], idx[0], r[1],
         idx[1]);
    emit("        int u = s + m%d[%s] * %d;\n", r[2], idx[2], pick(2, 9));
    emit("        int v = (u << %d) - s;\n", pick(1, 5));
    emit("        int w = v > 0 ? v %% %d : -v;\n", pick(3, 17));
    emit("        m%d[i] = (s & u) | (w ^ i);\n", w);
    emit("    }\n");
}

static void usage(void)
{
    fprintf(stderr, "usage: gen_doall [--loops N] [--cube n] [--seed S] "
                    "[--bits] [-o FILE]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    long nloops = 1000;
    const char *path = NULL;
    uint64_t seed = 20261122;
    n = 8;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--loops") == 0 && a + 1 < argc)
            nloops = atol(argv[++a]);
        else if (strcmp(argv[a], "--cube") == 0 && a + 1 < argc)
            n = atoi(argv[++a]);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--bits") == 0)
            use_bits = true;
        else if (strcmp(argv[a], "-o") == 0 && a + 1 < argc)
            path = argv[++a];
        else
            usage();
    }
    if (nloops < 1 || nloops > 10000000 || n < 2 || n > 20)
        usage();
    rng_state = seed;
    out = path ? fopen(path, "w") : stdout;
    if (!out) {
        perror(path);
        return 1;
    }

    emit("/* Generated by bench/gen_doall --loops %ld --cube %d --seed %"
         PRIu64 "%s: %ld doall loops over arrays of 2^%d elements. */\n",
         nloops, n, seed, use_bits ? " --bits" : "", nloops, n);
    emit("#include <math.h>\n");
    if (use_bits)
        emit("#include <hyperdo/bits.h>\n");
    emit("\n#pragma hyperdo cube(%d)\n\n", n);
    for (int a = 0; a < NDOUBLE; a++)
        emit("double x%d[%u];\n", a, 1u << n);
    for (int a = 0; a < NINT; a++)
        emit("int m%d[%u];\n", a, 1u << n);

    long done = 0;
    for (int f = 0; done < nloops; f++) {
        emit("\nvoid kernel_%04d(void)\n{\n", f);
        for (int l = 0; l < LOOPS_PER_FUNCTION && done < nloops; l++, done++) {
            if (l)
                emit("\n");
            if (pick(0, 4) == 0)
                int_loop();
            else
                double_loop();
        }
        emit("}\n");
    }
    if (out != stdout && fclose(out) != 0) {
        perror(path);
        return 1;
    }
    fprintf(stderr, "gen_doall: %ld loops, %ld lines\n", nloops, lines);
    return 0;
}
