/*
 * test_paper.c — the worked examples of Hou et al. 2001 (Hou, Wang, Ku, Hsu,
 * "Optimal processor mapping for linear-complement communication on
 * hypercubes", TPDS 2001), with every matrix transcribed from the paper's
 * printed text (rows left to right a_i0 .. a_i,n-1; vectors [b_0 .. b_7]).
 *
 * Where the paper states a number (T_i, ranks, R(L8), degrees) the test
 * checks that number; contention is also counted path by path with the
 * test's own e-cube counter (testutil.c), independently of Theorem 1.
 */
#include "testutil.h"

#include <string.h>

#define N 8

/* Example 1: bit-reverse. */
static const char *const BIT_REVERSE[N] = {
    "00000001", "00000010", "00000100", "00001000",
    "00010000", "00100000", "01000000", "10000000",
};

/* Example 3: matrix-transpose (also A_1 of Example 5). */
static const char *const TRANSPOSE[N] = {
    "00001000", "00000100", "00000010", "00000001",
    "10000000", "01000000", "00100000", "00010000",
};

/* Example 4, Q exactly as printed: row 3 repeats row 7 (a misprint). */
static const char *const EX4_Q_PRINTED[N] = {
    "10000000", "00001000", "00100000", "00000001",
    "01000000", "00000100", "00010000", "00000001",
};

/* Example 4, the new matrix D = Q A Q^-1 as printed. */
static const char *const EX4_D[N] = {
    "01000000", "10000000", "00010000", "00100000",
    "00000100", "00001000", "00000001", "00000010",
};

/* Example 5 item 3: scale the lower-left 8x8 subimage by 2 (an LCS). */
static const char *const EX5_SCALE[N] = {
    "01000000", "00100000", "00010000", "00000000",
    "00000100", "00000010", "00000001", "00000000",
};

/* Example 5 item 5: bit-reverse of the rows and of the columns. */
static const char *const EX5_ROW_REVERSE[N] = {
    "00010000", "00100000", "01000000", "10000000",
    "00001000", "00000100", "00000010", "00000001",
};
static const char *const EX5_COL_REVERSE[N] = {
    "10000000", "01000000", "00100000", "00010000",
    "00000001", "00000010", "00000100", "00001000",
};

/* Example 6: Q, Q^-1 and the two new communications as printed. */
static const char *const EX6_Q[N] = {
    "00010000", "00001000", "10000000", "00000001",
    "00100000", "00000100", "01000000", "00000010",
};
static const char *const EX6_QINV[N] = {
    "00100000", "00000010", "00001000", "10000000",
    "01000000", "00000100", "00000001", "00010000",
};
static const char *const EX6_NEW_TRANSPOSE[N] = {
    "00010000", "00100000", "01000000", "10000000",
    "00000001", "00000010", "00000100", "00001000",
};
static const char *const EX6_NEW_BIT_REVERSE[N] = {
    "01000000", "10000000", "00010000", "00100000",
    "00000100", "00001000", "00000001", "00000010",
};

static const uint64_t T_EIGHT[N] = { 1, 2, 4, 8, 8, 4, 2, 1 };

static hd_lcc lcc_of(hd_direction dir, const char *const rows[], const char *b)
{
    hd_lcc c;
    memset(&c, 0, sizeof c);
    c.dir = dir;
    c.A = tu_matrix_from_rows(N, rows);
    c.b = tu_vector_from_string(b);
    return c;
}

static hd_order order_of(const int r[N])
{
    hd_order o = hd_order_identity(N);
    for (int k = 0; k < N; k++)
        o.r[k] = (uint8_t)r[k];
    return o;
}

/* T by Theorem 1 (hd_contention), by the library's hop-by-hop counter and
 * by the test's own counter must all equal `want`. */
static void check_contention(const hd_lcc *c, const uint64_t want[], const char *what)
{
    uint64_t T[N], B[N], own[N];
    uint64_t src[1 << N], dst[1 << N];
    hd_target net = hd_target_ecube(N);
    tu_contention(c, T);
    TU_CHECK_EQ(hd_channel_loads(&net, c, B), HD_OK, what);
    tu_messages(c, src, dst);
    tu_path_loads(N, src, dst, 1 << N, own);
    for (int i = 0; i < N; i++) {
        TU_CHECK(T[i] == want[i], "%s: Theorem 1 T_%d = %llu, paper %llu", what, i,
                 (unsigned long long)T[i], (unsigned long long)want[i]);
        TU_CHECK(B[i] == want[i], "%s: hd_channel_loads T_%d = %llu, want %llu", what,
                 i, (unsigned long long)B[i], (unsigned long long)want[i]);
        TU_CHECK(own[i] == want[i], "%s: own path count T_%d = %llu, want %llu", what,
                 i, (unsigned long long)own[i], (unsigned long long)want[i]);
    }
}

static void check_matrix_rows(const hd_matrix *got, const char *const rows[], const char *what)
{
    hd_matrix want = tu_matrix_from_rows(N, rows);
    for (int i = 0; i < N; i++)
        TU_CHECK(got->row[i] == want.row[i], "%s: row %d is %#llx, printed %s", what, i,
                 (unsigned long long)got->row[i], rows[i]);
}

/* Degree of contention after the reordering, from Theorem 2 and from the
 * own counter on the explicitly relabelled messages. */
static uint64_t degree_after(const hd_lcc *c, const hd_order *o)
{
    uint64_t T[N], own[N];
    tu_contention_after(c, o, T);
    tu_relabelled_loads(c, o, own);
    for (int i = 0; i < N; i++)
        TU_CHECK_EQ(T[i], own[i], "T_i after reordering vs relabelled path count");
    return hd_contention_degree(T, N);
}

/* ---------------------------------------------------------------- tests */

/* Example 1 and Section 2.3: bit-reverse is an LCP whose 8 paths share
 * channel ([00010000]^t, [00000000]^t); Section 6.1: T = (1,2,4,8,8,4,2,1). */
static void test_example1_bit_reverse(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    hd_lcc c = lcc_of(HD_GATHER, BIT_REVERSE, "00000000");
    tu_case(0, &c, 1, NULL);
    for (uint64_t x = 0; x < (1 << N); x++) {           /* y = reverse of x */
        uint64_t y = 0;
        for (int i = 0; i < N; i++)
            y |= ((x >> (N - 1 - i)) & 1) << i;
        TU_CHECK_EQ(hd_matrix_apply(&c.A, x), y, "Example 1 is bit-reverse");
    }
    TU_CHECK(hd_lcc_classify(&c) == HD_LCP, "bit-reverse is an LCP");
    TU_CHECK(hd_lcc_is_bpc(&c), "bit-reverse is BPC");
    check_contention(&c, T_EIGHT, "bit-reverse");

    /* The channel from node [00010000]^t = 8 to node 0 is at dimension 3;
     * count the paths through it one message at a time. */
    hd_target net = hd_target_ecube(N);
    int through = 0;
    for (uint64_t x = 0; x < (1 << N); x++) {
        uint64_t s, d;
        hd_lcc_message(&c, x, &s, &d);
        for (uint64_t at = s; at != d;) {
            int k = hd_target_next_hop(&net, at, d);
            if (at == 8 && k == 3)
                through++;
            at ^= UINT64_C(1) << k;
        }
    }
    TU_CHECK_EQ(through, 8, "paths on channel ([00010000], [00000000]) (Section 2.3)");
}

/* Section 6.1: reverse-flip is bit-reverse with every bit complemented. */
static void test_reverse_flip(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    hd_lcc c = lcc_of(HD_GATHER, BIT_REVERSE, "11111111");
    tu_case(0, &c, 1, NULL);
    TU_CHECK(hd_lcc_classify(&c) == HD_LCP, "reverse-flip is an LCP");
    check_contention(&c, T_EIGHT, "reverse-flip");
}

/* Example 3: T_i = 2^(i - rank(A_{L_{i+1}, L_i})) with ranks 0,0,0,0,1,3,5,7. */
static void test_example3_transpose(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const int ranks[N] = { 0, 0, 0, 0, 1, 3, 5, 7 };
    hd_lcc c = lcc_of(HD_GATHER, TRANSPOSE, "00000000");
    tu_case(0, &c, 1, NULL);
    for (int i = 0; i < N; i++) {
        TU_CHECK(hd_rank_sub(&c.A, hd_mask(i + 1), hd_mask(i)) == ranks[i],
                 "rank(A_{L_%d, L_%d}) = %d, paper %d", i + 1, i,
                 hd_rank_sub(&c.A, hd_mask(i + 1), hd_mask(i)), ranks[i]);
        TU_CHECK(!hd_lcc_dim_is_fixed(&c, i), "transpose: dimension %d fixed", i);
    }
    check_contention(&c, T_EIGHT, "transpose");
    uint64_t T[N];
    tu_contention(&c, T);
    TU_CHECK_EQ(hd_contention_degree(T, N), 8, "Definition 6: T(A, b) = 8");
}

/* Example 4: LCP_Optimizer (Fig. 3) on the transpose. */
static void test_example4_lcp_optimizer(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const int r_paper[N] = { 0, 4, 2, 6, 1, 5, 3, 7 };   /* Section 5 */
    hd_lcc c = lcc_of(HD_GATHER, TRANSPOSE, "00000000");
    hd_order o = hd_lcp_optimizer(&c.A);
    tu_case(0, &c, 1, &o);
    TU_CHECK(hd_order_is_valid(&o), "valid ordering");
    for (int k = 0; k < N; k++)
        TU_CHECK(o.r[k] == r_paper[k], "R(L8)[%d] = %d, paper %d", k, o.r[k], r_paper[k]);

    /* The printed Q: every row but row 3 agrees with R(L8); row 3 repeats
     * row 7, so the printed matrix is no permutation; R(L8) puts its 1 in
     * column 6. */
    hd_matrix printed = tu_matrix_from_rows(N, EX4_Q_PRINTED);
    hd_matrix q = hd_order_matrix(&o);
    TU_CHECK(!hd_matrix_is_permutation(&printed), "the printed Q has the misprint");
    for (int i = 0; i < N; i++)
        if (i != 3)
            TU_CHECK(q.row[i] == printed.row[i], "Q row %d differs from the paper", i);
    TU_CHECK_EQ(q.row[3], UINT64_C(1) << 6, "Q row 3 (misprinted as row 7)");

    /* The printed new communication y' = D x' + d. */
    hd_lcc d = hd_lcc_reorder(&c, &o);
    check_matrix_rows(&d.A, EX4_D, "Example 4 D");
    TU_CHECK_EQ(d.b, 0, "d = Q b = 0");
    static const uint64_t ones[N] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    check_contention(&d, ones, "Example 4 new LCP");
    TU_CHECK_EQ(degree_after(&c, &o), 1, "Corollary 1: contention-free");
}

/* The node of pixel (px, py) in Example 5: py * 16 + px. */
static uint64_t pixel(unsigned px, unsigned py)
{
    return (uint64_t)(py * 16 + px);
}

/* Example 5 items 1 and 2: reflections and rotations. */
static void test_example5_image_ops(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const struct {
        bool transposes;             /* A_1, else I */
        const char *b;               /* as printed: character i is b_i */
        int dx, dy;                  /* where (px, py) goes, see below */
    } ops[] = {
        /* 0: (py, px); 1: (15-py, 15-px); 2: (15-py, px); 3: (py, 15-px) */
        { true, "00000000", 0, 0 },
        { true, "11111111", 1, 1 },
        { true, "11110000", 1, 0 },
        { true, "00001111", 0, 1 },
        /* (15-px, py), (px, 15-py), (15-px, 15-py) */
        { false, "11110000", 1, 0 },
        { false, "00001111", 0, 1 },
        { false, "11111111", 1, 1 },
    };
    static const char *const IDENTITY[N] = {
        "10000000", "01000000", "00100000", "00010000",
        "00001000", "00000100", "00000010", "00000001",
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        hd_lcc c = lcc_of(HD_GATHER, ops[k].transposes ? TRANSPOSE : IDENTITY, ops[k].b);
        tu_case((long)k, &c, 1, NULL);
        /* The pixel moves as the paper says; for A_1 the coordinates swap
         * first, then b complements the new px (b_0..b_3) and py. */
        for (unsigned px = 0; px < 16; px++)
            for (unsigned py = 0; py < 16; py++) {
                unsigned nx = ops[k].transposes ? py : px;
                unsigned ny = ops[k].transposes ? px : py;
                if (ops[k].dx) nx = 15 - nx;
                if (ops[k].dy) ny = 15 - ny;
                uint64_t s, d;
                hd_lcc_message(&c, pixel(px, py), &s, &d);
                TU_CHECK(s == pixel(px, py) && d == pixel(nx, ny),
                         "op %zu moves (%u,%u) to node %llu", k, px, py,
                         (unsigned long long)d);
            }
        TU_CHECK(hd_lcc_classify(&c) == HD_LCP, "image op %zu is an LCP", k);
        TU_CHECK(hd_lcc_is_bpc(&c), "image op %zu is BPC", k);
        /* A_1 + b has the transpose's ranks and no fixed dimension; I x + b
         * sends one path across dimension i exactly when b_i = 1. */
        uint64_t want[N];
        for (int i = 0; i < N; i++)
            want[i] = ops[k].transposes ? T_EIGHT[i] : ((c.b >> i) & 1);
        check_contention(&c, want, "Example 5 image op");
        hd_order o = hd_optimize_alone(&c);
        TU_CHECK_EQ(degree_after(&c, &o), c.b == 0 && !ops[k].transposes ? 0 : 1,
                    "optimum of an LCP (Corollary 1)");
    }
}

/* Example 5 item 3: the scale is an LCS x = A y; rank 6, optimum 2^(7-6). */
static void test_example5_scale(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    hd_lcc c = lcc_of(HD_SCATTER, EX5_SCALE, "00000000");
    tu_case(0, &c, 1, NULL);
    /* Destination (qx, qy) receives from pixel (qx/2, qy/2) of the lower-left
     * 8x8 subimage, i.e. (px, py) goes to (2px + {0,1}, 2py + {0,1}). */
    for (unsigned qx = 0; qx < 16; qx++)
        for (unsigned qy = 0; qy < 16; qy++) {
            uint64_t s, d;
            hd_lcc_message(&c, pixel(qx, qy), &s, &d);
            TU_CHECK(d == pixel(qx, qy) && s == pixel(qx / 2, qy / 2),
                     "scale: (%u,%u) from node %llu", qx, qy, (unsigned long long)s);
        }
    TU_CHECK_EQ(hd_rank(&c.A), 6, "rank of the scale matrix");
    TU_CHECK(hd_lcc_classify(&c) == HD_LCS, "the scale is an LCS (Definition 4)");
    hd_lcc g = c;
    g.dir = HD_GATHER;
    TU_CHECK(hd_lcc_classify(&g) == HD_LCG, "the same matrix as a gather is an LCG");

    /* Contention of the scale as given, path by path. */
    uint64_t T[N], own[N], src[1 << N], dst[1 << N];
    tu_contention(&c, T);
    tu_messages(&c, src, dst);
    tu_path_loads(N, src, dst, 1 << N, own);
    for (int i = 0; i < N; i++)
        TU_CHECK_EQ(T[i], own[i], "scale T_i vs path count");

    /* Corollary 2: the optimum is 2^((n-1) - rank(A)) = 2. */
    hd_order o = hd_optimize_alone(&c), best;
    TU_CHECK(hd_order_is_valid(&o), "valid ordering");
    TU_CHECK_EQ(degree_after(&c, &o), 2, "optimal scale contention");
    uint64_t cost;
    TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(N), &c, 1, HD_OBJ_MAX, &best, &cost), HD_OK, "rc");
    TU_CHECK_EQ(cost, 2, "exhaustive optimum of the scale");
}

/* Example 5 item 5: bit-reverse within the rows and within the columns.
 * By Theorem 1 (worked by hand): the row one has T = (1,2,2,1,0,0,0,0),
 * the column one (0,0,0,0,1,2,2,1); both are LCPs. */
static void test_example5_fft_reverses(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const uint64_t row_T[N] = { 1, 2, 2, 1, 0, 0, 0, 0 };
    static const uint64_t col_T[N] = { 0, 0, 0, 0, 1, 2, 2, 1 };
    hd_lcc rows = lcc_of(HD_GATHER, EX5_ROW_REVERSE, "00000000");
    hd_lcc cols = lcc_of(HD_GATHER, EX5_COL_REVERSE, "00000000");
    for (unsigned px = 0; px < 16; px++)
        for (unsigned py = 0; py < 16; py++) {
            unsigned rx = ((px & 1) << 3) | ((px & 2) << 1) | ((px & 4) >> 1) | ((px & 8) >> 3);
            unsigned ry = ((py & 1) << 3) | ((py & 2) << 1) | ((py & 4) >> 1) | ((py & 8) >> 3);
            TU_CHECK_EQ(hd_matrix_apply(&rows.A, pixel(px, py)), pixel(rx, py), "row reverse");
            TU_CHECK_EQ(hd_matrix_apply(&cols.A, pixel(px, py)), pixel(px, ry), "column reverse");
        }
    tu_case(0, &rows, 1, NULL);
    TU_CHECK(hd_lcc_classify(&rows) == HD_LCP, "row bit-reverse is an LCP");
    check_contention(&rows, row_T, "row bit-reverse");
    hd_order o = hd_optimize_alone(&rows);
    TU_CHECK_EQ(degree_after(&rows, &o), 1, "row bit-reverse optimum");
    tu_case(1, &cols, 1, NULL);
    TU_CHECK(hd_lcc_classify(&cols) == HD_LCP, "column bit-reverse is an LCP");
    check_contention(&cols, col_T, "column bit-reverse");
    o = hd_optimize_alone(&cols);
    TU_CHECK_EQ(degree_after(&cols, &o), 1, "column bit-reverse optimum");
}

/* Example 6: one mapping for {transpose, bit-reverse}; Section 6.1's M-G
 * adds reverse-flip. */
static void test_example6_set(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    static const int r_paper[N] = { 3, 4, 0, 7, 2, 5, 1, 6 };
    hd_lcc set[3] = {
        lcc_of(HD_GATHER, TRANSPOSE, "00000000"),
        lcc_of(HD_GATHER, BIT_REVERSE, "00000000"),
        lcc_of(HD_GATHER, BIT_REVERSE, "11111111"),
    };
    hd_order o = order_of(r_paper);
    tu_case(0, set, 2, &o);
    TU_CHECK(hd_order_is_valid(&o), "R(L8) of Example 6 is an ordering");

    hd_matrix q = hd_order_matrix(&o), qinv, qinv2;
    check_matrix_rows(&q, EX6_Q, "Example 6 Q");
    TU_CHECK(hd_matrix_inverse(&q, &qinv), "Q invertible");
    check_matrix_rows(&qinv, EX6_QINV, "Example 6 Q^-1 (hd_matrix_inverse)");
    hd_order oinv = hd_order_inverse(&o);
    qinv2 = hd_order_matrix(&oinv);
    check_matrix_rows(&qinv2, EX6_QINV, "Example 6 Q^-1 (hd_order_inverse)");

    hd_lcc t2 = hd_lcc_reorder(&set[0], &o), b2 = hd_lcc_reorder(&set[1], &o);
    check_matrix_rows(&t2.A, EX6_NEW_TRANSPOSE, "Example 6 new transpose");
    check_matrix_rows(&b2.A, EX6_NEW_BIT_REVERSE, "Example 6 new bit-reverse");
    /* Theorem 2 by hand: Q A Q^-1 with the printed Q and Q^-1. */
    hd_matrix pq = tu_matrix_from_rows(N, EX6_Q), pqi = tu_matrix_from_rows(N, EX6_QINV);
    hd_matrix qa = tu_naive_mul(&pq, &set[0].A), qaq = tu_naive_mul(&qa, &pqi);
    check_matrix_rows(&qaq, EX6_NEW_TRANSPOSE, "printed Q A_1 printed Q^-1");
    qa = tu_naive_mul(&pq, &set[1].A);
    qaq = tu_naive_mul(&qa, &pqi);
    check_matrix_rows(&qaq, EX6_NEW_BIT_REVERSE, "printed Q A_3 printed Q^-1");

    TU_CHECK_EQ(degree_after(&set[0], &o), 2, "Example 6: transpose degree 2");
    TU_CHECK_EQ(degree_after(&set[1], &o), 1, "Example 6: bit-reverse degree 1");
    TU_CHECK_EQ(degree_after(&set[2], &o), 1, "Section 6.1 M-G: reverse-flip 1");
    TU_CHECK_EQ(tu_objective_cost(HD_OBJ_MAX, set, 2, &o), 2, "max objective of R(L8)");

    /* The DP reaches 2, the exhaustive optimum; so does the set of three. */
    for (int m = 2; m <= 3; m++) {
        hd_order dp, ex;
        uint64_t dp_cost, ex_cost;
        tu_case(m, set, m, NULL);
        TU_CHECK_EQ(hd_optimize_set(TU_CUBE(N), set, m, HD_OBJ_MAX, &dp, &dp_cost), HD_OK, "DP rc");
        TU_CHECK_EQ(hd_optimize_exhaustive(TU_CUBE(N), set, m, HD_OBJ_MAX, &ex, &ex_cost), HD_OK,
                    "rc");
        TU_CHECK(hd_order_is_valid(&dp), "DP ordering valid");
        TU_CHECK_EQ(dp_cost, 2, "DP cost of Example 6");
        TU_CHECK_EQ(ex_cost, 2, "exhaustive cost of Example 6");
        uint64_t worst = 0;
        for (int r = 0; r < m; r++) {
            uint64_t d = degree_after(&set[r], &dp);
            worst = d > worst ? d : worst;
        }
        TU_CHECK_EQ(worst, 2, "DP ordering's worst degree, path by path");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example1_bit_reverse),
        cmocka_unit_test(test_reverse_flip),
        cmocka_unit_test(test_example3_transpose),
        cmocka_unit_test(test_example4_lcp_optimizer),
        cmocka_unit_test(test_example5_image_ops),
        cmocka_unit_test(test_example5_scale),
        cmocka_unit_test(test_example5_fft_reverses),
        cmocka_unit_test(test_example6_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
