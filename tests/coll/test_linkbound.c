/*
 * test_linkbound.c — the schedules of runtime/coll/schedule.c simulated on
 * the link-bound cube (runtime/coll/linkbound.c) against Stout and Wagar
 * 1990's closed forms, written again here from the paper (with the
 * corrections of docs/collectives.md), not taken from linkbound.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "linkbound.h"

static double C(int n, int k)
{
    double c = 1;
    for (int i = 0; i < k; i++)
        c = c * (n - i) / (i + 1);
    return c;
}

/* K_d = sum 1 / C(d, k), Section 3. */
static double K(int d)
{
    double s = 0;
    for (int k = 0; k <= d; k++)
        s += 1 / C(d, k);
    return s;
}

static double oc4(int l, int g, double tau, double beta, double m)
{
    if (l == 1)
        return g * (tau * m / g + beta);
    return (g + K(l - 1) - 1) * tau * m / (l * g) + (g + l - 1) * beta;
}

static double xoc2(int n, int g, double tau, double beta, double m)
{
    return (g * n + n + K(n - 1)) * tau * m / (g * n) + (g + n + 1) * beta;
}

/* The paper's closed form of each algorithm, Sections 2-8. */
static double closed(hd_coll_alg a, int d, int g, int n, int q, hd_red_then then, double tau,
                     double beta, double m)
{
    double P = (double)(1 << d);
    switch (a) {
    case HD_COLL_BCAST1:
    case HD_COLL_OCSEND1: return d * tau * m + d * beta;
    case HD_COLL_BCAST2:
    case HD_COLL_BCAST3B:
    case HD_COLL_OCSEND2:
    case HD_COLL_INVERSION: return tau * m + d * beta;
    case HD_COLL_BCAST3A: return (d + 1.0) / d * tau * m + (d + 1) * beta;
    case HD_COLL_BCAST4: return (d + g - 1.0) * (tau * m / (d * g) + beta);
    case HD_COLL_OCSEND3: return K(d - 1) * tau * m / d + d * beta;
    case HD_COLL_OCSEND4: return oc4(d, g, tau, beta, m);
    case HD_COLL_ARBSEND1: return oc4(n, g, tau, beta, m);
    case HD_COLL_ARBSEND2:   /* n + g + 1 stages, not the printed n + g - 1 */
        return (n <= d - 2 ? n + g + 1.0 : d + g - 1.0) * (tau * m / (d * g) + beta);
    case HD_COLL_ARBSEND3: {
        double t = oc4(n, g, tau, beta, n * m / d);
        if (n < d)
            t = fmax(t, xoc2(n, g, tau, beta, m / d));
        return t;
    }
    case HD_COLL_XOCSEND1: return (2.0 * n + K(n - 1)) * tau * m / n + (n + 2) * beta;
    case HD_COLL_XOCSEND2: return xoc2(n, g, tau, beta, m);
    case HD_COLL_DISTRIBUTE1:
    case HD_COLL_COLLECT:
    case HD_COLL_ALLGATHER: return (P - 1) * tau * m / d + d * beta;
    case HD_COLL_ALLTOALL: return P / 2 * tau * m + d * beta;
    case HD_COLL_PERMUTED:
    case HD_COLL_TRANSPOSE_BLOCKS: return tau * m + 2 * d * beta;
    case HD_COLL_TRANSPOSE_ROWS: return tau * m / 2 + d * beta;
    case HD_COLL_TRANSPOSE_LC: return (q + 1.0) * (tau * m / (2.0 * q) + beta);
    case HD_COLL_HISTOGRAM: {
        double t = (1 - 1 / P) * tau * m / d + d * beta;
        if (then != HD_RED_SCATTER)   /* then blocks of m / P to the root or to all */
            t += (P - 1) * tau * (m / P) / d + d * beta;
        return t;
    }
    default: return -1;
    }
}

static hd_coll_sched *build(hd_coll_alg a, int d, int root, int g, int n, int q)
{
    hd_coll_shape sh = { a, d, root, g, q, n, NULL, HD_RED_SCATTER };
    char err[256];
    hd_coll_sched *s = hd_coll_schedule(&sh, 120, 1, 10, err, sizeof err);
    if (!s)
        fail_msg("%s d=%d: %s", hd_coll_alg_name(a), d, err);
    return s;
}

static hd_lb_result simulate(const hd_coll_sched *s, hd_q tau, hd_q beta, hd_q m)
{
    hd_lb_result r;
    if (hd_lb_simulate(s, tau, beta, m, &r))
        fail_msg("%s: %s", hd_coll_alg_name(s->shape.alg), r.error);
    assert_int_equal(r.undelivered, 0);
    assert_int_equal(r.wrong_sums, 0);
    return r;
}

/* Section 1.2's numbers at d = 3, tau = 1, beta = 10, m = 120, worked
 * by hand from each formula (issue 15's table). */
static void hand_checked(void **state)
{
    (void)state;
    static const struct { hd_coll_alg a; int64_t want; } t[] = {
        { HD_COLL_BCAST1, 390 },     { HD_COLL_BCAST2, 150 },      { HD_COLL_BCAST3B, 150 },
        { HD_COLL_OCSEND2, 150 },    { HD_COLL_INVERSION, 150 },   { HD_COLL_BCAST3A, 200 },
        { HD_COLL_OCSEND3, 130 },    { HD_COLL_DISTRIBUTE1, 310 }, { HD_COLL_ALLGATHER, 310 },
        { HD_COLL_ALLTOALL, 510 },   { HD_COLL_PERMUTED, 180 },    { HD_COLL_HISTOGRAM, 65 },
        { HD_COLL_COLLECT, 310 },    { HD_COLL_OCSEND1, 390 },
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        hd_coll_sched *s = build(t[i].a, 3, 0, 0, 0, 0);
        hd_lb_result r = simulate(s, hd_q_int(1), hd_q_int(10), hd_q_int(120));
        if (!hd_q_eq(r.time, hd_q_int(t[i].want)))
            fail_msg("%s: %lld/%lld, the paper gives %lld", hd_coll_alg_name(t[i].a),
                     (long long)r.time.n, (long long)r.time.d, (long long)t[i].want);
        hd_lb_result_free(&r);
        hd_coll_schedule_free(s);
    }
}

/* Every algorithm at d = 3, 4 (and 1, 2, 5 where cheap), several g, n, q
 * and roots, against the closed form computed above. */
static void closed_forms(void **state)
{
    (void)state;
    hd_q tau = hd_q_frac(3, 7), beta = hd_q_frac(11, 3), m = hd_q_int(997);
    int runs = 0;
    for (int d = 1; d <= 5; d++)
        for (int a = 0; a < HD_COLL_NALGS; a++) {
            if (a == HD_COLL_DISTRIBUTE2)
                continue;
            if ((a == HD_COLL_TRANSPOSE_BLOCKS || a == HD_COLL_TRANSPOSE_LC) && d % 2)
                continue;
            int sends = a >= HD_COLL_ARBSEND1 && a <= HD_COLL_XOCSEND2;
            int nmax = sends ? (a >= HD_COLL_XOCSEND1 ? d - 1 : d) : 1;
            for (int n = 1; n <= nmax; n++)
                for (int g = 1; g <= 4; g++)
                    for (int then = 0; then < (a == HD_COLL_HISTOGRAM ? 3 : 1); then++) {
                        int q = 0;
                        if (a == HD_COLL_TRANSPOSE_LC) {
                            int c = d / 2, L = c == 2 ? 2 : 1;
                            q = L * (g + 1);
                            if (q < 2 * c)
                                continue;
                        }
                        int root = (a <= HD_COLL_COLLECT) ? (5 * g + n) % (1 << d) : 0;
                        hd_coll_shape sh = { a, d, root, g, q, sends ? n : 0, NULL,
                                             (hd_red_then)then };
                        char err[256];
                        hd_coll_sched *s = hd_coll_schedule(&sh, 997, 1, 1, err, sizeof err);
                        if (!s)
                            fail_msg("%s d=%d: %s", hd_coll_alg_name(a), d, err);
                        hd_lb_result r = simulate(s, tau, beta, m);
                        double want = closed(a, d, s->shape.g, s->shape.n, s->shape.q,
                                             (hd_red_then)then, 3.0 / 7, 11.0 / 3, 997);
                        double got = hd_q_double(r.time);
                        if (fabs(got - want) > 1e-9 * want)
                            fail_msg("%s d=%d g=%d n=%d q=%d then=%d: simulated %.12g, paper %.12g",
                                     hd_coll_alg_name(a), d, s->shape.g, s->shape.n, s->shape.q,
                                     then, got, want);
                        /* The simulated time never beats Section 9's bound. */
                        int ov = 0;
                        hd_q lb = hd_lb_lower_bound(s, tau, beta, m, &ov);
                        assert_true(hd_q_cmp(r.time, lb) >= 0);
                        hd_lb_result_free(&r);
                        hd_coll_schedule_free(s);
                        runs++;
                    }
        }
    assert_true(runs > 300);
}

/* Section 2: the modular routing of BROADCAST 2, 3A and 3B never puts two
 * packets on one link in one stage; INVERSION sends exactly one packet on
 * every directed link in every stage (Section 6). */
static void structure(void **state)
{
    (void)state;
    for (int d = 1; d <= 6; d++) {
        static const hd_coll_alg once[] = { HD_COLL_BCAST2, HD_COLL_BCAST3A, HD_COLL_BCAST3B,
                                            HD_COLL_BCAST4, HD_COLL_TRANSPOSE_LC };
        for (size_t i = 0; i < sizeof once / sizeof *once; i++) {
            if (once[i] == HD_COLL_TRANSPOSE_LC && d % 2)
                continue;
            hd_coll_sched *s = build(once[i], d, (1 << d) - 1, 3, 0, 0);
            hd_lb_result r = simulate(s, hd_q_int(1), hd_q_int(10), hd_q_int(120));
            assert_int_equal(r.conflicts, 0);
            hd_lb_result_free(&r);
            hd_coll_schedule_free(s);
        }
        hd_coll_sched *s = build(HD_COLL_INVERSION, d, 0, 0, 0, 0);
        hd_lb_result r = simulate(s, hd_q_int(1), hd_q_int(10), hd_q_int(120));
        assert_int_equal(r.nstages, d);
        for (int k = 0; k < d; k++) {
            assert_int_equal(r.stages[k].xfers, (size_t)d << d);
            assert_int_equal(r.stages[k].links, (size_t)d << d);
            assert_int_equal(r.stages[k].conflicts, 0);
        }
        hd_lb_result_free(&r);
        hd_coll_schedule_free(s);
    }
}

/* The paper's misprints (docs/collectives.md). */
static void misprints(void **state)
{
    (void)state;
    /* K_5 = 13/5, not 2 2/3. */
    hd_q k5 = hd_coll_K(5);
    assert_true(hd_q_eq(k5, hd_q_frac(13, 5)));
    assert_true(hd_q_eq(hd_coll_K(3), hd_q_frac(8, 3)));
    /* ARBITRARY SEND 2 takes n + g + 1 stages for n <= d - 2. */
    for (int g = 1; g <= 3; g++) {
        hd_coll_sched *s = build(HD_COLL_ARBSEND2, 5, 0, g, 2, 0);
        assert_int_equal(s->nstages, 2 + g + 1);
        hd_coll_schedule_free(s);
    }
    /* ARBITRARY SEND 3 is slower than 2 at d = 3, n = 2 for every g. */
    for (int g = 1; g <= 6; g++) {
        hd_coll_sched *s2 = build(HD_COLL_ARBSEND2, 3, 0, g, 2, 0);
        hd_coll_sched *s3 = build(HD_COLL_ARBSEND3, 3, 0, g, 2, 0);
        hd_lb_result r2 = simulate(s2, hd_q_int(1), hd_q_int(10), hd_q_int(120));
        hd_lb_result r3 = simulate(s3, hd_q_int(1), hd_q_int(10), hd_q_int(120));
        assert_true(hd_q_cmp(r3.time, r2.time) > 0);
        hd_lb_result_free(&r2);
        hd_lb_result_free(&r3);
        hd_coll_schedule_free(s2);
        hd_coll_schedule_free(s3);
    }
    /* L.C. INVERSION needs p >= 2 packets per physical link (with p = 1
     * the intermediate node is still receiving when the next logical stage
     * needs the data): q = 1 on the 2-cube is refused. */
    {
        hd_coll_shape sh = { HD_COLL_TRANSPOSE_LC, 2, 0, 1, 1, 0, NULL, HD_RED_SCATTER };
        char err[256];
        hd_coll_sched *s = hd_coll_schedule(&sh, 120, 1, 10, err, sizeof err);
        assert_null(s);   /* refused: p >= 2 */
    }
}

/* DISTRIBUTE 2 (Section 5): k waves, the least k with
 * d ((d-1)^k - 1)/(d-2) >= 2^d - 1, reach (2^d - 1) tau m / d + k beta once
 * m is large enough (here tau = 1, beta = 10, m = 1.2e6); at d = 3 already
 * for m = 120: 7/3 120 + 2 10 = 300, the paper's worked example. */
static void distribute2(void **state)
{
    (void)state;
    for (int d = 2; d <= 6; d++) {
        int k = 1;
        while (!(d == 2 ? 2.0 * k >= 3 : d * (pow(d - 1, k) - 1) / (d - 2) >= (1 << d) - 1))
            k++;
        hd_coll_sched *s = build(HD_COLL_DISTRIBUTE2, d, 0, 0, 0, 0);
        assert_int_equal(s->shape.g, k);
        hd_lb_result r = simulate(s, hd_q_int(1), hd_q_int(10), hd_q_int(1200000));
        double want = ((1 << d) - 1) * 1200000.0 / d + 10.0 * k;
        if (fabs(hd_q_double(r.time) - want) > 1e-6)
            fail_msg("distribute2 d=%d: %.9g, the paper %.9g", d, hd_q_double(r.time), want);
        hd_lb_result_free(&r);
        hd_coll_schedule_free(s);
    }
    hd_coll_sched *s = build(HD_COLL_DISTRIBUTE2, 3, 5, 0, 0, 0);
    hd_lb_result r = simulate(s, hd_q_int(1), hd_q_int(10), hd_q_int(120));
    assert_true(hd_q_eq(r.time, hd_q_int(300)));
    hd_lb_result_free(&r);
    hd_coll_schedule_free(s);
}

/* Bad shapes are refused with a reason, never simulated wrongly. */
static void refusals(void **state)
{
    (void)state;
    char err[256];
    hd_coll_shape odd = { HD_COLL_TRANSPOSE_LC, 3, 0, 0, 0, 0, NULL, HD_RED_SCATTER };
    assert_null(hd_coll_schedule(&odd, 1, 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "even"));
    hd_coll_shape far = { HD_COLL_ARBSEND1, 3, 0, 1, 0, 4, NULL, HD_RED_SCATTER };
    assert_null(hd_coll_schedule(&far, 1, 1, 1, err, sizeof err));
    int bad[4] = { 0, 1, 1, 3 };
    hd_coll_shape notperm = { HD_COLL_PERMUTED, 2, 0, 0, 0, 0, bad, HD_RED_SCATTER };
    assert_null(hd_coll_schedule(&notperm, 1, 1, 1, err, sizeof err));
    assert_non_null(strstr(err, "permutation"));
    hd_coll_shape root = { HD_COLL_BCAST2, 3, 8, 0, 0, 0, NULL, HD_RED_SCATTER };
    assert_null(hd_coll_schedule(&root, 1, 1, 1, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_checked), cmocka_unit_test(closed_forms),
        cmocka_unit_test(structure),    cmocka_unit_test(misprints),
        cmocka_unit_test(distribute2),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
