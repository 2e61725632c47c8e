/*
 * test_omega.c — analysis/omega.c's algebra of omega-class networks (Wu
 * 1984, Chapters 2 and 5) against the pass-level simulator of
 * runtime/sim/omega.c, which follows each message through the wires and
 * switches and knows no matrices.
 *
 * Every permutation reaches the simulator as a table computed here with
 * testutil's naive algebra (or from its bit formula), never through the
 * library under test.  The simulator decides whether a set of messages
 * passes in one pass; where the algebra says two passes, its factors are
 * a certificate the simulator checks (each pass conflict-free, every line
 * delivered where P sends it), so that D = 2 is proved, not trusted.
 *
 * Two notions of a pass meet here.  Wu's D routes the whole permutation,
 * fixed points too, and its second pass relays data through an
 * intermediate processor; the simulator's greedy partition sends each
 * message directly, in one of its passes, and leaves a message to its own
 * processor at home.  They differ (the shuffle row major on 16 lines: D =
 * 2, but its moving messages pass in one), so each test says which it
 * compares.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static const hd_omega_network nets[2] = { HD_OMEGA_NET_OMEGA, HD_OMEGA_NET_BUTTERFLY };

static hd_target target_of(hd_omega_network net, int n)
{
    return net == HD_OMEGA_NET_OMEGA ? hd_target_omega(n) : hd_target_butterfly(n);
}

static const char *net_name(hd_omega_network net)
{
    return net == HD_OMEGA_NET_OMEGA ? "omega" : "butterfly";
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    assert_non_null(p);
    return p;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------ tables and passes */

/* x -> A x + b for every line, by testutil's naive algebra. */
static void agl_table(const hd_agl *p, uint32_t *t)
{
    uint64_t lines = UINT64_C(1) << p->A.n;
    for (uint64_t x = 0; x < lines; x++)
        t[x] = (uint32_t)(tu_naive_apply(&p->A, x) ^ p->b);
}

static bool is_identity(int n, const uint32_t *t)
{
    for (uint32_t x = 0; x < UINT32_C(1) << n; x++)
        if (t[x] != x)
            return false;
    return true;
}

static hd_omega_msg *table_messages(int n, const uint32_t *t)
{
    size_t lines = (size_t)1 << n;
    hd_omega_msg *m = xcalloc(lines, sizeof *m);
    for (size_t x = 0; x < lines; x++)
        m[x] = (hd_omega_msg){ (uint32_t)x, t[x] };
    return m;
}

/* The simulator routes messages in one pass without conflict. */
static bool sim_conflict_free(hd_omega_network net, int n, const hd_omega_msg *m, size_t count)
{
    hd_omega_pass p;
    assert_int_equal(hd_omega_route(net, n, m, count, &p), HD_SIM_OK);
    bool ok = p.nconflicts == 0;
    hd_omega_pass_free(&p);
    return ok;
}

/* The whole permutation (all 2^n lines, fixed points too: Wu's network
 * realises P as one setting of its switches) in one pass. */
static bool sim_one_pass(hd_omega_network net, int n, const uint32_t *t)
{
    hd_omega_msg *m = table_messages(n, t);
    bool ok = sim_conflict_free(net, n, m, (size_t)1 << n);
    free(m);
    return ok;
}

/* hd_two_pass's factors of p through the simulator: both passes
 * conflict-free and second after first equal to t on every line. */
static bool sim_factors_ok(hd_omega_network net, const hd_agl *p, const uint32_t *t)
{
    int n = p->A.n;
    hd_target tg = target_of(net, n);
    hd_agl f, s;
    if (hd_two_pass(&tg, p, &f, &s) != HD_OK)
        return false;
    size_t lines = (size_t)1 << n;
    uint32_t *tf = xcalloc(lines, sizeof *tf), *ts = xcalloc(lines, sizeof *ts);
    agl_table(&f, tf);
    agl_table(&s, ts);
    hd_omega_factors r;
    assert_int_equal(hd_omega_run_factors(net, n, tf, ts, t, &r), HD_SIM_OK);
    bool ok = r.ok;
    hd_omega_factors_free(&r);
    free(tf);
    free(ts);
    return ok;
}

/* D by the simulator: 0 for the identity, 1 when it routes P in one pass,
 * else 2 when it confirms the two-pass certificate; -1 when it cannot. */
static int sim_passes(hd_omega_network net, const hd_agl *p, const uint32_t *t)
{
    int n = p->A.n;
    if (is_identity(n, t))
        return 0;
    if (sim_one_pass(net, n, t))
        return 1;
    return sim_factors_ok(net, p, t) ? 2 : -1;
}

/* --------------------------------------------- enumerating AGL(n, 2) */

static hd_matrix matrix_from_code(int n, uint64_t code)
{
    hd_matrix a = hd_matrix_zero(n);
    for (int i = 0; i < n; i++)
        a.row[i] = (code >> (i * n)) & ((UINT64_C(1) << n) - 1);
    return a;
}

static bool nonsingular(const hd_matrix *a)
{
    uint64_t all = (UINT64_C(1) << a->n) - 1;
    return tu_gauss_rank_sub(a, all, all) == a->n;
}

typedef void (*agl_fn)(const hd_agl *p, void *ctx);

/* Every x -> A x + b with A nonsingular (by testutil's elimination);
 * returns how many nonsingular A there are. */
static uint64_t for_each_agl(int n, agl_fn fn, void *ctx)
{
    uint64_t count = 0;
    for (uint64_t code = 0; code < UINT64_C(1) << (n * n); code++) {
        hd_agl p = { matrix_from_code(n, code), 0 };
        if (!nonsingular(&p.A))
            continue;
        count++;
        for (uint64_t b = 0; fn && b < UINT64_C(1) << n; b++) {
            p.b = b;
            fn(&p, ctx);
        }
    }
    return count;
}

/* -------------------------- the one-pass test against the simulator */

typedef struct {
    long checked;
    long one_pass[2];        /* per network: D <= 1 by the simulator */
} one_pass_ctx;

static void check_one_pass(const hd_agl *p, void *vctx)
{
    one_pass_ctx *ctx = vctx;
    int n = p->A.n;
    uint32_t t[16];
    agl_table(p, t);
    tu_case(ctx->checked++, NULL, 0, NULL);
    for (int k = 0; k < 2; k++) {
        hd_target tg = target_of(nets[k], n);
        int d = hd_passes(&tg, p);
        bool sim = sim_one_pass(nets[k], n, t);
        TU_CHECK(d >= 0, "hd_passes failed on an element of AGL(%d, 2)", n);
        TU_CHECK((d <= 1) == sim, "%s, n = %d: hd_passes = %d, the simulator %s one pass",
                 net_name(nets[k]), n, d, sim ? "routes it in" : "cannot route it in");
        TU_CHECK((d == 0) == is_identity(n, t), "%s: D = 0 exactly for the identity",
                 net_name(nets[k]));
        ctx->one_pass[k] += sim;
    }
}

/* Corollary 2.1 in Hyperdo's bit order (U L for the omega network, L U
 * for the butterfly) on every element of AGL(n, 2), n = 1 .. 4; and the
 * one-pass elements number 2^(n^2) on both networks (Wu 1984, Theorem
 * A.1 with F = I: 2^((n^2-n)/2) U's times 2^((n^2+n)/2) L's of the
 * augmented matrices). */
static void test_one_pass_all_agl(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        one_pass_ctx ctx = { 0, { 0, 0 } };
        for_each_agl(n, check_one_pass, &ctx);
        for (int k = 0; k < 2; k++)
            TU_CHECK_EQ(ctx.one_pass[k], UINT64_C(1) << (n * n), net_name(nets[k]));
    }
    tu_case(-1, NULL, 0, NULL);
}

/* ------------------------------------------- the two-pass factors */

typedef struct {
    long checked;
} factors_ctx;

static void check_factors(const hd_agl *p, void *vctx)
{
    factors_ctx *ctx = vctx;
    uint32_t t[16];
    agl_table(p, t);
    tu_case(ctx->checked++, NULL, 0, NULL);
    for (int k = 0; k < 2; k++)
        TU_CHECK(sim_factors_ok(nets[k], p, t),
                 "%s: hd_two_pass's factors fail in the simulator", net_name(nets[k]));
}

/* Both passes of hd_two_pass conflict-free and their composition P, on
 * all of AGL(4, 2). */
static void test_two_pass_all_agl4(void **state)
{
    (void)state;
    factors_ctx ctx = { 0 };
    uint64_t gl = for_each_agl(4, check_factors, &ctx);
    TU_CHECK_EQ(ctx.checked, gl * 16, "elements of AGL(4, 2) checked");
    tu_case(-1, NULL, 0, NULL);
}

/* The same on random elements of AGL(n, 2) up to n = 16 (65536 lines). */
static void test_two_pass_random(void **state)
{
    (void)state;
    tu_rng_init("two_pass_random");
    long index = 0;
    for (int n = 5; n <= 16; n++) {
        long cases = tu_cases(n <= 10 ? 40 : 6);
        size_t lines = (size_t)1 << n;
        uint32_t *t = xcalloc(lines, sizeof *t);
        for (long c = 0; c < cases; c++) {
            hd_lcc shown = { HD_GATHER, tu_random_nonsingular(n), tu_bits(n) };
            hd_agl p = { shown.A, shown.b };
            tu_case(index++, &shown, 1, NULL);
            agl_table(&p, t);
            for (int k = 0; k < 2; k++) {
                hd_target tg = target_of(nets[k], n);
                int d = hd_passes(&tg, &p);
                bool one = sim_one_pass(nets[k], n, t);
                TU_CHECK((d <= 1) == one, "%s, n = %d: D = %d against the simulator",
                         net_name(nets[k]), n, d);
                TU_CHECK(sim_factors_ok(nets[k], &p, t), "%s, n = %d: factors fail",
                         net_name(nets[k]), n);
            }
        }
        free(t);
    }
    tu_case(-1, NULL, 0, NULL);
}

/* ------------------------------------------------------ Lemma 5.1 */

static uint32_t reverse_bits(uint32_t x, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++)
        r |= ((x >> i) & 1) << (n - 1 - i);
    return r;
}

/* D_butterfly(R P R) = D_omega(P), both by the simulator: R P R's table
 * is P's with its lines' bits reversed on both sides, and its matrix
 * (for the two-pass certificate) the naive product. */
static void check_lemma_5_1(const hd_agl *p, void *vctx)
{
    long *checked = vctx;
    int n = p->A.n;
    size_t lines = (size_t)1 << n;
    uint32_t *t = xcalloc(lines, sizeof *t), *rt = xcalloc(lines, sizeof *rt);
    agl_table(p, t);
    for (uint32_t x = 0; x < lines; x++)
        rt[reverse_bits(x, n)] = reverse_bits(t[x], n);
    hd_matrix r = hd_matrix_zero(n);
    for (int i = 0; i < n; i++)
        r.row[i] = UINT64_C(1) << (n - 1 - i);
    hd_matrix ra = tu_naive_mul(&r, &p->A);
    hd_agl rpr = { tu_naive_mul(&ra, &r), tu_naive_apply(&r, p->b) };
    tu_case((*checked)++, NULL, 0, NULL);
    int d_omega = sim_passes(HD_OMEGA_NET_OMEGA, p, t);
    int d_butterfly = sim_passes(HD_OMEGA_NET_BUTTERFLY, &rpr, rt);
    TU_CHECK(d_omega >= 0 && d_omega == d_butterfly,
             "n = %d: D_omega(P) = %d, D_butterfly(R P R) = %d", n, d_omega, d_butterfly);
    free(t);
    free(rt);
}

static void test_lemma_5_1(void **state)
{
    (void)state;
    long checked = 0;
    for (int n = 1; n <= 3; n++)
        for_each_agl(n, check_lemma_5_1, &checked);
    tu_rng_init("lemma_5_1");
    for (int n = 4; n <= 16; n++)
        for (long c = tu_cases(n <= 10 ? 20 : 3); c > 0; c--) {
            hd_agl p = { tu_random_nonsingular(n), tu_bits(n) };
            /* Half of them one-pass on the omega network: A = U L. */
            if (tu_chance(1, 2)) {
                hd_matrix u = hd_matrix_identity(n), l = hd_matrix_identity(n);
                for (int i = 0; i < n; i++) {
                    u.row[i] |= tu_bits(n) & ~((UINT64_C(2) << i) - 1);
                    l.row[i] |= tu_bits(n) & ((UINT64_C(1) << i) - 1);
                }
                p.A = tu_naive_mul(&u, &l);
            }
            check_lemma_5_1(&p, &checked);
        }
    tu_case(-1, NULL, 0, NULL);
}

/* ---------------------------------------------- Section 2's counts */

/* Lemma 2.4: prod_{i=0}^{n-1} (2^n - 2^i) nonsingular n x n matrices. */
static void test_lemma_2_4(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        uint64_t formula = 1;
        for (int i = 0; i < n; i++)
            formula *= (UINT64_C(1) << n) - (UINT64_C(1) << i);
        TU_CHECK_EQ(for_each_agl(n, NULL, NULL), formula, "Lemma 2.4");
    }
}

/* The rank of a square 0/1 array of side m <= 5, by elimination. */
static int array_rank(int m, int a[5][5])
{
    int rank = 0;
    for (int c = 0; c < m && rank < m; c++) {
        int piv = -1;
        for (int r = rank; r < m && piv < 0; r++)
            if (a[r][c])
                piv = r;
        if (piv < 0)
            continue;
        for (int j = 0; j < m; j++) {
            int t = a[piv][j];
            a[piv][j] = a[rank][j];
            a[rank][j] = t;
        }
        for (int r = 0; r < m; r++)
            if (r != rank && a[r][c])
                for (int j = 0; j < m; j++)
                    a[r][j] ^= a[rank][j];
        rank++;
    }
    return rank;
}

typedef struct {
    uint64_t *keys;
    size_t count;
} table_set;

/* The permutation's table packed into one key (n <= 4: 16 nibbles). */
static void collect_table(const hd_agl *p, void *vctx)
{
    table_set *s = vctx;
    uint32_t t[16];
    agl_table(p, t);
    uint64_t key = 0;
    for (int x = 0; x < 1 << p->A.n; x++)
        key |= (uint64_t)t[x] << (4 * x);
    s->keys[s->count++] = key;
}

/* Lemma 2.5: |Delta| = prod_{i=1}^{n} (2^(n+1) - 2^i), counted as Wu
 * does, the nonsingular (n+1) x (n+1) matrices whose first row is
 * [1 0 ... 0] (Section 2.3, thesis order), and as the distinct
 * permutations x -> A x + b of 2^n lines. */
static void test_lemma_2_5(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        int m = n + 1;
        uint64_t formula = 1;
        for (int i = 1; i <= n; i++)
            formula *= (UINT64_C(1) << (n + 1)) - (UINT64_C(1) << i);
        uint64_t augmented = 0;
        for (uint64_t code = 0; code < UINT64_C(1) << (n * m); code++) {
            int a[5][5] = { { 0 } };
            a[0][0] = 1;
            for (int i = 1; i < m; i++)
                for (int j = 0; j < m; j++)
                    a[i][j] = (int)((code >> ((i - 1) * m + j)) & 1);
            augmented += array_rank(m, a) == m;
        }
        TU_CHECK_EQ(augmented, formula, "Lemma 2.5, augmented matrices");
        uint64_t gl = for_each_agl(n, NULL, NULL);
        table_set s = { xcalloc(gl << n, sizeof *s.keys), 0 };
        for_each_agl(n, collect_table, &s);
        qsort(s.keys, s.count, sizeof *s.keys, compare_u64);
        size_t distinct = 0;
        for (size_t k = 0; k < s.count; k++)
            distinct += k == 0 || s.keys[k] != s.keys[k - 1];
        TU_CHECK_EQ(distinct, formula, "Lemma 2.5, distinct permutations");
        free(s.keys);
    }
}

/* Next permutation in lexicographic order; false after the last. */
static bool next_permutation(uint32_t *a, int len)
{
    int i = len - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = len - 1;
    while (a[j] <= a[i])
        j--;
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = len - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return true;
}

/* Chapter 1 and Section 2.1: of the N! permutations, sqrt(N^N) =
 * 2^(nN/2) pass the omega network in one pass (one for each setting of
 * its n N/2 switches); every permutation of N = 2, 4, 8 routed through
 * the simulator, on both networks (the butterfly's are R Omega R:
 * Chapter 5). */
static void test_admissible_count(void **state)
{
    (void)state;
    for (int n = 1; n <= 3; n++) {
        int lines = 1 << n;
        uint32_t t[8];
        for (int x = 0; x < lines; x++)
            t[x] = (uint32_t)x;
        uint64_t all = 0, admissible[2] = { 0, 0 };
        do {
            all++;
            for (int k = 0; k < 2; k++)
                admissible[k] += sim_one_pass(nets[k], n, t);
        } while (next_permutation(t, lines));
        uint64_t factorial = 1;
        for (int k = 2; k <= lines; k++)
            factorial *= (uint64_t)k;
        TU_CHECK_EQ(all, factorial, "permutations enumerated");
        for (int k = 0; k < 2; k++)
            TU_CHECK_EQ(admissible[k], UINT64_C(1) << (n * lines / 2), net_name(nets[k]));
    }
}

/* ---------------------------------------------------------- Table I */

/* Table I's permutations as Wu prints them, y = (y_{n-1} .. y_0): src[i]
 * is the bit of x that y_i copies (n even); vector reversal copies x and
 * complements every bit.  Table I swaps the names of the perfect shuffle
 * and the unshuffle relative to Definition 2.1 (PSP: cyclic shift left,
 * P_s(x) = (x_{n-2} .. x_0 x_{n-1})); these follow Definition 2.1. */
typedef enum {
    TRANSPOSE, BIT_REVERSAL, VECTOR_REVERSAL, SHUFFLE, UNSHUFFLE,
    SHUFFLE_ROW_MAJOR, BIT_SHUFFLE, TABLE_I_COUNT
} table_i;

static const char *const table_i_names[] = {
    "matrix transpose", "bit reversal", "vector reversal", "perfect shuffle",
    "unshuffle", "shuffle row major", "bit shuffle",
};

static int table_i_source_bit(table_i which, int n, int i)
{
    int h = n / 2;
    switch (which) {
    case TRANSPOSE:            /* (x_{h-1} .. x_0, x_{n-1} .. x_h) */
        return (i + h) % n;
    case BIT_REVERSAL:         /* (x_0, x_1, .., x_{n-1}) */
        return n - 1 - i;
    case SHUFFLE:              /* Definition 2.1: (x_{n-2} .. x_0, x_{n-1}) */
        return (i + n - 1) % n;
    case UNSHUFFLE:            /* its inverse: (x_0, x_{n-1}, .., x_1) */
        return (i + 1) % n;
    case SHUFFLE_ROW_MAJOR:    /* (x_{n-1}, x_{h-1}, x_{n-2}, x_{h-2}, .., x_h, x_0) */
        return i % 2 ? h + i / 2 : i / 2;
    case BIT_SHUFFLE:          /* (x_{n-1}, x_{n-3}, .., x_1, x_{n-2}, .., x_0) */
        return i >= h ? 2 * (i - h) + 1 : 2 * i;
    case VECTOR_REVERSAL:
    default:
        return i;
    }
}

/* The permutation on the lines, bit by bit from the formula. */
static uint32_t table_i_apply(table_i which, int n, uint32_t x)
{
    uint32_t y = 0;
    for (int i = 0; i < n; i++)
        y |= ((x >> table_i_source_bit(which, n, i)) & 1) << i;
    return which == VECTOR_REVERSAL ? y ^ ((UINT32_C(1) << n) - 1) : y;
}

/* The same as an element of AGL(n, 2): row i of A has its 1 in the column
 * of the bit y_i copies. */
static hd_agl table_i_agl(table_i which, int n)
{
    hd_agl p = { hd_matrix_zero(n), 0 };
    for (int i = 0; i < n; i++)
        p.A.row[i] = UINT64_C(1) << table_i_source_bit(which, n, i);
    if (which == VECTOR_REVERSAL)
        p.b = (UINT64_C(1) << n) - 1;
    return p;
}

/* Table I's permutations at n = 4, 6, 8 on both networks: D by the
 * simulator (one pass or not, and the two-pass certificate) equals
 * hd_passes.  docs/simulator.md lists the values. */
static void test_table_i(void **state)
{
    (void)state;
    for (int n = 4; n <= 8; n += 2) {
        size_t lines = (size_t)1 << n;
        uint32_t *t = xcalloc(lines, sizeof *t);
        for (int w = 0; w < TABLE_I_COUNT; w++) {
            for (uint32_t x = 0; x < lines; x++)
                t[x] = table_i_apply((table_i)w, n, x);
            hd_agl p = table_i_agl((table_i)w, n);
            for (int k = 0; k < 2; k++) {
                hd_target tg = target_of(nets[k], n);
                int sim = sim_passes(nets[k], &p, t), alg = hd_passes(&tg, &p);
                TU_CHECK(sim >= 0 && sim == alg, "%s, %s, n = %d: simulator %d, hd_passes %d",
                         table_i_names[w], net_name(nets[k]), n, sim, alg);
            }
        }
        free(t);
    }
}

/* ------------------------------------------------ the simulator alone */

/* Destination-tag routing delivers: after the last stage every message
 * is on its destination line, after stage s it has s of its destination
 * bits (Wu 1984, Section 2.1: stage i changes bit i only). */
static void test_paths(void **state)
{
    (void)state;
    tu_rng_init("paths");
    for (int n = 1; n <= 16; n++)
        for (long c = tu_cases(200); c > 0; c--) {
            uint32_t src = (uint32_t)tu_bits(n), dst = (uint32_t)tu_bits(n);
            for (int k = 0; k < 2; k++) {
                uint32_t set = 0;    /* the bits set so far */
                for (int s = 0; s <= n; s++) {
                    if (s > 0)
                        set |= UINT32_C(1) << hd_omega_stage_bit(nets[k], n, s);
                    uint32_t at = hd_omega_line(nets[k], n, src, dst, s);
                    if (nets[k] == HD_OMEGA_NET_BUTTERFLY) {
                        TU_CHECK_EQ(at, (dst & set) | (src & ~set), "butterfly line");
                    } else {
                        /* Omega: the line is the source's low n - s bits
                         * above the destination's top s bits. */
                        uint64_t want = ((uint64_t)src << s | dst >> (n - s)) &
                                        ((UINT64_C(1) << n) - 1);
                        TU_CHECK_EQ(at, want, "omega line");
                    }
                }
                TU_CHECK_EQ(hd_omega_line(nets[k], n, src, dst, n), dst, "delivered");
            }
        }
}

/* Conflicts are reported where they happen: two messages from one
 * source (stage 0), two to one destination (the last stage), and the
 * settings of a conflict-free pass are those of destination tags. */
static void test_conflict_places(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        int n = 3;
        hd_omega_msg same_src[2] = { { 5, 1 }, { 5, 6 } };
        hd_omega_pass p;
        assert_int_equal(hd_omega_route(nets[k], n, same_src, 2, &p), HD_SIM_OK);
        assert_true(p.nconflicts >= 1);
        assert_int_equal(p.conflict[0].stage, 0);
        assert_int_equal(p.conflict[0].kind, HD_OMEGA_SHARED_INPUT);
        assert_int_equal(p.conflict[0].where, 5);
        hd_omega_pass_free(&p);
        hd_omega_msg same_dst[2] = { { 0, 7 }, { 6, 7 } };
        assert_int_equal(hd_omega_route(nets[k], n, same_dst, 2, &p), HD_SIM_OK);
        assert_true(p.nconflicts >= 1);
        assert_int_equal(p.outputs[n], 1);
        assert_int_equal(p.outputs[0], 0);
        hd_omega_pass_free(&p);
        /* The identity sets every switch direct on both networks (on
         * the omega network the port a message enters by is the bit of
         * its line that the stage sets: n shuffles rotate it home). */
        uint32_t t[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
        hd_omega_msg *m = table_messages(n, t);
        assert_int_equal(hd_omega_route(nets[k], n, m, 8, &p), HD_SIM_OK);
        assert_int_equal(p.nconflicts, 0);
        for (size_t j = 0; j < (size_t)n * 4; j++)
            assert_int_equal(p.setting[j], HD_SW_DIRECT);
        hd_omega_pass_free(&p);
        free(m);
    }
    hd_omega_pass p;
    hd_omega_msg bad = { 8, 0 };
    assert_int_equal(hd_omega_route(HD_OMEGA_NET_OMEGA, 3, &bad, 1, &p), HD_SIM_EINVAL);
    assert_int_equal(hd_omega_route(HD_OMEGA_NET_OMEGA, HD_OMEGA_MAX_DIM + 1, NULL, 0, &p),
                     HD_SIM_EINVAL);
}

/* The greedy partition: every pass conflict-free, local messages in no
 * pass, and no fewer passes than the most messages any line carries.  A
 * pass is checked by routing it again when that is cheap, and always by
 * sorting the (pass, line) pairs of each stage: no pair twice. */
static uint32_t check_partition(hd_omega_network net, int n, const hd_omega_msg *m,
                                size_t count)
{
    uint32_t *pass = xcalloc(count, sizeof *pass), passes = 0;
    assert_int_equal(hd_omega_partition(net, n, m, count, pass, &passes), HD_SIM_OK);
    hd_omega_msg *sub = xcalloc(count, sizeof *sub);
    for (uint32_t q = 0; (uint64_t)passes << n <= UINT64_C(1) << 20 && q < passes; q++) {
        size_t len = 0;
        for (size_t i = 0; i < count; i++)
            if (pass[i] == q)
                sub[len++] = m[i];
        TU_CHECK(len > 0, "pass %u of %u is empty", q, passes);
        TU_CHECK(sim_conflict_free(net, n, sub, len), "pass %u has a conflict", q);
    }
    uint64_t *key = xcalloc(count, sizeof *key);
    for (int s = 0; s <= n; s++) {
        size_t len = 0;
        for (size_t i = 0; i < count; i++)
            if (pass[i] != HD_OMEGA_LOCAL) {
                TU_CHECK(pass[i] < passes, "message %zu in pass %u of %u", i, pass[i], passes);
                key[len++] = (uint64_t)pass[i] << 32 | hd_omega_line(net, n, m[i].src, m[i].dst, s);
            }
        qsort(key, len, sizeof *key, compare_u64);
        for (size_t i = 1; i < len; i++)
            TU_CHECK(key[i] != key[i - 1], "pass %u: two messages on line %u after stage %d",
                     (unsigned)(key[i] >> 32), (unsigned)key[i], s);
    }
    free(key);
    for (size_t i = 0; i < count; i++)
        TU_CHECK((pass[i] == HD_OMEGA_LOCAL) == (m[i].src == m[i].dst),
                 "message %zu: local iff src == dst", i);
    /* The most non-local messages one line carries at one stage. */
    uint32_t *load = xcalloc((size_t)1 << n, sizeof *load), most = 0;
    for (int s = 0; s <= n; s++) {
        memset(load, 0, sizeof *load << n);
        for (size_t i = 0; i < count; i++)
            if (m[i].src != m[i].dst) {
                uint32_t l = hd_omega_line(net, n, m[i].src, m[i].dst, s);
                if (++load[l] > most)
                    most = load[l];
            }
    }
    TU_CHECK(passes >= most, "%u passes, a line carries %u", passes, most);
    free(load);
    free(sub);
    free(pass);
    return passes;
}

static void test_partition(void **state)
{
    (void)state;
    tu_rng_init("partition");
    for (int n = 1; n <= 10; n++)
        for (long c = tu_cases(10); c > 0; c--) {
            size_t count = (size_t)tu_below((UINT64_C(4) << n) + 1);
            hd_omega_msg *m = xcalloc(count, sizeof *m);
            for (size_t i = 0; i < count; i++)
                m[i] = (hd_omega_msg){ (uint32_t)tu_bits(n), (uint32_t)tu_bits(n) };
            for (int k = 0; k < 2; k++)
                check_partition(nets[k], n, m, count);
            free(m);
        }
    /* Everything to one line: 2^n - 1 passes (line 0 is local). */
    int n = 16;
    size_t lines = (size_t)1 << n;
    hd_omega_msg *m = xcalloc(lines, sizeof *m);
    for (size_t x = 0; x < lines; x++)
        m[x] = (hd_omega_msg){ (uint32_t)x, 0 };
    for (int k = 0; k < 2; k++)
        TU_CHECK_EQ(check_partition(nets[k], n, m, lines), lines - 1, "all to one");
    free(m);
}

/* ----------------------------------- the price of a non-permutation */

/* The fewest passes a set of at most 16 messages needs: the chromatic
 * number of its conflict graph, where two messages clash when the
 * simulator cannot route the pair in one pass (a pass is conflict-free
 * exactly when no two of its messages clash: every conflict the
 * simulator reports is between two messages).  Local messages need no
 * pass.  By inclusion and exclusion (the graph is k-colourable iff
 * sum over S of (-1)^(|V|-|S|) ind(S)^k > 0, ind(S) the independent sets
 * within S), modulo a prime, the sum being a count of covers. */
#define PRIME UINT64_C(2305843009213693951)   /* 2^61 - 1 */

static uint64_t mulmod(uint64_t a, uint64_t b)
{
    return (uint64_t)((unsigned __int128)a * b % PRIME);
}

static int fewest_passes(hd_omega_network net, int n, const hd_omega_msg *m, size_t count)
{
    hd_omega_msg v[16];
    int k = 0;
    for (size_t i = 0; i < count; i++)
        if (m[i].src != m[i].dst) {
            assert_true(k < 16);
            v[k++] = m[i];
        }
    uint32_t adj[16] = { 0 };
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            hd_omega_msg pair[2] = { v[a], v[b] };
            if (!sim_conflict_free(net, n, pair, 2)) {
                adj[a] |= UINT32_C(1) << b;
                adj[b] |= UINT32_C(1) << a;
            }
        }
    size_t sets = (size_t)1 << k;
    uint64_t *ind = xcalloc(sets, sizeof *ind), *power = xcalloc(sets, sizeof *power);
    ind[0] = 1;
    for (size_t S = 1; S < sets; S++) {
        int low = __builtin_ctzll(S);
        ind[S] = ind[S & (S - 1)] + ind[S & ~adj[low] & ~((size_t)1 << low)];
    }
    for (size_t S = 0; S < sets; S++)
        power[S] = 1;
    int colours = 0;
    for (bool done = k == 0; !done;) {
        colours++;
        uint64_t sum = 0;
        for (size_t S = 0; S < sets; S++) {
            power[S] = mulmod(power[S], ind[S] % PRIME);
            bool minus = (k - __builtin_popcountll(S)) & 1;
            sum = (sum + (minus ? PRIME - power[S] : power[S])) % PRIME;
        }
        done = sum != 0;
    }
    free(ind);
    free(power);
    return colours;
}

/* The most messages, not local, that one processor sends or receives: no
 * schedule does with fewer passes, relayed or not (a processor's input
 * and output lines carry one message per pass). */
static uint32_t busiest_processor(int n, const hd_omega_msg *m, size_t count)
{
    uint32_t *out = xcalloc((size_t)1 << n, sizeof *out), *in = xcalloc((size_t)1 << n, sizeof *in);
    uint32_t most = 0;
    for (size_t i = 0; i < count; i++)
        if (m[i].src != m[i].dst) {
            if (++out[m[i].src] > most)
                most = out[m[i].src];
            if (++in[m[i].dst] > most)
                most = in[m[i].dst];
        }
    free(out);
    free(in);
    return most;
}

static hd_omega_msg *lcc_messages(const hd_lcc *c)
{
    int n = c->A.n;
    size_t lines = (size_t)1 << n;
    uint64_t *src = xcalloc(lines, sizeof *src), *dst = xcalloc(lines, sizeof *dst);
    tu_messages(c, src, dst);
    hd_omega_msg *m = xcalloc(lines, sizeof *m);
    for (size_t t = 0; t < lines; t++)
        m[t] = (hd_omega_msg){ (uint32_t)src[t], (uint32_t)dst[t] };
    free(src);
    free(dst);
    return m;
}

/* A completed to a nonsingular matrix: its columns off S kept, each
 * column on S the first unit vector that raises the rank (testutil's
 * elimination).  Any completion will do: a class is the restriction of
 * x -> M x + b_c for every one of them. */
static hd_matrix my_completion(const hd_matrix *A, uint64_t S)
{
    int n = A->n;
    uint64_t all = (UINT64_C(1) << n) - 1, cols = all & ~S;
    hd_matrix m = *A;
    for (int i = 0; i < n; i++)
        m.row[i] &= ~S;
    for (int j = 0; j < n; j++) {
        if (!(S >> j & 1))
            continue;
        int before = tu_gauss_rank_sub(&m, all, cols);
        for (int v = 0; v < n; v++) {
            hd_matrix t = m;
            t.row[v] |= UINT64_C(1) << j;
            if (tu_gauss_rank_sub(&t, all, cols | UINT64_C(1) << j) == before + 1) {
                m = t;
                break;
            }
        }
        cols |= UINT64_C(1) << j;
    }
    TU_CHECK(tu_gauss_rank_sub(&m, all, all) == n, "no completion of A");
    return m;
}

/* A class in two passes with relays, as the schedule prices a class of
 * D(M) = 2: the element of AGL(n, 2) the class's data move by (from a
 * completion), its two factors by hd_two_pass, each pass routing the
 * class's messages only, through the simulator. */
static bool class_in_two_passes(hd_omega_network net, const hd_lcc *c, uint64_t S,
                                const hd_omega_msg *sub, size_t len)
{
    int n = c->A.n;
    hd_matrix M = my_completion(&c->A, S);
    /* The class's numbers t share t_S, so M t + b_c = A t + b with b_c
     * fixed by one message: t is a gather's source, a scatter's
     * destination. */
    uint64_t t0 = c->dir == HD_GATHER ? sub[0].src : sub[0].dst;
    uint64_t image0 = c->dir == HD_GATHER ? sub[0].dst : sub[0].src;
    hd_agl q = { M, image0 ^ tu_naive_apply(&M, t0) };
    if (c->dir == HD_SCATTER)
        assert_true(hd_agl_inverse(&q, &q));       /* the data move the other way */
    hd_target tg = target_of(net, n);
    hd_agl f, s;
    assert_int_equal(hd_two_pass(&tg, &q, &f, &s), HD_OK);
    hd_omega_msg *hop = xcalloc(len, sizeof *hop);
    bool ok = true;
    for (size_t i = 0; i < len; i++)
        hop[i] = (hd_omega_msg){ sub[i].src, (uint32_t)(tu_naive_apply(&f.A, sub[i].src) ^ f.b) };
    ok &= sim_conflict_free(net, n, hop, len);
    for (size_t i = 0; i < len; i++) {
        uint32_t mid = hop[i].dst;
        hop[i] = (hd_omega_msg){ mid, (uint32_t)(tu_naive_apply(&s.A, mid) ^ s.b) };
        ok &= hop[i].dst == sub[i].dst;
    }
    ok &= sim_conflict_free(net, n, hop, len);
    free(hop);
    return ok;
}

/* What hd_omega_price_lcc says of an LCG or LCS against the simulator.
 * Its schedule (analysis.h, omega.c): the messages split into 2^(n-r)
 * classes by the values of the kernel coordinates S of the message's
 * number t (a gather's source, a scatter's destination); each class is
 * a partial permutation, the restriction of one completion M of A (its
 * columns on S chosen) translated; a class costs D(M) passes (two with
 * relays through intermediate processors), or when M = I one pass for
 * its translation, none when that is zero. */
static void check_price(hd_omega_network net, const hd_lcc *c, int rank)
{
    int n = c->A.n;
    size_t lines = (size_t)1 << n;
    hd_target tg = target_of(net, n);
    hd_omega_price price;
    assert_int_equal(hd_omega_price_lcc(&tg, c, &price), HD_OK);
    TU_CHECK(!price.permutation, "rank %d < n = %d", rank, n);
    /* n <= 8 here: the counts fit an int. */
    int passes = (int)price.passes, lower = (int)price.lower;
    hd_omega_msg *m = lcc_messages(c);
    uint32_t busiest = busiest_processor(n, m, lines);
    TU_CHECK_EQ(price.lower, busiest, "the lower bound: the busiest processor's messages");
    TU_CHECK(passes >= lower, "%s: schedule of %d passes below the bound %d",
             net_name(net), passes, lower);
    /* The classes. */
    hd_space kernel = hd_null_space(c->A.row, n, n);
    uint64_t S = hd_space_leads(&kernel);
    TU_CHECK_EQ(__builtin_popcountll(S), n - rank, "kernel coordinates");
    int classes = 1 << (n - rank), moving = 0, one_pass = 0, two_pass = 0;
    bool translations = true;
    hd_omega_msg *sub = xcalloc(lines, sizeof *sub);
    for (uint64_t cls = S;; cls = (cls - 1) & S) {
        size_t len = 0;
        for (size_t t = 0; t < lines; t++)
            if ((t & S) == cls)
                sub[len++] = m[t];
        TU_CHECK_EQ(len, lines >> (n - rank), "class size");
        hd_omega_pass p;
        assert_int_equal(hd_omega_route(net, n, sub, len, &p), HD_SIM_OK);
        TU_CHECK(p.outputs[0] == 0 && p.outputs[n] == 0,
                 "%s: class %llu is no partial permutation", net_name(net),
                 (unsigned long long)cls);
        one_pass += p.nconflicts == 0;
        hd_omega_pass_free(&p);
        two_pass += class_in_two_passes(net, c, S, sub, len);
        uint32_t shift = sub[0].src ^ sub[0].dst;
        for (size_t i = 0; i < len; i++)
            translations &= (sub[i].src ^ sub[i].dst) == shift;
        moving += shift != 0;
        if (!cls)
            break;
    }
    TU_CHECK_EQ(two_pass, classes, "classes routed in two passes with relays");
    if (passes < classes) {
        /* M = I: every class a translation, one pass each unless zero. */
        TU_CHECK(translations, "%s: %d passes for %d classes, not all translations",
                 net_name(net), passes, classes);
        TU_CHECK_EQ(passes, moving, "classes that move");
    } else {
        TU_CHECK(passes == classes || passes == 2 * classes,
                 "%s: %d passes for %d classes", net_name(net), passes, classes);
        /* Whether a class passes in one pass depends on A and S only
         * (two messages of a class differ by d with d_S = 0, where every
         * completion is A), so the schedule's one pass per class is
         * there exactly when the simulator routes every class in one. */
        TU_CHECK((passes == classes) == (one_pass == classes),
                 "%s: %d passes for %d classes, %d of them one pass in the simulator",
                 net_name(net), passes, classes, one_pass);
    }
    uint32_t *pass = xcalloc(lines, sizeof *pass), greedy = 0;
    assert_int_equal(hd_omega_partition(net, n, m, lines, pass, &greedy), HD_SIM_OK);
    TU_CHECK(greedy >= busiest, "greedy %u below the busiest processor's %u", greedy, busiest);
    if (n <= 4) {
        int fewest = fewest_passes(net, n, m, lines);
        TU_CHECK(fewest <= (int)greedy && fewest >= (int)busiest,
                 "%s: fewest %d, greedy %u, busiest %u", net_name(net), fewest, greedy, busiest);
    }
    free(pass);
    free(sub);
    free(m);
}

static void test_price_non_permutation(void **state)
{
    (void)state;
    tu_rng_init("price_non_permutation");
    long index = 0;
    /* Everything to processor 0 (a gather of A = 0): 2^n - 1 passes, the
     * message of processor 0 staying home; the same from processor 1 (a
     * scatter of A = 0, b = 1). */
    for (int n = 1; n <= 6; n++)
        for (int dir = 0; dir < 2; dir++) {
            hd_lcc c = { dir ? HD_SCATTER : HD_GATHER, hd_matrix_zero(n), (uint64_t)dir };
            tu_case(index++, &c, 1, NULL);
            for (int w = 0; w < 2; w++) {
                hd_target tg = target_of(nets[w], n);
                hd_omega_price price;
                assert_int_equal(hd_omega_price_lcc(&tg, &c, &price), HD_OK);
                TU_CHECK_EQ(price.lower, (1 << n) - 1, "lower bound");
                check_price(nets[w], &c, 0);
            }
        }
    for (int n = 1; n <= 8; n++)
        for (long k = tu_cases(n <= 4 ? 150 : 40); k > 0; k--) {
            int rank;
            hd_lcc c = tu_random_lcc(tu_chance(1, 2) ? TU_LCG : TU_LCS, n, &rank);
            /* Now and then an idempotent map (a projection), where every
             * image point is its own source. */
            if (tu_chance(1, 8)) {
                c.A = hd_matrix_zero(n);
                c.b = 0;
                rank = 0;
                for (int i = 0; i < n; i++)
                    if (tu_chance(1, 2)) {
                        c.A.row[i] = UINT64_C(1) << i;
                        rank++;
                    }
                if (rank == n)
                    continue;
            }
            tu_case(index++, &c, 1, NULL);
            for (int w = 0; w < 2; w++)
                check_price(nets[w], &c, rank);
        }
    tu_case(-1, NULL, 0, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_conflict_places),
        cmocka_unit_test(test_partition),
        cmocka_unit_test(test_one_pass_all_agl),
        cmocka_unit_test(test_two_pass_all_agl4),
        cmocka_unit_test(test_two_pass_random),
        cmocka_unit_test(test_lemma_5_1),
        cmocka_unit_test(test_lemma_2_4),
        cmocka_unit_test(test_lemma_2_5),
        cmocka_unit_test(test_admissible_count),
        cmocka_unit_test(test_table_i),
        cmocka_unit_test(test_price_non_permutation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
