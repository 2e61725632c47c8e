/*
 * test_sim.c — the simulator of runtime/sim/sim.h against computations
 * made without it:
 *   - channel loads of one round of random LCCs (n <= 8) against Theorem 1
 *     and its scatter mirror (analysis hd_contention), with the messages
 *     listed by the test's own naive algebra (testutil);
 *   - every message alone in the network takes the documented zero-load
 *     latency L + D + 1 (docs/simulator.md), under both routings;
 *   - flits are conserved and every message delivered exactly once under
 *     saturation, in both modes;
 *   - determinism: the same seed gives the same result;
 *   - two tiny cases worked out by hand, cycle by cycle (in comments).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static hd_sim *new_sim(int n, hd_sim_routing r)
{
    hd_sim *s = hd_sim_new(n, r);
    assert_non_null(s);
    return s;
}

static int popcount(uint64_t x)
{
    int c = 0;
    for (; x; x >>= 1)
        c += (int)(x & 1);
    return c;
}

/* ------------------------------------------------- Theorem 1 on a round */

/* All 2^n messages of c injected at once, or at random cycles: e-cube
 * paths do not depend on timing, so the headers counted on each channel
 * are the paths through it, and the busiest channel of dimension i must
 * carry T_i of Theorem 1 (or of the scatter formula). */
static void test_round_loads_match_theorem1(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    hd_sim *sims[9] = { NULL };
    for (long k = 0; k < tu_cases(400); k++) {
        int n = 1 + (int)tu_below(8), rank;
        hd_lcc c = tu_random_any_lcc(n, &rank);
        tu_case(k, &c, 1, NULL);
        uint64_t count = UINT64_C(1) << n;
        uint64_t src[256], dst[256];
        tu_messages(&c, src, dst);
        hd_sim_message msg[256];
        bool spread = tu_chance(1, 2);
        for (uint64_t t = 0; t < count; t++)
            msg[t] = (hd_sim_message){ (uint32_t)src[t], (uint32_t)dst[t],
                                       1 + (uint32_t)tu_below(30),
                                       spread ? tu_below(200) : 0, 0, 0 };
        if (!sims[n])
            sims[n] = new_sim(n, HD_SIM_ECUBE);
        hd_sim_counts counts;
        assert_int_equal(hd_sim_phase(sims[n], msg, count, &counts), HD_SIM_OK);
        uint64_t T[HD_MAX_DIM];
        tu_contention(&c, T);
        uint64_t want_max = 0;
        for (int i = 0; i < n; i++) {
            TU_CHECK(counts.load[i] == T[i], "dimension %d: simulated %llu "
                     "paths, Theorem 1 %llu (%s)", i,
                     (unsigned long long)counts.load[i],
                     (unsigned long long)T[i],
                     c.dir == HD_GATHER ? "gather" : "scatter");
            if (T[i] > want_max)
                want_max = T[i];
        }
        TU_CHECK_EQ(counts.max_load, want_max, "max_load");
        TU_CHECK_EQ(counts.messages_delivered, count, "messages delivered");
    }
    for (int n = 0; n <= 8; n++)
        hd_sim_free(sims[n]);
}

/* The same after a random reordering mapping: the messages relabelled
 * (Q s, Q d) by the test, the formula on (Q A Q^-1, Q b). */
static void test_mapped_round_loads(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    hd_sim *s = new_sim(8, HD_SIM_ECUBE);
    for (long k = 0; k < tu_cases(60); k++) {
        int n = 8, rank;
        hd_lcc c = tu_random_any_lcc(n, &rank);
        hd_order o = tu_random_order(n);
        tu_case(k, &c, 1, &o);
        uint64_t src[256], dst[256];
        tu_messages(&c, src, dst);
        hd_sim_message msg[256];
        for (int t = 0; t < 256; t++)
            msg[t] = (hd_sim_message){ (uint32_t)hd_order_apply(&o, src[t]),
                                       (uint32_t)hd_order_apply(&o, dst[t]),
                                       20, 0, 0, 0 };
        hd_sim_counts counts;
        assert_int_equal(hd_sim_phase(s, msg, 256, &counts), HD_SIM_OK);
        uint64_t T[HD_MAX_DIM];
        tu_contention_after(&c, &o, T);
        for (int i = 0; i < n; i++)
            TU_CHECK(counts.load[i] == T[i], "dimension %d: %llu vs %llu", i,
                     (unsigned long long)counts.load[i],
                     (unsigned long long)T[i]);
    }
    hd_sim_free(s);
}

/* The paper's three patterns: T = (1,2,4,8,8,4,2,1) as given. */
static void test_paper_patterns(void **state)
{
    (void)state;
    hd_sim *s = new_sim(8, HD_SIM_ECUBE);
    static const uint64_t want[8] = { 1, 2, 4, 8, 8, 4, 2, 1 };
    for (int p = 0; p < 3; p++) {
        hd_sim_message msg[256];
        for (uint32_t x = 0; x < 256; x++) {
            uint32_t y = 0;
            for (int i = 0; i < 8; i++) {
                int from = p == 0 ? (i + 4) % 8 : 7 - i;
                y |= ((x >> from) & 1u) << i;
            }
            if (p == 2)
                y ^= 0xff;
            msg[x] = (hd_sim_message){ x, y, 20, 0, 0, 0 };
        }
        hd_sim_counts counts;
        assert_int_equal(hd_sim_phase(s, msg, 256, &counts), HD_SIM_OK);
        for (int i = 0; i < 8; i++)
            assert_int_equal(counts.load[i], want[i]);
    }
    hd_sim_free(s);
}

/* -------------------------------------------------- zero-load latency */

static void check_alone(hd_sim_routing r)
{
    hd_sim *sims[11] = { NULL };
    for (long k = 0; k < tu_cases(300); k++) {
        int n = 1 + (int)tu_below(10);
        if (!sims[n])
            sims[n] = new_sim(n, r);
        /* Messages far enough apart never meet. */
        enum { M = 8 };
        hd_sim_message msg[M];
        uint64_t at = tu_below(5);
        for (int j = 0; j < M; j++) {
            uint32_t flits = 1 + (uint32_t)tu_below(40);
            msg[j] = (hd_sim_message){ (uint32_t)tu_bits(n), (uint32_t)tu_bits(n),
                                       flits, at, 0, 0 };
            at += 100 + tu_below(1000);
        }
        hd_sim_counts counts;
        assert_int_equal(hd_sim_phase(sims[n], msg, M, &counts), HD_SIM_OK);
        for (int j = 0; j < M; j++) {
            uint64_t d = (uint64_t)popcount(msg[j].src ^ msg[j].dst);
            uint64_t want = msg[j].flits + d + 1;      /* L + D + 1 */
            TU_CHECK(msg[j].delivered - msg[j].inject == want,
                     "%s, n = %d, %u -> %u, %u flits: latency %llu, "
                     "expected L + D + 1 = %llu", hd_sim_routing_name(r), n,
                     msg[j].src, msg[j].dst, msg[j].flits,
                     (unsigned long long)(msg[j].delivered - msg[j].inject),
                     (unsigned long long)want);
            TU_CHECK_EQ(hd_sim_zero_load_latency((int)d, msg[j].flits), want,
                        "hd_sim_zero_load_latency");
        }
    }
    for (int n = 0; n <= 10; n++)
        hd_sim_free(sims[n]);
}

static void test_zero_load_latency(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    check_alone(HD_SIM_ECUBE);
    check_alone(HD_SIM_PCUBE);
}

/* Open loop at a very low load: the mean latency is the mean over
 * messages of L + D + 1, up to the rare encounters. */
static void test_zero_load_open_loop(void **state)
{
    (void)state;
    int n = 6;
    uint32_t src[64], dst[64];
    double want = 0;
    for (uint32_t x = 0; x < 64; x++) {
        src[x] = x;
        dst[x] = x ^ 0x2a;              /* every message 3 hops */
        want += 20 + 3 + 1;
    }
    want /= 64;
    hd_sim *s = new_sim(n, HD_SIM_ECUBE);
    hd_sim_traffic tr = { 64, src, dst };
    hd_sim_open_config cfg = { 0.002, 20, 1000, 50000, 7, 0, false, NULL, NULL };
    hd_sim_open_result res;
    assert_int_equal(hd_sim_open(s, &tr, &cfg, &res), HD_SIM_OK);
    assert_true(res.measured > 100);
    assert_true(res.latency_mean >= want);
    assert_true(res.latency_mean < want * 1.02);
    assert_false(res.saturated);
    hd_sim_free(s);
}

/* ------------------------------------------------- conservation */

/* Far beyond saturation, then drained: every flit generated is injected
 * and delivered, none twice. */
static void check_drained(hd_sim_routing r)
{
    int n = 6;
    uint32_t src[64], dst[64];
    for (uint32_t x = 0; x < 64; x++) {
        uint32_t y = 0;
        for (int i = 0; i < n; i++)
            y |= ((x >> (n - 1 - i)) & 1u) << i;   /* bit reverse */
        src[x] = x;
        dst[x] = y;
    }
    hd_sim *s = new_sim(n, r);
    hd_sim_traffic tr = { 64, src, dst };
    hd_sim_open_config cfg = { 0.9, 20, 500, 4000, 3, 64, true, NULL, NULL };
    hd_sim_open_result res;
    assert_int_equal(hd_sim_open(s, &tr, &cfg, &res), HD_SIM_OK);
    assert_true(res.saturated);
    assert_true(res.messages_dropped > 0);
    assert_int_equal(res.flits_queued, 0);
    assert_int_equal(res.flits_in_network, 0);
    assert_int_equal(res.counts.flits_injected, res.flits_generated);
    assert_int_equal(res.counts.flits_delivered, res.flits_generated);
    assert_int_equal(res.counts.messages_delivered * 20, res.flits_generated);
    assert_int_equal(res.messages_generated - res.messages_dropped,
                     res.counts.messages_delivered);

    /* Stopped in the middle: what was generated is delivered, in the
     * network or queued. */
    cfg.drain = false;
    assert_int_equal(hd_sim_open(s, &tr, &cfg, &res), HD_SIM_OK);
    assert_true(res.flits_in_network > 0);
    assert_int_equal(res.flits_generated, res.counts.flits_delivered +
                     res.flits_in_network + res.flits_queued);
    hd_sim_free(s);
}

static void test_open_loop_conservation(void **state)
{
    (void)state;
    check_drained(HD_SIM_ECUBE);
    check_drained(HD_SIM_PCUBE);
}

/* Many rounds of random LCCs at once: every message's flits all arrive,
 * once, no sooner than alone. */
static void test_phase_every_flit_once(void **state)
{
    (void)state;
    tu_rng_init(__func__);
    for (long k = 0; k < tu_cases(20); k++) {
        int n = 3 + (int)tu_below(5), rank;
        hd_sim_routing r = tu_chance(1, 2) ? HD_SIM_ECUBE : HD_SIM_PCUBE;
        hd_sim *s = new_sim(n, r);
        size_t per = (size_t)1 << n, rounds = 6, count = per * rounds;
        hd_sim_message *msg = malloc(count * sizeof *msg);
        uint64_t *src = malloc(per * sizeof *src), *dst = malloc(per * sizeof *dst);
        assert_non_null(msg);
        uint64_t flits = 0;
        for (size_t q = 0; q < rounds; q++) {
            hd_lcc c = tu_random_any_lcc(n, &rank);
            tu_messages(&c, src, dst);
            for (size_t t = 0; t < per; t++) {
                hd_sim_message *m = &msg[q * per + t];
                *m = (hd_sim_message){ (uint32_t)src[t], (uint32_t)dst[t],
                                       1 + (uint32_t)tu_below(25),
                                       tu_below(20), 0, 0 };
                flits += m->flits;
            }
        }
        hd_sim_counts counts;
        assert_int_equal(hd_sim_phase(s, msg, count, &counts), HD_SIM_OK);
        for (size_t j = 0; j < count; j++) {
            TU_CHECK_EQ(msg[j].received, msg[j].flits, "flits received");
            uint64_t alone = msg[j].flits + (uint64_t)popcount(msg[j].src ^ msg[j].dst) + 1;
            TU_CHECK(msg[j].delivered >= msg[j].inject + alone,
                     "message %zu faster than alone", j);
        }
        TU_CHECK_EQ(counts.flits_injected, flits, "flits injected");
        TU_CHECK_EQ(counts.flits_delivered, flits, "flits delivered");
        TU_CHECK_EQ(counts.messages_delivered, count, "messages");
        free(msg);
        free(src);
        free(dst);
        hd_sim_free(s);
    }
}

/* ------------------------------------------------- determinism */

static void same_result(const hd_sim_open_result *a,
                        const hd_sim_open_result *b)
{
    assert_true(a->accepted == b->accepted);
    assert_true(a->generated == b->generated);
    assert_true(a->latency_mean == b->latency_mean);
    assert_int_equal(a->latency_p99, b->latency_p99);
    assert_int_equal(a->latency_max, b->latency_max);
    assert_int_equal(a->measured, b->measured);
    assert_int_equal(a->messages_generated, b->messages_generated);
    assert_int_equal(a->flits_queued, b->flits_queued);
    assert_int_equal(a->backlog_growth, b->backlog_growth);
    assert_memory_equal(&a->counts, &b->counts, sizeof a->counts);
}

static void test_same_seed_same_result(void **state)
{
    (void)state;
    uint32_t src[256], dst[256];
    for (uint32_t x = 0; x < 256; x++) {
        src[x] = x;
        dst[x] = ((x & 15) << 4) | (x >> 4);   /* transpose */
    }
    hd_sim_traffic tr = { 256, src, dst };
    hd_sim_open_config cfg = { 0.09, 20, 500, 3000, 42, 0, false, NULL, NULL };
    for (int r = 0; r < 2; r++) {
        hd_sim *a = new_sim(8, (hd_sim_routing)r), *b = new_sim(8, (hd_sim_routing)r);
        hd_sim_open_result x, y, z;
        assert_int_equal(hd_sim_open(a, &tr, &cfg, &x), HD_SIM_OK);
        assert_int_equal(hd_sim_open(b, &tr, &cfg, &y), HD_SIM_OK);
        same_result(&x, &y);
        /* The same simulator object again: nothing left from before. */
        assert_int_equal(hd_sim_open(a, &tr, &cfg, &z), HD_SIM_OK);
        same_result(&x, &z);
        cfg.seed++;
        assert_int_equal(hd_sim_open(a, &tr, &cfg, &z), HD_SIM_OK);
        assert_true(z.counts.flits_delivered != x.counts.flits_delivered ||
                    z.latency_mean != x.latency_mean);
        cfg.seed--;
        hd_sim_free(a);
        hd_sim_free(b);
    }
}

/* ------------------------------------------------- by hand */

/*
 * 2-cube, 2-flit messages at cycle 0: A 0 -> 3 (0 -d0-> 1 -d1-> 3) and
 * B 1 -> 3 (1 -d1-> 3).  Cycle 0: both enter their injection channels.
 * Cycle 1: A's header crosses (0,d0) to router 1, B's crosses (1,d1) to
 * router 3.  Cycle 2: B's header takes the ejection channel of 3; A's
 * header wants (1,d1), held by B.  Cycle 3: B's tail leaves (1,d1)'s
 * buffer and is delivered: B done, delivered = 4 = L + D + 1; (1,d1) and
 * the ejection channel are free from cycle 4.  Cycle 4: A's header
 * crosses (1,d1); 5: ejected; 6: A's tail ejected, delivered = 7, two
 * cycles later than alone (5).
 */
static void test_hand_two_messages(void **state)
{
    (void)state;
    hd_sim *s = new_sim(2, HD_SIM_ECUBE);
    hd_sim_message msg[2] = { { 0, 3, 2, 0, 0, 0 }, { 1, 3, 2, 0, 0, 0 } };
    hd_sim_counts counts;
    assert_int_equal(hd_sim_phase(s, msg, 2, &counts), HD_SIM_OK);
    assert_int_equal(msg[0].delivered, 7);
    assert_int_equal(msg[1].delivered, 4);
    assert_int_equal(counts.cycles, 7);
    assert_int_equal(counts.load[0], 1);
    assert_int_equal(counts.load[1], 2);     /* (1,d1) carried both */
    assert_int_equal(counts.flit_hops, 2 * 2 + 2 * 1);
    hd_sim_free(s);
}

/*
 * First come, first served on the 3-cube.  Z: 0 -> 4, 10 flits, holds
 * (0,d2) from cycle 1 until its tail leaves that buffer in cycle 11.
 * X: 2 -> 4 (2 -d1-> 0 -d2-> 4), 2 flits, reaches router 0 in cycle 1
 * through d1.  Y: 1 -> 4 (1 -d0-> 0 -d2-> 4), 2 flits, ready at cycle 2,
 * reaches router 0 in cycle 3 through d0, a lower input that would win a
 * tie.  Both wait for (0,d2); in cycle 12 X, which came first, gets it:
 * header to 4 in 12, ejected in 13, tail in 14: delivered 15.  Y gets
 * (0,d2) in 15: delivered 18.  Z: 10 + 1 + 1 = 12.
 */
static void test_hand_fcfs(void **state)
{
    (void)state;
    hd_sim *s = new_sim(3, HD_SIM_ECUBE);
    hd_sim_message msg[3] = { { 0, 4, 10, 0, 0, 0 }, { 2, 4, 2, 0, 0, 0 },
                              { 1, 4, 2, 2, 0, 0 } };
    hd_sim_counts counts;
    assert_int_equal(hd_sim_phase(s, msg, 3, &counts), HD_SIM_OK);
    assert_int_equal(msg[0].delivered, 12);
    assert_int_equal(msg[1].delivered, 15);
    assert_int_equal(msg[2].delivered, 18);
    hd_sim_free(s);
}

/* One source sends its messages in order, back to back: the second can
 * take the injection channel the cycle after the first one's tail left
 * it. */
static void test_hand_same_source(void **state)
{
    (void)state;
    hd_sim *s = new_sim(2, HD_SIM_ECUBE);
    /* 0 -> 1, 3 flits, twice.  The first moves in cycles 0 .. 4 (its
     * path has H = 3 channels, so H + L - 1 = 5 moves): delivered 5.  Its
     * tail leaves the injection channel's buffer in cycle 3, the channel
     * is free from cycle 4, and the second message takes the same 5
     * cycles from there: delivered 9. */
    hd_sim_message msg[2] = { { 0, 1, 3, 0, 0, 0 }, { 0, 1, 3, 0, 0, 0 } };
    hd_sim_counts counts;
    assert_int_equal(hd_sim_phase(s, msg, 2, &counts), HD_SIM_OK);
    assert_int_equal(msg[0].delivered, 5);
    assert_int_equal(msg[1].delivered, 9);
    hd_sim_free(s);
}

/* ------------------------------------------------- arguments */

static void test_bad_arguments(void **state)
{
    (void)state;
    assert_null(hd_sim_new(0, HD_SIM_ECUBE));
    assert_null(hd_sim_new(HD_SIM_MAX_DIM + 1, HD_SIM_ECUBE));
    hd_sim *s = new_sim(3, HD_SIM_ECUBE);
    hd_sim_message bad[1] = { { 0, 8, 1, 0, 0, 0 } };
    assert_int_equal(hd_sim_phase(s, bad, 1, NULL), HD_SIM_EINVAL);
    bad[0].dst = 1;
    bad[0].flits = 0;
    assert_int_equal(hd_sim_phase(s, bad, 1, NULL), HD_SIM_EINVAL);
    assert_int_equal(hd_sim_phase(s, NULL, 0, NULL), HD_SIM_OK);
    uint32_t src[1] = { 0 }, dst[1] = { 9 };
    hd_sim_traffic tr = { 1, src, dst };
    hd_sim_open_config cfg = { 0.1, 20, 0, 100, 1, 0, false, NULL, NULL };
    hd_sim_open_result res;
    assert_int_equal(hd_sim_open(s, &tr, &cfg, &res), HD_SIM_EINVAL);
    dst[0] = 1;
    cfg.queue = 3;
    assert_int_equal(hd_sim_open(s, &tr, &cfg, &res), HD_SIM_EINVAL);
    hd_sim_free(s);
    hd_sim_routing r;
    assert_true(hd_sim_routing_parse("pcube", &r) && r == HD_SIM_PCUBE);
    assert_false(hd_sim_routing_parse("xy", &r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_loads_match_theorem1),
        cmocka_unit_test(test_mapped_round_loads),
        cmocka_unit_test(test_paper_patterns),
        cmocka_unit_test(test_zero_load_latency),
        cmocka_unit_test(test_zero_load_open_loop),
        cmocka_unit_test(test_open_loop_conservation),
        cmocka_unit_test(test_phase_every_flit_once),
        cmocka_unit_test(test_same_seed_same_result),
        cmocka_unit_test(test_hand_two_messages),
        cmocka_unit_test(test_hand_fcfs),
        cmocka_unit_test(test_hand_same_source),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
