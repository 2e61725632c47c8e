/*
 * test_choice.c — analysis/collectives.c's choice between direct messages
 * and Stout and Wagar 1990's collectives, against prices computed here
 * from the paper's formulas and docs/collectives.md's model of direct
 * messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "analysis.h"
#include "hyperdo/coll.h"

static hd_lcc inversion(int n)
{
    hd_lcc c = { HD_GATHER, hd_matrix_identity(n), hd_mask(n) };
    return c;
}

static const hd_coll_option *option(const hd_comm_choice *c, int alg)
{
    for (int k = 0; k < c->nopts; k++)
        if (c->opt[k].alg == alg)
            return &c->opt[k];
    fail_msg("no option %s", hd_coll_alg_name(alg));
    return NULL;
}

/* The link-bound model: INVERSION costs tau m + n beta (Section 6) plus
 * the sizes' COMPLETE BROADCAST of 8 bytes, (2^n - 1) 8 tau / n + n beta;
 * direct messages cross n links store-and-forward, n (beta + tau m). */
static void inversion_linkbound(void **state)
{
    (void)state;
    for (int n = 2; n <= 6; n++) {
        hd_target t = hd_target_ecube(n);
        hd_cost_model lb = HD_COST_MODEL_LINKBOUND;
        t.cost = lb;
        hd_lcc c = inversion(n);
        hd_comm_choice ch;
        long long m = 32768;
        hd_choose_comm(&t, &c, 1, 0, m, true, &ch);
        double tau = lb.byte_us, beta = lb.startup_us, P = (double)(1 << n);
        double sizes = (P - 1) * 8 * tau / n + n * beta;
        assert_int_equal(ch.pattern, HD_PATTERN_INVERSION);
        assert_true(fabs(option(&ch, HD_COLL_INVERSION)->us - (tau * m + n * beta + sizes)) < 1e-6);
        assert_true(fabs(option(&ch, HD_COLL_PERMUTED)->us - (tau * m + 2 * n * beta + sizes)) < 1e-6);
        assert_true(fabs(ch.direct_us - n * (beta + tau * m)) < 1e-6);
        assert_int_equal(ch.opt[ch.chosen].alg, HD_COLL_INVERSION);
        /* --collectives off: priced, not chosen. */
        hd_choose_comm(&t, &c, 1, 0, m, false, &ch);
        assert_int_equal(ch.chosen, -1);
        assert_int_equal(ch.opt[ch.best].alg, HD_COLL_INVERSION);
    }
}

/* The nCUBE-2 (one port, wormhole): one message of m bytes over n hops,
 * beta + tau (m + n), beats any multi-stage schedule. */
static void inversion_ncube2(void **state)
{
    (void)state;
    hd_target t = hd_target_ecube(4);
    hd_lcc c = inversion(4);
    hd_comm_choice ch;
    hd_choose_comm(&t, &c, 1, 0, 32768, true, &ch);
    assert_true(fabs(ch.direct_us - (164 + 0.57 * (32768 + 4))) < 1e-6);
    assert_int_equal(ch.chosen, -1);
    assert_int_equal(ch.best, -1);
}

/* Every reader's element on processor b (a scatter x = 0 y + b): a
 * broadcast from b.  Direct: the busiest of b's links carries 2^(n-1)
 * messages, the last of which crosses n - 1 more links. */
static void broadcast(void **state)
{
    (void)state;
    hd_target t = hd_target_ecube(3);
    hd_cost_model lb = HD_COST_MODEL_LINKBOUND;
    t.cost = lb;
    hd_lcc c = { HD_SCATTER, hd_matrix_zero(3), 5 };
    hd_comm_choice ch;
    hd_choose_comm(&t, &c, 1, 0, 1 << 20, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_BROADCAST);
    assert_int_equal(ch.root, 5);
    assert_true(ch.best >= 0);
    assert_int_equal(ch.chosen, ch.best);
    /* BROADCAST 2: tau m + d beta. */
    assert_true(fabs(option(&ch, HD_COLL_BCAST2)->us - (0.57 * (1 << 20) + 3 * 164)) < 1e-6);
    assert_true(fabs(ch.direct_us - (4 + 2) * (164 + 0.57 * (1 << 20))) < 1e-3);
}

/* The same processor holds every reader's elements but each reader its
 * own (not the same data): DISTRIBUTE, (2^d - 1) tau m / d + d beta for
 * blocks of m (Section 5); and its reverse, y = 0 x + b, COLLECT. */
static void distribute_collect(void **state)
{
    (void)state;
    for (int n = 1; n <= 6; n++) {
        hd_target t = hd_target_ecube(n);
        hd_cost_model lb = HD_COST_MODEL_LINKBOUND;
        t.cost = lb;
        double tau = lb.byte_us, beta = lb.startup_us, P = (double)(1 << n);
        long long m = 4096;
        double dist1 = (P - 1) * tau * m / n + n * beta;
        double direct = (P / 2 + n - 1) * (beta + tau * m);
        hd_lcc c = { HD_SCATTER, hd_matrix_zero(n), 1 };
        hd_comm_choice ch;
        hd_choose_comm_msgs(&t, &c, 1, 0, 99, false, m, true, &ch);
        assert_int_equal(ch.pattern, HD_PATTERN_DISTRIBUTE);
        assert_int_equal(ch.root, 1);
        assert_int_equal(ch.bytes, m);
        assert_true(fabs(option(&ch, HD_COLL_DISTRIBUTE1)->us - dist1) < 1e-6);
        assert_true(option(&ch, HD_COLL_DISTRIBUTE2)->us >= 0);
        assert_true(fabs(ch.direct_us - direct) < 1e-6);
        /* The same data: a broadcast instead. */
        hd_choose_comm_msgs(&t, &c, 1, 0, 99, true, m, true, &ch);
        assert_int_equal(ch.pattern, HD_PATTERN_BROADCAST);
        hd_lcc g = { HD_GATHER, hd_matrix_zero(n), (uint64_t)(P - 1) };
        hd_choose_comm_msgs(&t, &g, 1, 0, 99, false, m, true, &ch);
        assert_int_equal(ch.pattern, HD_PATTERN_COLLECT);
        assert_int_equal(ch.root, (int)P - 1);
        assert_true(fabs(option(&ch, HD_COLL_COLLECT)->us - dist1) < 1e-6);
        assert_true(fabs(ch.direct_us - direct) < 1e-6);
        if (n >= 2) {
            assert_int_equal(ch.opt[ch.chosen].alg, HD_COLL_COLLECT);
        }
    }
}

/* A singular LCC whose kernel is the subcube of dimensions 1 and 2 of
 * the 4-cube, each processor's image in its own coset: the collective
 * runs in the four cosets at once, priced on the 2-cube.  Off the
 * subcube (b outside it, or a kernel spanned by e1 + e2) nothing is
 * priced. */
static void cosets(void **state)
{
    (void)state;
    hd_target t = hd_target_ecube(4);
    hd_cost_model lb = HD_COST_MODEL_LINKBOUND;
    t.cost = lb;
    double tau = lb.byte_us, beta = lb.startup_us;
    long long m = 8192;
    hd_lcc c = { HD_SCATTER, hd_matrix_zero(4), 4 };
    c.A.row[0] = 1;            /* y0 */
    c.A.row[3] = 8;            /* y3 */
    c.A.row[2] = 1;            /* y0 may reach the subcube's bits */
    hd_comm_choice ch;
    hd_choose_comm_msgs(&t, &c, 1, 0, 99, true, m, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_BROADCAST);
    assert_int_equal(ch.dims, 6);
    assert_int_equal(ch.root, -1);
    assert_true(fabs(option(&ch, HD_COLL_BCAST2)->us - (tau * m + 2 * beta)) < 1e-6);
    /* Direct: the root's 3 messages, 2 on its busiest link, 1 more hop. */
    assert_true(fabs(ch.direct_us - 3 * (beta + tau * m)) < 1e-6);
    assert_true(ch.chosen >= 0);
    assert_true(ch.opt[ch.chosen].us <= option(&ch, HD_COLL_BCAST2)->us);
    hd_choose_comm_msgs(&t, &c, 1, 0, 99, false, m, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_DISTRIBUTE);
    assert_true(fabs(option(&ch, HD_COLL_DISTRIBUTE1)->us - (3 * tau * m / 2 + 2 * beta)) < 1e-6);
    c.dir = HD_GATHER;
    hd_choose_comm_msgs(&t, &c, 1, 0, 99, false, m, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_COLLECT);
    assert_int_equal(ch.dims, 6);
    hd_lcc out = c;
    out.b = 5;                 /* bit 0: the image leaves the coset */
    hd_choose_comm_msgs(&t, &out, 1, 0, 99, false, m, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_NONE);
    hd_lcc skew = { HD_SCATTER, hd_matrix_zero(4), 0 };
    skew.A.row[0] = 1;
    skew.A.row[3] = 8;
    skew.A.row[1] = 2;
    skew.A.row[2] = 2;         /* kernel: e2 alone, but y1 also sets bit 2 */
    hd_choose_comm_msgs(&t, &skew, 1, 0, 99, false, m, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_DISTRIBUTE);
    assert_int_equal(ch.dims, 4);
    skew.A.row[1] = 6;         /* y1 + y2 -> bit 1: kernel e1 + e2, no subcube */
    skew.A.row[2] = 0;
    hd_choose_comm_msgs(&t, &skew, 1, 0, 99, false, m, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_NONE);
}

/* What cannot be priced is said, not guessed. */
static void unpriced(void **state)
{
    (void)state;
    hd_target t = hd_target_ecube(3);
    hd_lcc c = inversion(3);
    hd_comm_choice ch;
    hd_choose_comm(&t, &c, 1, 0, 0, true, &ch);
    assert_int_equal(ch.pattern, HD_PATTERN_NONE);
    assert_non_null(ch.why);
    hd_choose_comm(&t, &c, 1, 4, 1024, true, &ch);   /* an LCC family */
    assert_int_equal(ch.pattern, HD_PATTERN_NONE);
    /* One-port above HD_COLL_PRICE_MAX_DIM: listed unpriced. */
    hd_target big = hd_target_ecube(HD_COLL_PRICE_MAX_DIM + 1);
    hd_lcc cb = inversion(HD_COLL_PRICE_MAX_DIM + 1);
    hd_choose_comm(&big, &cb, 1, 0, 1024, true, &ch);
    assert_true(option(&ch, HD_COLL_INVERSION)->us < 0);
    assert_int_equal(ch.chosen, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inversion_linkbound), cmocka_unit_test(inversion_ncube2),
        cmocka_unit_test(broadcast),
        cmocka_unit_test(distribute_collect), cmocka_unit_test(cosets),
        cmocka_unit_test(unpriced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
