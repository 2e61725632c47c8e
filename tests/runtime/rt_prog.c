/*
 * rt_prog.c — hand-written SPMD programs on hyperdo.h, the way translated
 * programs use it (a hd_program_desc, node functions, a host main), built
 * once per back end (rt_prog: threads, rt_prog_mpi: MPI).  test_runtime
 * runs them and checks their output and exit status.
 *
 *     rt_prog SCENARIO N [MAP] [ARG]
 *
 * N is the cube's dimension (2^N processors); MAP 0 is the identity
 * processor mapping, MAP 1 the permutation physical p -> virtual
 * (5p + 3) mod 2^N (so the host is virtual 3 mod 2^N).  Each processor
 * counts its checks and errors in its element of the distributed array
 * "result" (one element per processor); the host gathers them and prints
 * "SCENARIO ok ..." and returns 0, or prints the failures and returns 2.
 */
#include "hyperdo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t errors;
    int64_t checks;
    int64_t phys; /* the hd_get_pid() of the processor that wrote it */
    int64_t virt;
} result;

enum { A_RESULT, A_CYC8, A_BLK4, A_BC24, A_BC1, A_ZERO, A_SBLK, A_SCYC, A_SKEW, NARRAYS };

/* The static host copies of A_SBLK and A_SCYC (2^SL elements, n <= SL). */
#define SL 10
static int64_t host_sblk[1 << SL], host_scyc[1 << SL];
/* A_SKEW's: a 2^n x 2^n matrix (n <= SKEW_MAX_N). */
#define SKEW_MAX_N 6
static int64_t host_skew[1 << (2 * SKEW_MAX_N)];

typedef struct {
    unsigned char b[24];
} elem24;

static int n, P, map_kind;
static long arg;
static int err_doall;
static int *to_virtual, *to_physical;
static hd_array_desc arrays[NARRAYS];

static void note(int ok, const char *what, long a, long b)
{
    result *r = hd_local(A_RESULT);
    r->checks++;
    if (!ok) {
        if (r->errors < 5)
            fprintf(stderr, "processor %d (virtual %d): %s (%ld, %ld)\n", hd_get_pid(),
                    v_get_pid(), what, a, b);
        r->errors++;
    }
}

/* Gathers the results and reports; checks that every processor made
 * `expect` checks when expect >= 0. */
static int report(const char *name, int64_t expect)
{
    result *all = calloc((size_t)P, sizeof *all);
    int64_t errors = 0, checks = 0;
    int bad = 0;
    hd_gather(A_RESULT, all);
    for (int v = 0; v < P; v++) {
        errors += all[v].errors;
        checks += all[v].checks;
        if (expect >= 0 && all[v].checks != expect) {
            printf("virtual %d made %" PRId64 " checks, %" PRId64 " expected\n", v,
                   all[v].checks, expect);
            bad = 1;
        }
    }
    free(all);
    if (errors || bad || checks == 0) {
        printf("%s FAILED: %" PRId64 " errors in %" PRId64 " checks\n", name, errors, checks);
        return 2;
    }
    printf("%s ok n=%d map=%d checks=%" PRId64 "\n", name, n, map_kind, checks);
    return 0;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15u;
    x ^= x >> 29;
    return x;
}

/* ------------------------------------------------- permutations */

static int bits_reverse(int v)
{
    int r = 0;
    for (int t = 0; t < n; t++)
        r |= ((v >> t) & 1) << (n - 1 - t);
    return r;
}

#define NFIXED 5
static int nrounds(void)
{
    return NFIXED + (P - 1); /* the fixed ones, then v ^ m for m = 1 .. P-1 */
}

static int perm(int round, int v)
{
    switch (round) {
    case 0: return bits_reverse(v);
    case 1: return n ? ((v << 1) | (v >> (n - 1))) & (P - 1) : 0;
    case 2: return (v + 1) & (P - 1);
    case 3: return (5 * v + 3) & (P - 1);
    case 4: return v; /* to itself */
    default: return v ^ (round - NFIXED + 1);
    }
}

static size_t msg_words(int round, int seq)
{
    static const size_t sizes[] = { 1, 3, 1000, 8192, 17 };
    return sizes[(round + seq) % 5];
}

static uint64_t word(int src, int dst, int round, int seq, size_t i)
{
    return mix(((uint64_t)src << 48) ^ ((uint64_t)dst << 32) ^ ((uint64_t)round << 20) ^
               ((uint64_t)seq << 16) ^ i);
}

static void permute_node(const void *env)
{
    int round = *(const int *)env;
    int v = v_get_pid(), w = perm(round, v), u = -1;
    uint64_t buf[8192];
    for (int x = 0; x < P; x++)
        if (perm(round, x) == v)
            u = x;
    /* Three messages in a row: they must arrive in order. */
    for (int seq = 0; seq < 3; seq++) {
        size_t k = msg_words(round, seq);
        for (size_t i = 0; i < k; i++)
            buf[i] = word(v, w, round, seq, i);
        v_send(w, buf, k * sizeof *buf);
    }
    for (int seq = 0; seq < 3; seq++) {
        size_t k = msg_words(round, seq), bad = 0;
        memset(buf, 0, sizeof buf);
        v_receive(u, buf, k * sizeof *buf);
        for (size_t i = 0; i < k; i++)
            bad += buf[i] != word(u, v, round, seq, i);
        note(bad == 0, "permute: wrong words", round, (long)bad);
    }
}

static int permute_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (int r = 0; r < nrounds(); r++)
        hd_doall(0, &r, sizeof r);
    return report("permute", 3 * nrounds());
}

/* --------------------------------------------- all-to-all, large */

static uint64_t big_word(int src, int dst, size_t i)
{
    return ((uint64_t)src << 56) ^ ((uint64_t)dst << 48) ^ i;
}

static void alltoall_node(const void *env)
{
    size_t bytes = *(const size_t *)env, k = bytes / sizeof(uint64_t);
    int v = v_get_pid();
    uint64_t *buf = malloc(bytes);
    if (!buf) {
        note(0, "alltoall: out of memory", 0, 0);
        return;
    }
    /* Every send before any receive; one buffer reused after each send. */
    for (int m = 1; m < P; m++) {
        int w = v ^ m;
        for (size_t i = 0; i < k; i++)
            buf[i] = big_word(v, w, i);
        v_send(w, buf, bytes);
    }
    for (int m = 1; m < P; m++) {
        int u = v ^ m;
        size_t bad = 0;
        buf[0] = ~buf[0];
        v_receive(u, buf, bytes);
        for (size_t i = 0; i < k; i++)
            bad += buf[i] != big_word(u, v, i);
        note(bad == 0, "alltoall: wrong words", u, (long)bad);
    }
    free(buf);
}

static int alltoall_main(int argc, char **argv)
{
    size_t bytes = (size_t)arg << 20;
    (void)argc;
    (void)argv;
    hd_doall(1, &bytes, sizeof bytes);
    return report("alltoall", P - 1);
}

/* ------------------------------------------------ scatter/gather */

static unsigned char byte_of(int array, hd_index e, size_t j, int round)
{
    return (unsigned char)mix((uint64_t)e * 131 + j * 7 + (uint64_t)array * 1000003 +
                              (uint64_t)round * 77);
}

static void fill(int array, void *host, int round)
{
    const hd_array_desc *a = &arrays[array];
    unsigned char *h = host;
    for (hd_index e = 0; e < ((hd_index)1 << a->log2_size); e++)
        for (size_t j = 0; j < a->elem_size; j++)
            h[e * (hd_index)a->elem_size + (hd_index)j] = byte_of(array, e, j, round);
}

/* Element index of local offset o on virtual processor v. */
static hd_index global_of(hd_index o, int v, int shift)
{
    return ((o >> shift) << (shift + n)) | ((hd_index)v << shift) |
           (o & (((hd_index)1 << shift) - 1));
}

static void scatter_node(const void *env)
{
    int v = v_get_pid();
    (void)env;
    for (int array = A_CYC8; array <= A_ZERO; array++) {
        const hd_array_desc *a = &arrays[array];
        unsigned char *loc = hd_local(array);
        hd_index count = (hd_index)1 << (a->log2_size - n);
        size_t bad = 0, bad_map = 0;
        for (hd_index o = 0; o < count; o++) {
            hd_index e = global_of(o, v, a->shift);
            bad_map += hd_owner(e, a->shift, n) != v || hd_local_offset(e, a->shift, n) != o;
            for (size_t j = 0; j < a->elem_size; j++) {
                unsigned char *c = &loc[o * (hd_index)a->elem_size + (hd_index)j];
                unsigned char want = array == A_ZERO ? 0 : byte_of(array, e, j, 0);
                bad += *c != want;
                *c = byte_of(array, e, j, 1);
            }
        }
        note(bad_map == 0, "scatter: hd_owner/hd_local_offset", array, (long)bad_map);
        note(bad == 0, "scatter: wrong bytes", array, (long)bad);
    }
}

static int scatter_main(int argc, char **argv)
{
    int failed = 0;
    (void)argc;
    (void)argv;
    for (int array = A_CYC8; array < A_ZERO; array++) {
        const hd_array_desc *a = &arrays[array];
        void *h = malloc(a->elem_size << a->log2_size);
        fill(array, h, 0);
        hd_scatter(array, h);
        free(h);
    }
    hd_doall(2, NULL, 0);
    for (int array = A_CYC8; array <= A_ZERO; array++) {
        const hd_array_desc *a = &arrays[array];
        size_t bytes = a->elem_size << a->log2_size;
        unsigned char *h = malloc(bytes), *want = malloc(bytes);
        memset(h, 0xee, bytes);
        hd_gather(array, h);
        fill(array, want, 1);
        if (memcmp(h, want, bytes) != 0) {
            printf("gather of %s: wrong bytes\n", a->name);
            failed = 1;
        }
        free(h);
        free(want);
    }
    return report("scatter", 2 * (A_ZERO - A_CYC8 + 1)) | failed * 2;
}

/* ---------------------------------------------------- mapping */

typedef struct {
    int32_t phys, virt;
} ident;

static void mapping_node(const void *env)
{
    int p = hd_get_pid(), v = v_get_pid();
    int w = (v + 1) % P, u = (v + P - 1) % P;
    ident me = { p, v }, got = { -1, -1 };
    result *r = hd_local(A_RESULT);
    (void)env;
    note(v == to_virtual[p], "mapping: v_get_pid", p, v);
    note(hd_nprocs() == P && hd_dim() == n, "mapping: hd_nprocs/hd_dim", hd_nprocs(), hd_dim());
    v_send(w, &me, sizeof me);
    v_receive(u, &got, sizeof got);
    /* The message from virtual u came from physical to_physical[u]. */
    note(got.virt == u && got.phys == to_physical[u], "mapping: sender", got.virt, got.phys);
    r->phys = p;
    r->virt = v;
    v_barrier();
}

static int mapping_main(int argc, char **argv)
{
    result *all = calloc((size_t)P, sizeof *all);
    int bad = 0;
    (void)argc;
    (void)argv;
    if (hd_get_pid() != 0 || v_get_pid() != to_virtual[0]) {
        printf("host: physical %d, virtual %d\n", hd_get_pid(), v_get_pid());
        bad = 1;
    }
    hd_doall(3, NULL, 0);
    hd_gather(A_RESULT, all);
    /* Element v of "result" is virtual v's: written by physical to_physical[v]. */
    for (int v = 0; v < P; v++)
        if (all[v].phys != to_physical[v] || all[v].virt != v) {
            printf("result %d written by physical %" PRId64 " (virtual %" PRId64 ")\n", v,
                   all[v].phys, all[v].virt);
            bad = 1;
        }
    free(all);
    return report("mapping", 3) | bad * 2;
}

/* --------------------------------------------------- hd_exchange */

static int pair_active(int src, int dst)
{
    return (src * 7 + dst * 3) % 5 != 4;
}

static int nitems(int src, int dst)
{
    return 1 + (src + 2 * dst) % 4;
}

static size_t item_size(int src, int dst, int k)
{
    static const size_t sizes[] = { 1, 8, 2, 24, 4, 100, 12, 0, 16 };
    return sizes[(size_t)(src + dst + 3 * k) % 9];
}

static unsigned char item_byte(int src, int dst, int k, size_t j)
{
    return (unsigned char)mix(((uint64_t)src << 40) ^ ((uint64_t)dst << 24) ^
                              ((uint64_t)k << 12) ^ j);
}

static void exchange_node(const void *env)
{
    int v = v_get_pid();
    int rounds = *(const int *)env;
    for (int round = 0; round < rounds; round++) {
        hd_exchange *x = hd_exchange_new();
        unsigned char value[100];
        /* Puts interleaved over the destinations, self included. */
        for (int k = 0; k < 4; k++)
            for (int w = 0; w < P; w++) {
                if (!pair_active(v, w) || k >= nitems(v, w))
                    continue;
                size_t s = item_size(v, w, k);
                for (size_t j = 0; j < s; j++)
                    value[j] = item_byte(v, w, k, j);
                hd_put(x, w, value, s);
            }
        for (int u = 0; u < P; u++)
            if (pair_active(u, v))
                for (int k = 0; k < nitems(u, v); k++)
                    hd_expect(x, u, item_size(u, v, k));
        hd_exchange_run(x);
        for (int u = P - 1; u >= 0; u--) {
            if (!pair_active(u, v))
                continue;
            for (int k = 0; k < nitems(u, v); k++) {
                size_t s = item_size(u, v, k), bad = 0;
                memset(value, 0xcc, sizeof value);
                if (hd_take(x, u, value, s) != value)
                    bad++;
                for (size_t j = 0; j < s; j++)
                    bad += value[j] != item_byte(u, v, k, j);
                note(bad == 0, "exchange: wrong value", u, k);
            }
        }
        hd_exchange_free(x);
    }
}

static int exchange_main(int argc, char **argv)
{
    int rounds = 3;
    (void)argc;
    (void)argv;
    hd_doall(4, &rounds, sizeof rounds);
    return report("exchange", -1);
}

/* ------------------------------------------- hd_exchange_groups */

/* Three groups with pair relations stated independently of the checks
 * that encode them (y = (q ^ home_c) | (p ^ src_c) << n):
 *   0: q = p ^ mask   (q_t ^ p_t = mask_t for every t), 1-byte elements, 1 slot;
 *   1: bit 0 of q differs from bit 0 of p, 24-byte elements, 8 slots;
 *   2: every pair, 8-byte elements, 4 slots. */
static int group_mask(void)
{
    return (int)((P - 1) & 0x5);
}

static int group_pair(int g, int p, int q)
{
    if (p == q)
        return 0;
    switch (g) {
    case 0: return q == (p ^ group_mask());
    case 1: return ((p ^ q) & 1) == 1;
    default: return 1;
    }
}

static const size_t group_elem[3] = { 1, 24, 8 };
static const int group_log2[3] = { 0, 3, 2 };

static unsigned char group_byte(int g, int p, int q, hd_index slot, size_t j)
{
    return (unsigned char)mix(((uint64_t)g << 50) ^ ((uint64_t)p << 36) ^ ((uint64_t)q << 20) ^
                              ((uint64_t)slot << 8) ^ j);
}

static void groups_node(const void *env)
{
    int v = v_get_pid();
    uint64_t checks0[32], checks1[1];
    (void)env;
    for (int t = 0; t < n; t++)
        checks0[t] = (UINT64_C(1) << t) | (UINT64_C(1) << (t + n));
    checks1[0] = n ? 1 | (UINT64_C(1) << n) : 0;
    hd_lcc_group g[3] = {
        { 1, 1, 0, 0, (uint64_t)group_mask(), n, checks0 },
        { 24, 16, 3, 0, 1, n ? 1 : 0, checks1 },
        { 8, 8, 2, 0, 0, 0, NULL },
    };
    hd_exchange *x = hd_exchange_groups(3, g);
    for (int k = 0; k < 3; k++) {
        void *const *out = hd_group_out(x, k);
        for (int q = 0; q < P; q++) {
            note((out[q] != NULL) == group_pair(k, v, q), "groups: sends to", k, q);
            if (!out[q])
                continue;
            note(((uintptr_t)out[q] & (k == 1 ? 15 : k == 2 ? 7 : 0)) == 0, "groups: alignment", k, q);
            for (hd_index s = 0; s < ((hd_index)1 << group_log2[k]); s++)
                for (size_t j = 0; j < group_elem[k]; j++)
                    ((unsigned char *)out[q])[(size_t)s * group_elem[k] + j] =
                        group_byte(k, v, q, s, j);
        }
    }
    for (int k = 1; k < P; k++) {
        size_t size;
        const void *out = hd_batch(x, v ^ k, &size);
        if (size)
            v_send(v ^ k, out, size);
    }
    for (int k = 1; k < P; k++) {
        size_t size;
        void *in = hd_inbox(x, v ^ k, &size);
        if (size)
            v_receive(v ^ k, in, size);
    }
    for (int k = 0; k < 3; k++) {
        const void *const *in = hd_group_in(x, k);
        for (int p = 0; p < P; p++) {
            note((in[p] != NULL) == group_pair(k, p, v), "groups: receives from", k, p);
            if (!in[p])
                continue;
            size_t bad = 0;
            for (hd_index s = 0; s < ((hd_index)1 << group_log2[k]); s++)
                for (size_t j = 0; j < group_elem[k]; j++)
                    bad += ((const unsigned char *)in[p])[(size_t)s * group_elem[k] + j] !=
                           group_byte(k, p, v, s, j);
            note(bad == 0, "groups: wrong bytes", k, p);
        }
    }
    hd_exchange_free(x);
}

static int groups_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    hd_doall(10, NULL, 0);
    return report("groups", -1);
}

/* ---------------------------------------------------- hd_requests */

/* Each processor asks for a pseudo-random list of elements of three
 * arrays of three layouts, with repeats, and none of its own; the
 * answers must be the scattered bytes, and a repeat the same ticket. */
static void requests_node(const void *env)
{
    int v = v_get_pid();
    static const int which[3] = { A_CYC8, A_BLK4, A_BC24 };
    enum { NASK = 300 };
    int arr[NASK];
    hd_index el[NASK], ticket[NASK];
    int nask = v % 3 == 2 ? 0 : NASK;   /* some processors ask nothing */
    (void)env;
    hd_requests *r = hd_requests_new();
    for (int k = 0; k < nask; k++) {
        const hd_array_desc *a = &arrays[which[k % 3]];
        hd_index e = (hd_index)(mix((uint64_t)v * 1000 + (uint64_t)(k % 97)) &
                                (((uint64_t)1 << a->log2_size) - 1));
        arr[k] = which[k % 3];
        el[k] = e;
        ticket[k] = -1;
        if (hd_owner(e, a->shift, n) == v)
            continue;
        ticket[k] = hd_request(r, arr[k], hd_owner(e, a->shift, n), e);
    }
    hd_requests_run(r);
    const void *const *val = hd_requests_values(r);
    size_t bad = 0, same = 0;
    for (int k = 0; k < nask; k++) {
        if (ticket[k] < 0)
            continue;
        const hd_array_desc *a = &arrays[arr[k]];
        for (size_t j = 0; j < a->elem_size; j++)
            bad += ((const unsigned char *)val[ticket[k]])[j] != byte_of(arr[k], el[k], j, 0);
        for (int m = 0; m < k; m++)
            if (ticket[m] >= 0)
                same += (arr[m] == arr[k] && el[m] == el[k]) != (ticket[m] == ticket[k]);
    }
    note(bad == 0, "requests: wrong bytes", v, (long)bad);
    note(same == 0, "requests: tickets of repeats", v, (long)same);
    hd_requests_free(r);
}

static int requests_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (int array = A_CYC8; array <= A_BC24; array++) {
        const hd_array_desc *a = &arrays[array];
        void *h = malloc(a->elem_size << a->log2_size);
        fill(array, h, 0);
        hd_scatter(array, h);
        free(h);
    }
    hd_doall(11, NULL, 0);
    return report("requests", 2);
}

/* ------------------------------------------ HD_ARRAY_HOST_STATIC */

/* Each processor adds round + 1 to its elements of both arrays and
 * counts the elements that do not hold what the host last wrote. */
static void alias_node(const void *env)
{
    int round = *(const int *)env;
    for (int array = A_SBLK; array <= A_SCYC; array++) {
        const hd_array_desc *a = &arrays[array];
        int64_t *loc = hd_local(array);
        int v = v_get_pid();
        size_t bad = 0;
        for (hd_index o = 0; o < ((hd_index)1 << (SL - n)); o++) {
            hd_index e = global_of(o, v, a->shift);
            bad += loc[o] != e * 1000 + round;
            loc[o] += round + 1;
        }
        note(bad == 0, "alias: wrong element", array, (long)bad);
    }
}

/* Rounds of: the host writes every element (after hd_host_access), sends
 * (hd_scatter), the doall changes them, the host reads them back
 * (hd_gather): whether the block array's slices are the host's copy or
 * not, the host must see exactly what the processors wrote, and they what
 * the host wrote. */
static int alias_main(int argc, char **argv)
{
    int failed = 0;
    (void)argc;
    (void)argv;
    for (int round = 0; round < 4; round++) {
        hd_host_access(A_SBLK);
        hd_host_access(A_SCYC);
        for (int e = 0; e < (1 << SL); e++)
            host_sblk[e] = host_scyc[e] = (int64_t)e * 1000 + round;
        hd_scatter(A_SBLK, host_sblk);
        hd_scatter(A_SCYC, host_scyc);
        hd_doall(12, &round, sizeof round);
        hd_gather(A_SBLK, host_sblk);
        hd_gather(A_SCYC, host_scyc);
        for (int e = 0; e < (1 << SL); e++)
            failed |= host_sblk[e] != (int64_t)e * 1000 + 2 * round + 1 ||
                      host_scyc[e] != (int64_t)e * 1000 + 2 * round + 1;
    }
    if (failed)
        printf("alias: the host does not see what the processors wrote\n");
    return report("alias", 2 * 4) | failed * 2;
}

/* -------------------------------------------------- exit status */

static void nothing_node(const void *env)
{
    (void)env;
    v_barrier();
}

static int exit_return_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    hd_doall(5, NULL, 0);
    printf("main returns %ld\n", arg);
    return (int)arg;
}

static void leave(int status)
{
    printf("calling exit(%d)\n", status);
    exit(status);
}

static int exit_call_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    hd_doall(5, NULL, 0);
    leave((int)arg);
    return 0;
}

/* ---------------------------------------------------- errors */

static void err_send_range_node(const void *env)
{
    int64_t x = 1;
    (void)env;
    if (v_get_pid() == P - 1)
        v_send(arg ? -1 : P, &x, sizeof x);
    v_barrier();
}

static void err_recv_range_node(const void *env)
{
    int64_t x = 1;
    (void)env;
    if (v_get_pid() == 0)
        v_receive(P, &x, sizeof x);
    v_barrier();
}

static void err_size_node(const void *env)
{
    char buf[16] = { 0 };
    (void)env;
    if (v_get_pid() == 0)
        v_send(1, buf, 8);
    if (v_get_pid() == 1)
        v_receive(0, buf, 16);
}

static void err_take_node(const void *env)
{
    hd_exchange *x = hd_exchange_new();
    int v = v_get_pid(), w = v ^ 1;
    int32_t a = v, b;
    (void)env;
    hd_put(x, w, &a, sizeof a);
    hd_expect(x, w, sizeof a);
    hd_exchange_run(x);
    hd_take(x, w, &b, sizeof b);
    if (v == 1)
        hd_take(x, w, &b, sizeof b); /* one more than expected */
    hd_exchange_free(x);
    v_barrier();
}

static int err_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("before the error\n");
    hd_doall(err_doall, NULL, 0);
    printf("after the error\n");
    return 0;
}

/* Virtual 0 asks virtual 1 for element 0 of the cyclic array, which is
 * its own: the owner check of hd_request must stop the program. */
static void err_request_owner_node(const void *env)
{
    (void)env;
    hd_requests *r = hd_requests_new();
    if (v_get_pid() == 0)
        hd_request(r, A_CYC8, 1, 0);
    hd_requests_run(r);
    hd_requests_free(r);
}

static int err_doall_range_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    hd_doall(99, NULL, 0);
    return 0;
}

/* ------------------------------------- a layout that is no bit field */

/*
 * A_SKEW is the 2^n x 2^n matrix x[i][j] (element e = i 2^n + j) under a
 * skewed layout in the manner of Lee and Aboelaze: x[i][j] lives on
 * virtual processor xi(i) XOR j XOR 1, with xi the rotation of i's n bits
 * left by one, at local offset i XOR SKEW_OFFSET_C.  Every processor holds
 * one element of each row and of each column, which no bit field gives.
 * The runtime reads it as GF(2) rows (skew_layout); the checks below
 * compute the placement directly from that definition.
 */
#define SKEW_OFFSET_C 5

static uint64_t skew_owner_rows[SKEW_MAX_N], skew_offset_rows[SKEW_MAX_N];
static hd_layout_desc skew_layout;

static int rotl_n(int i)
{
    return n == 0 ? 0 : ((i << 1) | (i >> (n - 1))) & (P - 1);
}

static int skew_owner(hd_index e)
{
    int i = (int)(e >> n), j = (int)(e & (P - 1));
    return (rotl_n(i) ^ j ^ 1) & (P - 1);
}

static hd_index skew_offset(hd_index e)
{
    return ((e >> n) ^ SKEW_OFFSET_C) & (P - 1);
}

/* Bit t of the owner is j_t + i_{t-1 mod n} (+ 1 for t = 0); bit t of the
 * offset is i_t (+ bit t of SKEW_OFFSET_C). */
static void describe_skew(void)
{
    for (int t = 0; t < n; t++) {
        skew_owner_rows[t] = (UINT64_C(1) << t) | (UINT64_C(1) << (n + (t + n - 1) % n));
        skew_offset_rows[t] = UINT64_C(1) << (n + t);
    }
    skew_layout = (hd_layout_desc){ skew_owner_rows, (uint64_t)(1 & (P - 1)), skew_offset_rows,
                                    (uint64_t)(SKEW_OFFSET_C & (P - 1)) };
}

/* Each processor finds, by trying every element, which one belongs at
 * each of its offsets, checks that hd_scatter put it there and writes
 * round-1 bytes; then asks the owners for a few elements of others
 * (hd_requests, which finds their offsets through the layout) and checks
 * the answers. */
static void layout_node(const void *env)
{
    int v = v_get_pid();
    const hd_array_desc *a = &arrays[A_SKEW];
    unsigned char *loc = hd_local(A_SKEW);
    hd_index count = (hd_index)1 << (a->log2_size - n), size = (hd_index)1 << a->log2_size;
    size_t bad = 0, misplaced = 0;
    (void)env;
    for (hd_index o = 0; o < count; o++) {
        hd_index e = -1;
        for (hd_index f = 0; f < size; f++) {
            if (skew_owner(f) != v || skew_offset(f) != o)
                continue;
            if (e >= 0)
                misplaced++;   /* two elements at one place */
            e = f;
        }
        if (e < 0) {
            misplaced++;
            continue;
        }
        for (size_t j = 0; j < a->elem_size; j++) {
            unsigned char *c = &loc[o * (hd_index)a->elem_size + (hd_index)j];
            bad += *c != byte_of(A_SKEW, e, j, 0);
            *c = byte_of(A_SKEW, e, j, 1);
        }
    }
    note(misplaced == 0, "layout: the test's placement is not one-to-one", v, (long)misplaced);
    note(bad == 0, "layout: hd_scatter put wrong bytes", v, (long)bad);

    hd_requests *r = hd_requests_new();
    enum { NASK = 40 };
    hd_index el[NASK], ticket[NASK];
    for (int k = 0; k < NASK; k++) {
        el[k] = (hd_index)(mix((uint64_t)v * 977 + (uint64_t)k) & (uint64_t)(size - 1));
        ticket[k] = skew_owner(el[k]) == v ? -1 : hd_request(r, A_SKEW, skew_owner(el[k]), el[k]);
    }
    hd_requests_run(r);
    const void *const *val = hd_requests_values(r);
    size_t wrong = 0;
    for (int k = 0; k < NASK; k++)
        for (size_t j = 0; ticket[k] >= 0 && j < a->elem_size; j++)
            wrong += ((const unsigned char *)val[ticket[k]])[j] != byte_of(A_SKEW, el[k], j, 1);
    note(wrong == 0, "layout: hd_requests answered wrong bytes", v, (long)wrong);
    hd_requests_free(r);
}

/* One round: the host fills its copy, scatters it, the doall checks and
 * rewrites the elements, the host gathers them; 1 when they are not the
 * rewritten ones.  The array is HD_ARRAY_HOST_STATIC and its shift, read
 * as a bit field, would be a block's: the runtime must not alias the
 * slices to the host's copy. */
static int layout_round(void)
{
    size_t bytes = arrays[A_SKEW].elem_size << arrays[A_SKEW].log2_size;
    unsigned char *want = malloc(bytes);
    hd_host_access(A_SKEW);
    fill(A_SKEW, host_skew, 0);
    hd_scatter(A_SKEW, host_skew);
    hd_doall(13, NULL, 0);
    memset(host_skew, 0xee, sizeof host_skew);
    hd_gather(A_SKEW, host_skew);
    fill(A_SKEW, want, 1);
    int wrong = memcmp(host_skew, want, bytes) != 0;
    free(want);
    return wrong;
}

static int layout_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    int failed = layout_round() | layout_round();
    if (failed)
        printf("layout: hd_gather brought back wrong bytes\n");
    return report("layout", 2 * 3) | failed * 2;
}

/* ------------------------------------- remaps between layouts (Wu 1984) */

/*
 * A_SBLK (block, its host copy static: on the threads back end its slices
 * become runs of the host's copy once scattered) goes through layouts that
 * data mappings give it (Wu 1984, Section 1.2), each change a remap:
 *   1  the block's owner o = e >> (SL - n) mapped by F1: bit t of the
 *      processor is o_t + o_{t+1} (t < n - 1; o_{n-1} for the last), XOR 5;
 *      the block's offsets;
 *   2  owner bit t = e_{SL-n+t} + e_t, offset bit t = e_t + e_{t+1} (the
 *      last offset bit alone), XOR 3: both maps change;
 *   0  the block itself (the array table's bit field).
 * The test places elements by these definitions, not by the rows it gives
 * the runtime.
 */
static uint64_t rl_owner1[SL], rl_offset1[SL], rl_owner2[SL], rl_offset2[SL];
static hd_layout_desc rl_layout1, rl_layout2;

static void describe_relayouts(void)
{
    int low = SL - n;
    for (int t = 0; t < n; t++) {
        rl_owner1[t] = (UINT64_C(1) << (low + t)) | (t + 1 < n ? UINT64_C(1) << (low + t + 1) : 0);
        rl_owner2[t] = (UINT64_C(1) << (low + t)) | (UINT64_C(1) << t);
    }
    for (int t = 0; t < low; t++) {
        rl_offset1[t] = UINT64_C(1) << t;
        rl_offset2[t] = (UINT64_C(1) << t) | (t + 1 < low ? UINT64_C(1) << (t + 1) : 0);
    }
    rl_layout1 = (hd_layout_desc){ rl_owner1, (uint64_t)(5 & (P - 1)), rl_offset1, 0 };
    rl_layout2 = (hd_layout_desc){ rl_owner2, (uint64_t)(3 & (P - 1)), rl_offset2,
                                   (uint64_t)(3 & ((1 << low) - 1)) };
}

/* Where element e lives under layout k (1, 2, or 0 for the block). */
static void rl_place(int k, hd_index e, int *owner, hd_index *offset)
{
    int low = SL - n;
    hd_index lowbits = e & (((hd_index)1 << low) - 1);
    int o = (int)(e >> low);
    if (k == 0) {
        *owner = o;
        *offset = lowbits;
    } else if (k == 1) {
        *owner = ((o ^ (o >> 1)) ^ 5) & (P - 1);
        *offset = lowbits;
    } else {
        *owner = (o ^ (int)lowbits ^ 3) & (P - 1);
        *offset = (lowbits ^ (lowbits >> 1) ^ 3) & (((hd_index)1 << low) - 1);
    }
}

typedef struct {
    int layout, round;
} rl_env;

/* Each processor checks that the element the layout puts at each of its
 * offsets holds round's bytes, and writes round + 1's. */
static void relayout_node(const void *env)
{
    const rl_env *x = env;
    int v = v_get_pid();
    int64_t *loc = hd_local(A_SBLK);
    hd_index count = (hd_index)1 << (SL - n);
    size_t bad = 0, misplaced = 0;
    for (hd_index o = 0; o < count; o++) {
        hd_index e = -1;
        for (hd_index f = 0; f < ((hd_index)1 << SL); f++) {
            int owner;
            hd_index offset;
            rl_place(x->layout, f, &owner, &offset);
            if (owner != v || offset != o)
                continue;
            misplaced += e >= 0;
            e = f;
        }
        if (e < 0) {
            misplaced++;
            continue;
        }
        bad += loc[o] != (int64_t)e * 1000 + x->round;
        loc[o] = (int64_t)e * 1000 + x->round + 1;
    }
    note(misplaced == 0, "relayout: the test's placement is not one-to-one", x->layout,
         (long)misplaced);
    note(bad == 0, "relayout: an element is not where its layout puts it", x->layout,
         (long)bad);
}

static void rl_check(int layout, int round)
{
    rl_env x = { layout, round };
    hd_doall(15, &x, sizeof x);
}

/* Does the host's copy hold round's values? */
static int rl_home(int round)
{
    int failed = 0;
    hd_gather(A_SBLK, host_sblk);
    for (int e = 0; e < (1 << SL); e++)
        failed |= host_sblk[e] != (int64_t)e * 1000 + round;
    return failed;
}

static void rl_send(int round)
{
    hd_host_access(A_SBLK);
    for (int e = 0; e < (1 << SL); e++)
        host_sblk[e] = (int64_t)e * 1000 + round;
    hd_scatter(A_SBLK, host_sblk);
}

/* Remaps that move the elements (hd_relayout: from the aliased block to
 * layout 1, to 2, back to the block), then ones that only change the
 * layout before the host sends the elements anew (hd_set_layout: to 2,
 * and to the block, whose slices are then runs of the host's copy again). */
static int relayout_main(int argc, char **argv)
{
    int failed = 0;
    (void)argc;
    (void)argv;
    rl_send(0);
    hd_relayout(A_SBLK, &rl_layout1);
    rl_check(1, 0);
    hd_relayout(A_SBLK, &rl_layout2);
    rl_check(2, 1);
    hd_relayout(A_SBLK, NULL);
    rl_check(0, 2);
    failed |= rl_home(3);
    hd_set_layout(A_SBLK, &rl_layout2);
    rl_send(4);
    rl_check(2, 4);
    failed |= rl_home(5);
    hd_set_layout(A_SBLK, NULL);
    rl_send(6);
    rl_check(0, 6);
    failed |= rl_home(7);
    if (failed)
        printf("relayout: the host does not see what the processors wrote\n");
    return report("relayout", 2 * 5) | failed * 2;
}

/* ------------------------------------------------------ main */

static const hd_node_fn doalls[] = {
    permute_node,        /* 0 */
    alltoall_node,       /* 1 */
    scatter_node,        /* 2 */
    mapping_node,        /* 3 */
    exchange_node,       /* 4 */
    nothing_node,        /* 5 */
    err_send_range_node, /* 6 */
    err_recv_range_node, /* 7 */
    err_size_node,       /* 8 */
    err_take_node,       /* 9 */
    groups_node,         /* 10 */
    requests_node,       /* 11 */
    alias_node,          /* 12 */
    layout_node,         /* 13 */
    err_request_owner_node, /* 14 */
    relayout_node,       /* 15 */
};

static const struct {
    const char *name;
    int (*main)(int, char **);
    long arg; /* default ARG */
} scenarios[] = {
    { "permute", permute_main, 0 },
    { "alltoall", alltoall_main, 16 },
    { "scatter", scatter_main, 0 },
    { "mapping", mapping_main, 0 },
    { "exchange", exchange_main, 0 },
    { "groups", groups_main, 0 },
    { "requests", requests_main, 0 },
    { "alias", alias_main, 0 },
    { "layout", layout_main, 0 },
    { "relayout", relayout_main, 0 },
    { "exit_return", exit_return_main, 3 },
    { "exit_call", exit_call_main, 3 },
    { "err_send_range", err_main, 0 },  /* doall 6 */
    { "err_recv_range", err_main, 1 },  /* doall 7 */
    { "err_size", err_main, 2 },        /* doall 8 */
    { "err_take", err_main, 3 },        /* doall 9 */
    { "err_doall_range", err_doall_range_main, 0 },
    { "err_request_owner", err_main, 8 }, /* doall 14 */
};

int main(int argc, char **argv)
{
    hd_program_desc desc;
    int s = -1;
    if (argc < 3) {
        fprintf(stderr, "usage: rt_prog SCENARIO N [MAP] [ARG]\n");
        return 64;
    }
    for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++)
        if (strcmp(argv[1], scenarios[k].name) == 0)
            s = (int)k;
    if (s < 0) {
        fprintf(stderr, "rt_prog: unknown scenario %s\n", argv[1]);
        return 64;
    }
    n = atoi(argv[2]);
    P = 1 << n;
    map_kind = argc > 3 ? atoi(argv[3]) : 0;
    arg = argc > 4 ? atol(argv[4]) : scenarios[s].arg;
    if (strncmp(argv[1], "err_", 4) == 0) {
        /* The table's ARG picks err_main's doall; err_send_range's own
         * ARG "neg" sends to -1 instead of 2^N. */
        err_doall = 6 + (int)scenarios[s].arg;
        arg = argc > 4 && strcmp(argv[4], "neg") == 0;
    }

    to_virtual = malloc(sizeof(int) * (size_t)P);
    to_physical = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        int v = map_kind ? (5 * p + 3) & (P - 1) : p;
        to_virtual[p] = v;
        to_physical[v] = p;
    }
    int L = n + 5;
    arrays[A_RESULT] = (hd_array_desc){ "result", sizeof(result), n, 0, 0 };
    arrays[A_CYC8] = (hd_array_desc){ "cyc8", 8, L, 0, 0 };         /* cyclic */
    arrays[A_BLK4] = (hd_array_desc){ "blk4", 4, L, L - n, 0 };     /* block */
    arrays[A_BC24] = (hd_array_desc){ "bc24", sizeof(elem24), L, 2, 0 }; /* block-cyclic */
    arrays[A_BC1] = (hd_array_desc){ "bc1", 1, L, 3, 0 };
    arrays[A_ZERO] = (hd_array_desc){ "zero", 8, L, 1, 0 };         /* never scattered */
    /* The host's copies are static arrays: slices may be runs of them. */
    arrays[A_SBLK] = (hd_array_desc){ "sblk", 8, SL, SL - n, HD_ARRAY_HOST_STATIC };
    arrays[A_SCYC] = (hd_array_desc){ "scyc", 8, SL, 0, HD_ARRAY_HOST_STATIC };
    arrays[A_SKEW] = (hd_array_desc){ "skew", 8, 2 * n, n, HD_ARRAY_HOST_STATIC };
    if (n <= SKEW_MAX_N)
        describe_skew();
    if (n <= SL / 2)
        describe_relayouts();
    else if (scenarios[s].main == relayout_main)
        return 64;
    else if (scenarios[s].main == layout_main)
        return 64;
    const hd_layout_desc *layouts[NARRAYS] = { [A_SKEW] = &skew_layout };

    desc.source = "rt_prog.c";
    desc.dim = n;
    desc.to_virtual = to_virtual;
    desc.to_physical = to_physical;
    desc.narrays = NARRAYS;
    desc.arrays = arrays;
    desc.ndoalls = (int)(sizeof doalls / sizeof doalls[0]);
    desc.doalls = doalls;
    desc.main = scenarios[s].main;
    desc.at_end = NULL;
    /* The layout scenario gives A_SKEW its layout; the others run it as a
     * bit field through hd_run, as translated programs do today. */
    if (scenarios[s].main == layout_main)
        return hd_run_layouts(&desc, layouts, argc, argv);
    return hd_run(&desc, argc, argv);
}
