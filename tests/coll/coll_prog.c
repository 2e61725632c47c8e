/*
 * coll_prog.c — every collective of hyperdo/coll.h run on every processor
 * and checked against a sequential reference that each processor computes
 * itself from the inputs' formula (the inputs are a function of the
 * virtual id, so every processor knows every other's).  Built once per
 * back end (threads, MPI, sim).
 *
 *     coll_prog N [MAP [full|light|tiny]]   (default: full to n = 6, tiny above)
 *
 * N is the cube's dimension, MAP 0 the identity processor mapping, 1 the
 * permutation physical p -> virtual (5p + 3) mod 2^N.  A processor that
 * finds a wrong byte prints it and exits with status 3 (which ends the
 * whole run: threads share the process, mpiexec stops the job); the host
 * prints "coll ok CHECKS" when all are done.
 */
#include "hyperdo.h"
#include "hyperdo/coll.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, P, map_kind;
static int *to_virtual, *to_physical;
static long checks;   /* counted by the host's own processor only */

static unsigned char gen(unsigned seed, int v, size_t i)
{
    unsigned x = seed * 2654435761u ^ (unsigned)v * 40503u ^ (unsigned)i * 2246822519u;
    x ^= x >> 13;
    x *= 3266489917u;
    x ^= x >> 16;
    return (unsigned char)x;
}

static void fail(const char *what, int alg, size_t at, int got, int want)
{
    fprintf(stderr, "coll_prog: processor %d (virtual %d), d = %d: %s (%s): byte %zu is %d, "
                    "expected %d\n",
            hd_get_pid(), v_get_pid(), n, what, alg >= 0 ? hd_coll_alg_name(alg) : "-", at, got,
            want);
    exit(3);
}

static void expect(const char *what, int alg, const unsigned char *got, unsigned seed, int v,
                   size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        if (got[i] != gen(seed, v, i))
            fail(what, alg, i, got[i], gen(seed, v, i));
    if (hd_get_pid() == 0)
        checks++;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "coll_prog: out of memory\n");
        exit(4);
    }
    return p;
}

static void fill(unsigned char *b, unsigned seed, int v, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        b[i] = gen(seed, v, i);
}

/* A random permutation of the virtual ids from a seed. */
static void random_perm(unsigned seed, int *dest)
{
    for (int v = 0; v < P; v++)
        dest[v] = v;
    unsigned x = seed * 747796405u + 1;
    for (int v = P - 1; v > 0; v--) {
        x = x * 1103515245u + 12345u;
        int j = (int)((x >> 8) % (unsigned)(v + 1));
        int t = dest[v];
        dest[v] = dest[j];
        dest[j] = t;
    }
}

/* ---------------------------------------------- the data collectives */

static void one_to_all(int alg, int root, int g, size_t count, unsigned seed)
{
    int v = v_get_pid();
    unsigned char *buf = xmalloc(count);
    if (v == root)
        fill(buf, seed, root, count);
    else
        memset(buf, 0xee, count);
    hd_coll_args a = { 0 };
    a.alg = alg;
    a.root = root;
    a.g = g;
    a.recv = buf;
    a.count = count;
    a.size = 1;
    hd_coll_run(&a);
    expect("broadcast", alg, buf, seed, root, count);
    free(buf);
}

/* O.C., arbitrary and x.o.c. sends: root to the node at physical
 * root ^ (2^k - 1). */
static void send_to(int alg, int root, int k, int nn, int g, size_t count, unsigned seed)
{
    int v = v_get_pid();
    int dest = to_virtual[to_physical[root] ^ ((1 << k) - 1)];
    unsigned char *buf = xmalloc(count);
    if (v == root)
        fill(buf, seed, root, count);
    else
        memset(buf, 0xee, count);
    hd_coll_args a = { 0 };
    a.alg = alg;
    a.root = root;
    a.g = g;
    a.n = nn;
    a.recv = buf;
    a.count = count;
    a.size = 1;
    hd_coll_run(&a);
    if (v == dest)
        expect("send", alg, buf, seed, root, count);
    free(buf);
}

static void scatter_gather(int root, size_t count, unsigned seed)
{
    int v = v_get_pid();
    unsigned char *all = xmalloc(count * (size_t)P), *one = xmalloc(count);
    for (int w = 0; w < P; w++)
        fill(all + (size_t)w * count, seed, w, count);
    memset(one, 0xee, count);
    hd_coll_scatter(v == root ? all : NULL, one, count, root);
    expect("scatter", HD_COLL_DISTRIBUTE1, one, seed, v, count);
    memset(one, 0xee, count);
    hd_coll_args a = { 0 };
    a.alg = HD_COLL_DISTRIBUTE2;
    a.root = root;
    a.send = v == root ? all : NULL;
    a.recv = one;
    a.count = count;
    a.size = 1;
    hd_coll_run(&a);
    expect("distribute2", HD_COLL_DISTRIBUTE2, one, seed, v, count);
    memset(all, 0xee, count * (size_t)P);
    hd_coll_gather(one, all, count, root);
    if (v == root)
        for (int w = 0; w < P; w++)
            expect("gather", HD_COLL_COLLECT, all + (size_t)w * count, seed, w, count);
    free(all);
    free(one);
}

static void allgather(size_t count, unsigned seed)
{
    int v = v_get_pid();
    unsigned char *mine = xmalloc(count), *all = xmalloc(count * (size_t)P);
    fill(mine, seed, v, count);
    memset(all, 0xee, count * (size_t)P);
    hd_coll_allgather(mine, all, count);
    for (int w = 0; w < P; w++)
        expect("allgather", HD_COLL_ALLGATHER, all + (size_t)w * count, seed, w, count);
    free(mine);
    free(all);
}

/* Block w of v's send is gen(seed, v * P + w). */
static void alltoall(int alg, size_t count, unsigned seed)
{
    int v = v_get_pid();
    unsigned char *s = xmalloc(count * (size_t)P), *r = xmalloc(count * (size_t)P);
    for (int w = 0; w < P; w++)
        fill(s + (size_t)w * count, seed, v * P + w, count);
    memset(r, 0xee, count * (size_t)P);
    hd_coll_args a = { 0 };
    a.alg = alg;
    a.send = s;
    a.recv = r;
    a.count = count;
    a.size = 1;
    hd_coll_run(&a);
    for (int w = 0; w < P; w++)
        expect("alltoall", alg, r + (size_t)w * count, seed, w * P + v, count);
    free(s);
    free(r);
}

/* v's send lands in dest[v]'s recv; from[] is dest's inverse. */
static void permuted(int alg, const int *dest, size_t count, unsigned seed)
{
    int v = v_get_pid();
    int *from = xmalloc((size_t)P * sizeof *from);
    for (int w = 0; w < P; w++)
        from[dest[w]] = w;
    unsigned char *s = xmalloc(count), *r = xmalloc(count);
    fill(s, seed, v, count);
    memset(r, 0xee, count);
    hd_coll_args a = { 0 };
    a.alg = alg;
    a.send = s;
    a.recv = r;
    a.count = count;
    a.size = 1;
    a.dest = dest;
    hd_coll_run(&a);
    expect("permutation", alg, r, seed, from[v], count);
    /* In place: send and recv one buffer. */
    fill(r, seed, v, count);
    a.send = r;
    hd_coll_run(&a);
    expect("permutation in place", alg, r, seed, from[v], count);
    free(s);
    free(r);
    free(from);
}

/* INVERSION and the transpositions permute physical nodes. */
static void physical_perm(int alg, size_t count, unsigned seed)
{
    int *dest = xmalloc((size_t)P * sizeof *dest);
    int c = n / 2;
    for (int w = 0; w < P; w++) {
        int p = to_physical[w], q;
        if (alg == HD_COLL_INVERSION)
            q = p ^ (P - 1);
        else
            q = ((p & ((1 << c) - 1)) << c) | (p >> c);
        dest[w] = to_virtual[q];
    }
    int v = v_get_pid();
    int *from = xmalloc((size_t)P * sizeof *from);
    for (int w = 0; w < P; w++)
        from[dest[w]] = w;
    unsigned char *s = xmalloc(count), *r = xmalloc(count);
    fill(s, seed, v, count);
    memset(r, 0xee, count);
    hd_coll_args a = { 0 };
    a.alg = alg;
    a.send = s;
    a.recv = r;
    a.count = count;
    a.size = 1;
    hd_coll_run(&a);
    expect("physical permutation", alg, r, seed, from[v], count);
    free(s);
    free(r);
    free(from);
    free(dest);
}

/* The LCPs of samples/lcc/paper.lcc (Hou et al. 2001) on the n-cube:
 * transpose (n even), bit reverse, reverse-flip. */
static void lcps(size_t count, unsigned seed)
{
    uint64_t rows[32];
    int *dest = xmalloc((size_t)P * sizeof *dest);
    for (int which = 0; which < 3; which++) {
        if (which == 0 && n % 2)
            continue;
        for (int t = 0; t < n; t++) {
            int col = which == 0 ? (t + n / 2) % n : n - 1 - t;
            rows[t] = (uint64_t)1 << col;
        }
        uint64_t b = which == 2 ? (uint64_t)P - 1 : 0;
        for (int x = 0; x < P; x++) {
            uint64_t y = b;
            for (int t = 0; t < n; t++)
                y ^= (uint64_t)__builtin_parityll(rows[t] & (uint64_t)x) << t;
            dest[x] = (int)y;
        }
        int v = v_get_pid(), from = -1;
        for (int w = 0; w < P; w++)
            if (dest[w] == v)
                from = w;
        unsigned char *s = xmalloc(count), *r = xmalloc(count);
        fill(s, seed + (unsigned)which, v, count);
        memset(r, 0xee, count);
        hd_coll_permute_lc(s, r, count, rows, b);
        expect("permute_lc", -1, r, seed + (unsigned)which, from, count);
        free(s);
        free(r);
    }
    free(dest);
}

/* hd_coll_transpose of an N x N matrix of int32, element (i, j) = i * N + j. */
static void transpose_matrix(size_t N)
{
    int v = v_get_pid(), c = n / 2;
    size_t side = (size_t)1 << c, b = N / side;
    int x = v >> c, y = v & ((1 << c) - 1);
    int32_t *blk = xmalloc(b * b * sizeof *blk), *out = xmalloc(b * b * sizeof *out);
    for (size_t i = 0; i < b; i++)
        for (size_t j = 0; j < b; j++)
            blk[i * b + j] = (int32_t)((x * b + i) * N + (y * b + j));
    hd_coll_transpose(blk, out, N, sizeof *blk);
    for (size_t i = 0; i < b; i++)
        for (size_t j = 0; j < b; j++) {
            /* element (x b + i, y b + j) of the transpose is M(y b + j, x b + i). */
            int32_t want = (int32_t)((y * b + j) * N + (x * b + i));
            if (out[i * b + j] != want)
                fail("hd_coll_transpose", HD_COLL_TRANSPOSE_LC, i * b + j, out[i * b + j], want);
        }
    if (hd_get_pid() == 0)
        checks++;
    free(blk);
    free(out);
}

/* hd_coll_exchange: messages of their own sizes (3 v + 1 bytes from
 * virtual v) by each algorithm, to a random permutation and to the
 * physical patterns INVERSION and the transposition move. */
static void exchange(unsigned seed, size_t big)
{
    int v = v_get_pid(), c = n / 2;
    int *dest = xmalloc((size_t)P * sizeof *dest), *from = xmalloc((size_t)P * sizeof *from);
    static const hd_coll_alg algs[] = { HD_COLL_PERMUTED, HD_COLL_INVERSION, HD_COLL_TRANSPOSE_LC,
                                        HD_COLL_TRANSPOSE_BLOCKS };
    for (size_t k = 0; k < sizeof algs / sizeof *algs; k++) {
        for (int w = 0; w < P; w++) {
            int p = to_physical[w];
            if (algs[k] == HD_COLL_INVERSION)
                dest[w] = to_virtual[p ^ (P - 1)];
            else if (n % 2 == 0 && algs[k] != HD_COLL_PERMUTED)
                dest[w] = to_virtual[((p & ((1 << c) - 1)) << c) | (p >> c)];
            else
                dest[w] = w;
        }
        if (algs[k] == HD_COLL_PERMUTED && !big)
            random_perm(seed + 77, dest);
        else if (algs[k] == HD_COLL_PERMUTED)
            for (int w = 0; w < P; w++)
                dest[w] = w ^ (P > 4 ? 5 : P - 1);
        for (int w = 0; w < P; w++)
            from[dest[w]] = w;
        size_t nout = big ? big : 3 * (size_t)v + 1, nin = big ? big : 3 * (size_t)from[v] + 1;
        unsigned char *s = xmalloc(nout), *r = xmalloc(nin);
        fill(s, seed + (unsigned)k, v, nout);
        memset(r, 0xee, nin);
        hd_coll_exchange(algs[k], s, nout, r, nin, dest);
        expect("hd_coll_exchange", algs[k], r, seed + (unsigned)k, from[v], nin);
        free(s);
        free(r);
    }
    free(dest);
    free(from);
}

/* hd_exchange_run_collective over a batched exchange (what translate
 * writes for a doall's one-to-all or all-to-one communication): the
 * messages are put with hd_put and expected with hd_expect as the node
 * code does, and what each processor then finds in its inboxes is
 * checked against the bytes their senders filled.  Block w of sender v
 * is fill(seed, v * P + w) for a distribute and a collect, fill(seed, v)
 * for a broadcast and an all-gather (the same bytes to everyone).  With
 * dims, in every coset of the subcube those physical dimensions span,
 * rooted at its member whose bits there are `root`'s (the exchange runs
 * within cosets only; block_w is the member's hd_coll_subcube_index). */
static void exchange_collective(unsigned seed, size_t bytes, int root, uint64_t dims)
{
    int v = v_get_pid();
    uint64_t me_p = (uint64_t)to_physical[v];
    if (dims)
        root = to_virtual[(me_p & ~dims) | ((uint64_t)to_physical[root] & dims)];
    static const hd_coll_alg algs[] = { HD_COLL_BCAST1,      HD_COLL_BCAST2,  HD_COLL_BCAST3A,
                                        HD_COLL_BCAST3B,     HD_COLL_BCAST4,  HD_COLL_DISTRIBUTE1,
                                        HD_COLL_DISTRIBUTE2, HD_COLL_COLLECT, HD_COLL_ALLGATHER };
    unsigned char *block = xmalloc(bytes);
    for (size_t k = 0; k < sizeof algs / sizeof *algs; k++) {
        hd_coll_alg a = algs[k];
        int bcast = a <= HD_COLL_BCAST4, dist = a == HD_COLL_DISTRIBUTE1 ||
                                                a == HD_COLL_DISTRIBUTE2;
        unsigned sd = seed + 31u * (unsigned)k;
        hd_exchange *x = hd_exchange_new();
        for (int w = 0; w < P; w++) {
            if (w == v || (((uint64_t)to_physical[w] ^ me_p) & ~dims))
                continue;
            int sends = a == HD_COLL_ALLGATHER || ((bcast || dist) && v == root) ||
                        (a == HD_COLL_COLLECT && w == root);
            if (sends) {
                fill(block, sd, bcast || a == HD_COLL_ALLGATHER ? v : v * P + w, bytes);
                hd_put(x, w, block, bytes);
            }
            int gets = a == HD_COLL_ALLGATHER || ((bcast || dist) && w == root) ||
                       (a == HD_COLL_COLLECT && v == root);
            if (gets)
                hd_expect(x, w, bytes);
        }
        hd_exchange_run_collective(x, (int)a, root, dims);
        const unsigned char *const *in = hd_inboxes(x);
        for (int w = 0; w < P; w++) {
            if (w == v || !in[w])
                continue;
            expect("hd_exchange_run_collective", (int)a, in[w], sd,
                   bcast || a == HD_COLL_ALLGATHER ? w : w * P + v, bytes);
        }
        hd_exchange_free(x);
    }
    free(block);
}

/* ---------------------------------------------- the reductions */

/* Element i of virtual v's vector (re + im i; im = 0 but for the complex
 * types), small enough that every operator's result is exact in every
 * type: sums of at most 2^8 values up to 7; products of 1s and 2s (2^P
 * fits for P <= 32, else all 1s), of 1 + i and 1 for the complex types
 * at P <= 16. */
static void val(int type, int op, unsigned seed, int v, size_t i, long *re, long *im)
{
    unsigned g = gen(seed, v, i);
    *im = 0;
    if (op != HD_OP_PROD) {
        *re = (long)(g % 7) + 1;
        if (type >= HD_T_CFLOAT)
            *im = (long)(g % 3);
    } else if (type >= HD_T_CFLOAT) {
        *re = 1;
        *im = P <= 16 ? (long)(g & 1) : 0;
    } else {
        *re = 1 + (long)(g & (P > 32 ? 0 : 1));
    }
}

static int tiny;

static void reductions(size_t count, unsigned seed, int full)
{
    int v = v_get_pid();
    for (int type = 0; type < HD_NTYPES; type++)
        for (int op = 0; op < HD_NOPS; op++) {
            if (type >= HD_T_FLOAT && op >= HD_OP_BAND)
                continue;
            /* Light runs: every type with +, every operator on int32;
             * tiny ones (n >= 7): + on int32, double and complex double. */
            if (!full && op != HD_OP_SUM && type != HD_T_INT32)
                continue;
            if (tiny && (op != HD_OP_SUM || (type != HD_T_INT32 && type != HD_T_DOUBLE &&
                                              type != HD_T_CDOUBLE)))
                continue;
            if (type >= HD_T_CFLOAT && (op == HD_OP_MIN || op == HD_OP_MAX))
                continue;
            size_t es = hd_coll_type_size(type);
            unsigned char *s = xmalloc(count * es), *r = xmalloc(count * es);
            /* Products of P values up to 7 overflow: use 1s and 2s for *
             * (and 2^P fits a double's mantissa and a uint64 for P <= 32,
             * and wraps the same in the narrow integers). */
            for (size_t i = 0; i < count; i++) {
                long x, xi;
                val(type, op, seed, v, i, &x, &xi);
                unsigned char *e = s + i * es;
                switch (type) {
                case HD_T_INT8: *(int8_t *)e = (int8_t)x; break;
                case HD_T_INT16: *(int16_t *)e = (int16_t)x; break;
                case HD_T_INT32: *(int32_t *)e = (int32_t)x; break;
                case HD_T_INT64: *(int64_t *)e = x; break;
                case HD_T_UINT8: *(uint8_t *)e = (uint8_t)x; break;
                case HD_T_UINT16: *(uint16_t *)e = (uint16_t)x; break;
                case HD_T_UINT32: *(uint32_t *)e = (uint32_t)x; break;
                case HD_T_UINT64: *(uint64_t *)e = (uint64_t)x; break;
                case HD_T_FLOAT: *(float *)e = (float)x; break;
                case HD_T_DOUBLE: *(double *)e = (double)x; break;
                case HD_T_LDOUBLE: *(long double *)e = (long double)x; break;
                case HD_T_CFLOAT: *(float _Complex *)e = (float)x + (float)xi * I; break;
                case HD_T_CDOUBLE: *(double _Complex *)e = (double)x + (double)xi * I; break;
                default: *(long double _Complex *)e = (long double)x + (long double)xi * I; break;
                }
            }
            int root = (int)(seed % (unsigned)P);
            for (int kind = 0; kind < 3; kind++) {
                if (!full && kind > 0 && type != HD_T_INT32 && type != HD_T_CDOUBLE)
                    continue;
                memset(r, 0xee, count * es);
                if (kind == 0)
                    hd_coll_allreduce(s, r, count, type, op);
                else if (kind == 1)
                    hd_coll_reduce(s, r, count, type, op, root);
                else if (count % (size_t)P == 0)
                    hd_coll_reduce_scatter(s, r, count / (size_t)P, type, op);
                else
                    continue;
                if (kind == 1 && v != root)
                    continue;
                size_t lo = kind == 2 ? (size_t)v * (count / (size_t)P) : 0;
                size_t hi = kind == 2 ? lo + count / (size_t)P : count;
                for (size_t i = lo; i < hi; i++) {
                    /* The sequential reference: fold over v = 0 .. P-1 in
                     * long double (exact for these values), then compare
                     * in the type. */
                    long double re = 0, im = 0, acc_re = 0, acc_im = 0;
                    uint64_t bits = 0;
                    for (int w = 0; w < P; w++) {
                        long x, xi;
                        val(type, op, seed, w, i, &x, &xi);
                        re = (long double)x;
                        im = (long double)xi;
                        if (w == 0) {
                            acc_re = re, acc_im = im, bits = (uint64_t)x;
                            continue;
                        }
                        switch (op) {
                        case HD_OP_SUM: acc_re += re, acc_im += im; break;
                        case HD_OP_PROD: {
                            long double nr = acc_re * re - acc_im * im;
                            acc_im = acc_re * im + acc_im * re;
                            acc_re = nr;
                            break;
                        }
                        case HD_OP_MIN: acc_re = re < acc_re ? re : acc_re; break;
                        case HD_OP_MAX: acc_re = re > acc_re ? re : acc_re; break;
                        case HD_OP_BAND: bits &= (uint64_t)x; break;
                        case HD_OP_BOR: bits |= (uint64_t)x; break;
                        default: bits ^= (uint64_t)x; break;
                        }
                    }
                    if (op >= HD_OP_BAND)
                        acc_re = (long double)bits;
                    const unsigned char *e = r + (kind == 2 ? i - lo : i) * es;
                    long double got_re, got_im = 0;
                    switch (type) {
                    case HD_T_INT8: got_re = *(const int8_t *)e; acc_re = (int8_t)(uint8_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_INT16: got_re = *(const int16_t *)e; acc_re = (int16_t)(uint16_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_INT32: got_re = *(const int32_t *)e; acc_re = (int32_t)(uint32_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_INT64: got_re = (long double)*(const int64_t *)e; acc_re = (long double)(int64_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_UINT8: got_re = *(const uint8_t *)e; acc_re = (uint8_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_UINT16: got_re = *(const uint16_t *)e; acc_re = (uint16_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_UINT32: got_re = *(const uint32_t *)e; acc_re = (uint32_t)(uint64_t)(__int128)acc_re; break;
                    case HD_T_UINT64: got_re = (long double)*(const uint64_t *)e; acc_re = (long double)(uint64_t)(__int128)acc_re; break;
                    case HD_T_FLOAT: got_re = *(const float *)e; break;
                    case HD_T_DOUBLE: got_re = *(const double *)e; break;
                    case HD_T_LDOUBLE: got_re = *(const long double *)e; break;
                    case HD_T_CFLOAT: got_re = crealf(*(const float _Complex *)e); got_im = cimagf(*(const float _Complex *)e); break;
                    case HD_T_CDOUBLE: got_re = creal(*(const double _Complex *)e); got_im = cimag(*(const double _Complex *)e); break;
                    default: got_re = creall(*(const long double _Complex *)e); got_im = cimagl(*(const long double _Complex *)e); break;
                    }
                    if (type < HD_T_CFLOAT)
                        acc_im = 0;
                    if (got_re != acc_re || got_im != acc_im) {
                        fprintf(stderr, "coll_prog: processor %d: reduction kind %d type %d op %d "
                                        "element %zu: got %Lg%+Lgi, expected %Lg%+Lgi\n",
                                hd_get_pid(), kind, type, op, i, got_re, got_im, acc_re, acc_im);
                        exit(3);
                    }
                }
                if (hd_get_pid() == 0)
                    checks++;
            }
            free(s);
            free(r);
        }
}

/* ---------------------------------------------- the driver */

/* The full set for the threads back end up to n = 6; a light one (every
 * algorithm, fewer sizes, roots and groups) for MPI, whose oversubscribed
 * ranks pay a scheduler's time slice per message, and for n >= 7. */
static int full;

static void node(const void *env)
{
    (void)env;
    static const size_t all_counts[] = { 1, 5, 64, 97 }, light_counts[] = { 97 },
                        tiny_counts[] = { 13 };
    const size_t *counts = full ? all_counts : tiny ? tiny_counts : light_counts;
    size_t ncounts = full ? 4 : 1;
    unsigned seed = 1;
    int roots[3] = { P - 1, 0, P > 2 ? 2 : 0 }, nroots = full ? 3 : 1;
    for (size_t ci = 0; ci < ncounts; ci++) {
        size_t count = counts[ci];
        for (int r = 0; r < nroots; r++) {
            int root = roots[r];
            for (int alg = HD_COLL_BCAST1; alg <= HD_COLL_BCAST4; alg++)
                for (int g = 1; g <= (alg == HD_COLL_BCAST4 ? 3 : 1); g++)
                    if (full || alg != HD_COLL_BCAST4 || g == 3)
                        one_to_all(alg, root, g, count, seed++);
            if (n >= 1) {
                for (int alg = HD_COLL_OCSEND1; alg <= HD_COLL_OCSEND4; alg++)
                    send_to(alg, root, n, 0, alg == HD_COLL_OCSEND4 ? 2 : 0, count, seed++);
                for (int k = 1; k <= n; k++) {
                    if (!full && k != 1 && k != n && k != n - 2)
                        continue;
                    for (int alg = HD_COLL_ARBSEND1; alg <= HD_COLL_ARBSEND3; alg++)
                        send_to(alg, root, k, k, 2, count, seed++);
                }
                for (int k = 1; k <= n - 1; k++) {
                    if (!full && k != 1 && k != n - 1)
                        continue;
                    send_to(HD_COLL_XOCSEND1, root, k, k, 0, count, seed++);
                    send_to(HD_COLL_XOCSEND2, root, k, k, 3, count, seed++);
                }
            }
            scatter_gather(root, count, seed++);
        }
        allgather(count, seed++);
        alltoall(HD_COLL_ALLTOALL, count, seed++);
        alltoall(HD_COLL_TRANSPOSE_ROWS, count, seed++);
        physical_perm(HD_COLL_INVERSION, count, seed++);
        if (n % 2 == 0) {
            physical_perm(HD_COLL_TRANSPOSE_BLOCKS, count, seed++);
            physical_perm(HD_COLL_TRANSPOSE_LC, count, seed++);
        }
        if (ci == 0) {
            /* 20 seeded random permutations, once: at the first size (at
             * n = 8, 2^8 threads take turns on two cores for each of
             * PERMUTED SEND's 2n stages: 31 s of the test's time). */
            int *dest = xmalloc((size_t)P * sizeof *dest);
            for (unsigned k = 0; k < 20u; k++) {
                random_perm(1000 + k, dest);
                permuted(HD_COLL_PERMUTED, dest, count, seed++);
            }
            free(dest);
            reductions(count * (size_t)P, seed++, full);
        }
        lcps(count, seed);
        seed += 3;
        reductions(count, seed++, full);
    }
    if (n % 2 == 0)
        transpose_matrix((size_t)4 << (n / 2));
    exchange(seed++, 0);
    exchange(seed++, 16384);
    for (int root = 0; root < P; root += P > 4 ? P / 4 + 1 : 1)
        exchange_collective(seed++, 24 + (size_t)root, root, 0);
    exchange_collective(seed++, 16384, P - 1, 0);
    /* Subcubes: every other dimension, the high half, one dimension. */
    if (n >= 2) {
        exchange_collective(seed++, 40, P - 1, UINT64_C(0x5555555555555555) & (uint64_t)(P - 1));
        exchange_collective(seed++, 40, 1, (uint64_t)(P - 1) & ~(uint64_t)((1 << (n / 2)) - 1));
        exchange_collective(seed++, 4096, 0, (uint64_t)1 << (n - 1));
    }
}

static const hd_node_fn doalls[] = { node };

static int host_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    hd_doall(0, NULL, 0);
    printf("coll ok %ld\n", checks);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: coll_prog N [MAP]\n");
        return 2;
    }
    n = atoi(argv[1]);
    map_kind = argc > 2 ? atoi(argv[2]) : 0;
    full = argc > 3 ? strcmp(argv[3], "full") == 0 : n <= 6;
    tiny = argc > 3 ? strcmp(argv[3], "tiny") == 0 : n >= 7;
    P = 1 << n;
    to_virtual = xmalloc((size_t)P * sizeof *to_virtual);
    to_physical = xmalloc((size_t)P * sizeof *to_physical);
    for (int p = 0; p < P; p++) {
        to_virtual[p] = map_kind ? (5 * p + 3) % P : p;
        to_physical[to_virtual[p]] = p;
    }
    hd_program_desc prog = { "coll_prog.c", n, to_virtual, to_physical, 0, NULL, 1, doalls,
                             host_main, NULL };
    return hd_run(&prog, argc, argv);
}
