/*
 * testutil.c — see testutil.h.  Nothing here calls the functions under
 * test except hd_order_apply (checked against its own naive definition in
 * test_gf2) and the plain accessors of the types.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- checks */

static struct {
    long index;
    const hd_lcc *lcc;
    int m;
    const hd_order *order;
} current_case = { -1, NULL, 0, NULL };

void tu_case(long index, const hd_lcc *c, int m, const hd_order *o)
{
    current_case.index = index;
    current_case.lcc = c;
    current_case.m = m;
    current_case.order = o;
}

static void print_lcc(const hd_lcc *c)
{
    int n = c->A.n;
    fprintf(stderr, "    %s, n = %d, b = ", c->dir == HD_GATHER ? "gather" : "scatter", n);
    for (int i = 0; i < n; i++)
        fputc('0' + (int)((c->b >> i) & 1), stderr);
    fputs(" (b_0 first), A rows (a_i0 first):\n", stderr);
    for (int i = 0; i < n; i++) {
        fputs("      ", stderr);
        for (int j = 0; j < n; j++)
            fputc('0' + tu_entry(&c->A, i, j), stderr);
        fputc('\n', stderr);
    }
}

void tu_report(const char *expr, const char *file, int line,
               const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\n%s:%d: check failed: %s\n  ", file, line, expr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  base seed %llu (rerun with HYPERDO_TEST_SEED=%llu)\n",
            (unsigned long long)tu_base_seed(),
            (unsigned long long)tu_base_seed());
    if (current_case.index >= 0)
        fprintf(stderr, "  case #%ld\n", current_case.index);
    for (int r = 0; current_case.lcc && r < current_case.m; r++) {
        fprintf(stderr, "  LCC %d:\n", r);
        print_lcc(&current_case.lcc[r]);
    }
    if (current_case.order) {
        fputs("  ordering R = (", stderr);
        for (int k = 0; k < current_case.order->n; k++)
            fprintf(stderr, k ? ",%d" : "%d", current_case.order->r[k]);
        fputs(")\n", stderr);
    }
    fflush(stderr);
}

/* ---------------------------------------------------------------- PRNG */

#define DEFAULT_SEED UINT64_C(0x000d4f04fa04611a)  /* a fixed default */

static uint64_t rng_state;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t tu_base_seed(void)
{
    const char *s = getenv("HYPERDO_TEST_SEED");
    if (s && *s)
        return strtoull(s, NULL, 0);
    return DEFAULT_SEED;
}

void tu_rng_init(const char *test_name)
{
    uint64_t h = UINT64_C(1469598103934665603);    /* FNV-1a of the name */
    for (const char *p = test_name; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
    rng_state = tu_base_seed() ^ h;
    tu_case(-1, NULL, 0, NULL);
}

uint64_t tu_rand(void)
{
    return splitmix64(&rng_state);
}

uint64_t tu_below(uint64_t bound)
{
    /* Rejection keeps it uniform; the bounds here are tiny anyway. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound, v;
    do
        v = tu_rand();
    while (v >= limit);
    return v % bound;
}

uint64_t tu_bits(int n)
{
    uint64_t v = tu_rand();
    return n >= 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

bool tu_chance(int num, int den)
{
    return tu_below((uint64_t)den) < (uint64_t)num;
}

long tu_cases(long base)
{
    const char *s = getenv("HYPERDO_TEST_SCALE");
    long pct = (s && *s) ? strtol(s, NULL, 10) : 100;
    long v = pct > 0 ? base * pct / 100 : base;
    return v > 0 ? v : 1;
}

/* ----------------------------------------------- naive matrix algebra */

static uint64_t low_bits(int n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

static hd_matrix zero_matrix(int n)
{
    hd_matrix m;
    memset(&m, 0, sizeof m);
    m.n = n;
    return m;
}

static void set_entry(hd_matrix *a, int i, int j, int v)
{
    if (v)
        a->row[i] |= UINT64_C(1) << j;
    else
        a->row[i] &= ~(UINT64_C(1) << j);
}

int tu_entry(const hd_matrix *a, int i, int j)
{
    return (int)((a->row[i] >> j) & 1);
}

hd_matrix tu_matrix_from_rows(int n, const char *const rows[])
{
    hd_matrix a = zero_matrix(n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(strlen(rows[i]), n);
        for (int j = 0; j < n; j++)
            set_entry(&a, i, j, rows[i][j] == '1');
    }
    return a;
}

uint64_t tu_vector_from_string(const char *s)
{
    uint64_t v = 0;
    for (int i = 0; s[i]; i++)
        if (s[i] == '1')
            v |= UINT64_C(1) << i;
    return v;
}

/* y_i = sum_j a_ij x_j, one entry at a time. */
uint64_t tu_naive_apply(const hd_matrix *a, uint64_t x)
{
    uint64_t y = 0;
    for (int i = 0; i < a->n; i++) {
        int s = 0;
        for (int j = 0; j < a->n; j++)
            s ^= tu_entry(a, i, j) & (int)((x >> j) & 1);
        y |= (uint64_t)s << i;
    }
    return y;
}

hd_matrix tu_naive_mul(const hd_matrix *a, const hd_matrix *b)
{
    int n = a->n;
    hd_matrix p = zero_matrix(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int s = 0;
            for (int k = 0; k < n; k++)
                s ^= tu_entry(a, i, k) & tu_entry(b, k, j);
            set_entry(&p, i, j, s);
        }
    return p;
}

/* Row reduction of the selected entries copied into an int array. */
int tu_gauss_rank_sub(const hd_matrix *a, uint64_t rows, uint64_t cols)
{
    static int m[HD_MAX_DIM][HD_MAX_DIM];
    int nr = 0, nc = 0, rank = 0;
    int colidx[HD_MAX_DIM];
    for (int j = 0; j < a->n; j++)
        if ((cols >> j) & 1)
            colidx[nc++] = j;
    for (int i = 0; i < a->n; i++) {
        if (!((rows >> i) & 1))
            continue;
        for (int c = 0; c < nc; c++)
            m[nr][c] = tu_entry(a, i, colidx[c]);
        nr++;
    }
    for (int c = 0; c < nc && rank < nr; c++) {
        int p = rank;
        while (p < nr && !m[p][c])
            p++;
        if (p == nr)
            continue;
        for (int k = 0; k < nc; k++) {
            int t = m[p][k];
            m[p][k] = m[rank][k];
            m[rank][k] = t;
        }
        for (int r = 0; r < nr; r++)
            if (r != rank && m[r][c])
                for (int k = 0; k < nc; k++)
                    m[r][k] ^= m[rank][k];
        rank++;
    }
    return rank;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The span of k vectors has 2^rank distinct elements. */
int tu_span_rank(const uint64_t *v, int k)
{
    static uint64_t sums[1u << 12];
    uint64_t count = UINT64_C(1) << k, distinct = 0;
    assert_true(k <= 12);
    for (uint64_t s = 0; s < count; s++) {
        uint64_t x = 0;
        for (int t = 0; t < k; t++)
            if ((s >> t) & 1)
                x ^= v[t];
        sums[s] = x;
    }
    qsort(sums, (size_t)count, sizeof *sums, cmp_u64);
    for (uint64_t s = 0; s < count; s++)
        if (s == 0 || sums[s] != sums[s - 1])
            distinct++;
    int r = 0;
    while ((UINT64_C(1) << r) < distinct)
        r++;
    assert_true((UINT64_C(1) << r) == distinct);
    return r;
}

int tu_span_rank_sub(const hd_matrix *a, uint64_t rows, uint64_t cols)
{
    uint64_t v[HD_MAX_DIM];
    int k = 0;
    for (int i = 0; i < a->n; i++)
        if ((rows >> i) & 1)
            v[k++] = a->row[i] & cols;
    return tu_span_rank(v, k);
}

hd_matrix tu_random_matrix(int n)
{
    hd_matrix a = zero_matrix(n);
    for (int i = 0; i < n; i++)
        a.row[i] = tu_bits(n);
    return a;
}

/* About 29% of random matrices are nonsingular, so rejection is cheap. */
hd_matrix tu_random_nonsingular(int n)
{
    for (;;) {
        hd_matrix a = tu_random_matrix(n);
        if (tu_gauss_rank_sub(&a, low_bits(n), low_bits(n)) == n)
            return a;
    }
}

hd_matrix tu_random_matrix_of_rank(int n, int r)
{
    hd_matrix p = tu_random_nonsingular(n), s = tu_random_nonsingular(n);
    hd_matrix d = zero_matrix(n);
    for (int i = 0; i < r; i++)
        set_entry(&d, i, i, 1);
    hd_matrix pd = tu_naive_mul(&p, &d);
    return tu_naive_mul(&pd, &s);
}

hd_matrix tu_random_sparse(int n, int num, int den)
{
    hd_matrix a = zero_matrix(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            set_entry(&a, i, j, tu_chance(num, den));
    return a;
}

/* Fisher-Yates. */
hd_order tu_random_order(int n)
{
    hd_order o;
    memset(&o, 0, sizeof o);
    o.n = n;
    for (int k = 0; k < n; k++)
        o.r[k] = (uint8_t)k;
    for (int k = n - 1; k > 0; k--) {
        int j = (int)tu_below((uint64_t)k + 1);
        uint8_t t = o.r[k];
        o.r[k] = o.r[j];
        o.r[j] = t;
    }
    return o;
}

bool tu_next_order(hd_order *o)
{
    int n = o->n, i = n - 2;
    while (i >= 0 && o->r[i] > o->r[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (o->r[j] < o->r[i])
        j--;
    uint8_t t = o->r[i];
    o->r[i] = o->r[j];
    o->r[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        t = o->r[a];
        o->r[a] = o->r[b];
        o->r[b] = t;
    }
    return true;
}

/* ---------------------------------------------------------- LCC cases */

const char *tu_kind_name(tu_kind k)
{
    static const char *const names[TU_KIND_COUNT] = {
        "LCP", "LCG", "LCS", "fixed-dims", "identity", "BPC",
        "scatter-perm", "sparse",
    };
    return names[k];
}

static hd_direction random_dir(void)
{
    return tu_chance(1, 2) ? HD_GATHER : HD_SCATTER;
}

static hd_lcc make_lcc(hd_direction dir, hd_matrix a, uint64_t b)
{
    hd_lcc c;
    memset(&c, 0, sizeof c);
    c.dir = dir;
    c.A = a;
    c.b = b;
    return c;
}

static hd_matrix random_permutation_matrix(int n)
{
    hd_order o = tu_random_order(n);
    hd_matrix q = zero_matrix(n);
    for (int k = 0; k < n; k++)
        set_entry(&q, k, o.r[k], 1);
    return q;
}

/* Rows in a random nonempty set F become e_i with b_i = 0: dimension i
 * then carries no message (Section 4, before Theorem 3). */
static hd_lcc random_fixed(int n)
{
    hd_lcc c = make_lcc(random_dir(), tu_random_matrix(n), tu_bits(n));
    uint64_t f = 0;
    while (!f)
        f = tu_bits(n);
    if (tu_chance(1, 3))       /* often sparse outside F, for structure */
        c.A = tu_random_sparse(n, 1, 3);
    for (int i = 0; i < n; i++)
        if ((f >> i) & 1) {
            c.A.row[i] = UINT64_C(1) << i;
            c.b &= ~(UINT64_C(1) << i);
        }
    return c;
}

hd_lcc tu_random_lcc(tu_kind kind, int n, int *rank)
{
    hd_lcc c;
    int r = -1;
    switch (kind) {
    case TU_LCP:
        c = make_lcc(HD_GATHER, tu_random_nonsingular(n), tu_bits(n));
        r = n;
        break;
    case TU_LCG:
    case TU_LCS:
        r = (int)tu_below((uint64_t)n);
        c = make_lcc(kind == TU_LCG ? HD_GATHER : HD_SCATTER,
                     tu_random_matrix_of_rank(n, r), tu_bits(n));
        break;
    case TU_FIXED:
        c = random_fixed(n);
        break;
    case TU_IDENTITY: {
        hd_matrix a = zero_matrix(n);
        for (int i = 0; i < n; i++)
            set_entry(&a, i, i, 1);
        c = make_lcc(random_dir(), a, tu_chance(1, 4) ? 0 : tu_bits(n));
        r = n;
        break;
    }
    case TU_BPC:
        c = make_lcc(random_dir(), random_permutation_matrix(n), tu_bits(n));
        r = n;
        break;
    case TU_SCATTER_PERM:
        c = make_lcc(HD_SCATTER, tu_random_nonsingular(n), tu_bits(n));
        r = n;
        break;
    case TU_SPARSE:
    default:
        c = make_lcc(random_dir(), tu_random_sparse(n, 1, 4), tu_bits(n));
        break;
    }
    if (r < 0)
        r = tu_gauss_rank_sub(&c.A, low_bits(n), low_bits(n));
    if (rank)
        *rank = r;
    return c;
}

hd_lcc tu_random_any_lcc(int n, int *rank)
{
    return tu_random_lcc((tu_kind)tu_below(TU_KIND_COUNT), n, rank);
}

/* ------------------------------------------------ e-cube path counting */

void tu_messages(const hd_lcc *c, uint64_t *src, uint64_t *dst)
{
    uint64_t count = UINT64_C(1) << c->A.n;
    for (uint64_t t = 0; t < count; t++) {
        uint64_t image = tu_naive_apply(&c->A, t) ^ c->b;
        src[t] = c->dir == HD_GATHER ? t : image;
        dst[t] = c->dir == HD_GATHER ? image : t;
    }
}

void tu_path_loads(int n, const uint64_t *src, const uint64_t *dst,
                   uint64_t count, uint64_t T[])
{
    assert_true(n >= 1 && n <= 20);
    uint64_t nodes = UINT64_C(1) << n;
    /* Channel (z, dimension k) is counted at cnt[k * 2^n + z]. */
    uint32_t *cnt = calloc((size_t)(nodes * (uint64_t)n), sizeof *cnt);
    assert_non_null(cnt);
    for (uint64_t t = 0; t < count; t++) {
        uint64_t s = src[t], d = dst[t];
        for (int k = 0; k < n; k++) {
            if (!(((s ^ d) >> k) & 1))
                continue;
            uint64_t below = low_bits(k);
            uint64_t z = (d & below) | (s & ~below);
            cnt[(uint64_t)k * nodes + z]++;
        }
    }
    for (int k = 0; k < n; k++) {
        T[k] = 0;
        for (uint64_t z = 0; z < nodes; z++)
            if (cnt[(uint64_t)k * nodes + z] > T[k])
                T[k] = cnt[(uint64_t)k * nodes + z];
    }
    free(cnt);
}

void tu_relabelled_loads(const hd_lcc *c, const hd_order *o, uint64_t T[])
{
    int n = c->A.n;
    uint64_t count = UINT64_C(1) << n;
    uint64_t *src = malloc(count * sizeof *src);
    uint64_t *dst = malloc(count * sizeof *dst);
    assert_non_null(src);
    assert_non_null(dst);
    tu_messages(c, src, dst);
    for (uint64_t t = 0; t < count; t++) {
        src[t] = hd_order_apply(o, src[t]);
        dst[t] = hd_order_apply(o, dst[t]);
    }
    tu_path_loads(n, src, dst, count, T);
    free(src);
    free(dst);
}

uint64_t tu_max(const uint64_t T[], int n)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++)
        if (T[i] > m)
            m = T[i];
    return m;
}

void tu_contention(const hd_lcc *c, uint64_t T[])
{
    TU_CHECK_EQ(hd_contention(TU_CUBE(c->A.n), c, T), HD_OK, "hd_contention rc");
}

void tu_contention_after(const hd_lcc *c, const hd_order *o, uint64_t T[])
{
    TU_CHECK_EQ(hd_contention_after(TU_CUBE(c->A.n), c, o, T), HD_OK,
                "hd_contention_after rc");
}

uint64_t tu_objective_cost(hd_objective obj, const hd_lcc *set, int m, const hd_order *o)
{
    uint64_t cost = UINT64_MAX;
    TU_CHECK_EQ(hd_objective_cost(TU_CUBE(o->n), obj, set, m, o, &cost), HD_OK,
                "hd_objective_cost rc");
    return cost;
}

/* ------------------------------- Wu 1984: AGL(n, 2) and the omega network */

hd_matrix tu_matrix_inverse(const hd_matrix *a)
{
    int n = a->n;
    int m[HD_MAX_DIM][2 * HD_MAX_DIM];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            m[i][j] = tu_entry(a, i, j);
            m[i][n + j] = i == j;
        }
    for (int c = 0; c < n; c++) {
        int p = c;
        while (p < n && !m[p][c])
            p++;
        assert_true(p < n);
        for (int j = 0; j < 2 * n; j++) {
            int t = m[c][j];
            m[c][j] = m[p][j];
            m[p][j] = t;
        }
        for (int r = 0; r < n; r++)
            if (r != c && m[r][c])
                for (int j = 0; j < 2 * n; j++)
                    m[r][j] ^= m[c][j];
    }
    hd_matrix out = hd_matrix_zero(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (m[i][n + j])
                out.row[i] |= UINT64_C(1) << j;
    return out;
}

hd_agl tu_agl_compose(const hd_agl *second, const hd_agl *first)
{
    hd_agl p = { tu_naive_mul(&second->A, &first->A),
                 tu_naive_apply(&second->A, first->b) ^ second->b };
    return p;
}

hd_agl tu_agl_inverse(const hd_agl *p)
{
    hd_agl q = { tu_matrix_inverse(&p->A), 0 };
    q.b = tu_naive_apply(&q.A, p->b);
    return q;
}

hd_agl tu_agl_div(const hd_agl *p, const hd_agl *q)
{
    hd_agl qi = tu_agl_inverse(q);
    return tu_agl_compose(p, &qi);
}

static bool is_identity(const hd_matrix *a)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++)
            if (tu_entry(a, i, j) != (i == j))
                return false;
    return true;
}

/* Corollary 2.1 in Hyperdo's order (omega: trailing blocks), and its
 * mirror for the butterfly (Lemma 5.1: leading blocks). */
bool tu_one_pass(const hd_matrix *a, bool butterfly)
{
    int n = a->n;
    for (int k = 1; k <= n; k++) {
        uint64_t set = butterfly ? hd_mask(k) : hd_mask(n) & ~hd_mask(n - k);
        if (tu_gauss_rank_sub(a, set, set) != k)
            return false;
    }
    return true;
}

int tu_agl_passes(const hd_agl *p, bool butterfly)
{
    if (is_identity(&p->A))
        return p->b != 0;
    return tu_one_pass(&p->A, butterfly) ? 1 : 2;
}
