/*
 * cli_sim_omega.c — `hyperdo sim --network omega|butterfly`, the
 * pass-level simulator of Wu 1984's multistage networks, end to end.
 * Started as PROGRAM HYPERDO_BINARY SOURCE_DIR (see CMakeLists.txt).
 *
 * The expectations are worked out here from the networks' closed forms,
 * not copied from an output: after stage s of the omega network a
 * message from x to y is on the line whose bits are x's low n - s above
 * y's high s (Lawrie's destination tags, Wu 1984, Section 2.1); on the
 * butterfly, y's low s bits and x's others (Pease's indirect binary
 * n-cube, Wu 1984, Chapter 5).  A permutation passes in one pass when no
 * two of its messages share a line after any stage, and every one of
 * them in at most two (Wu 1984, Section 2.3).  The switch settings the
 * JSON gives are replayed through the wiring sim.h documents and must
 * deliver every line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "harness.h"

typedef enum { OMEGA, BUTTERFLY } network;

static const char *network_word(network net)
{
    return net == OMEGA ? "omega" : "butterfly";
}

/* ------------------------------------------------ the closed forms */

static uint32_t line_after(network net, int n, uint32_t src, uint32_t dst, int s)
{
    uint32_t mask = (UINT32_C(1) << n) - 1;
    if (net == OMEGA)
        return s == 0 ? src : ((src << s) | (dst >> (n - s))) & mask;
    uint32_t low = (UINT32_C(1) << s) - 1;
    return (dst & low) | (src & ~low & mask);
}

/* Lines wanted by two or more of the messages after each stage. */
static void shared_lines(network net, int n, const uint32_t *src, const uint32_t *dst,
                         size_t count, long *shared)
{
    size_t lines = (size_t)1 << n;
    int *load = calloc(lines, sizeof *load);
    assert_non_null(load);
    for (int s = 0; s <= n; s++) {
        memset(load, 0, lines * sizeof *load);
        shared[s] = 0;
        for (size_t i = 0; i < count; i++)
            if (++load[line_after(net, n, src[i], dst[i], s)] == 2)
                shared[s]++;
    }
    free(load);
}

/* D of the permutation t: 0 for the identity, 1 when no line is shared,
 * else 2. */
static int expected_d(network net, int n, const uint32_t *t)
{
    size_t lines = (size_t)1 << n;
    uint32_t *src = malloc(lines * sizeof *src);
    long shared[17];
    bool identity = true;
    assert_non_null(src);
    for (size_t x = 0; x < lines; x++) {
        src[x] = (uint32_t)x;
        identity &= t[x] == x;
    }
    shared_lines(net, n, src, t, lines, shared);
    long total = 0;
    for (int s = 0; s <= n; s++)
        total += shared[s];
    free(src);
    return identity ? 0 : total == 0 ? 1 : 2;
}

/* ------------------------------------------ replaying the settings */

static uint32_t swap_bits(uint32_t x, int a, int b)
{
    uint32_t d = ((x >> a) ^ (x >> b)) & 1;
    return x ^ (d << a) ^ (d << b);
}

/* Where the pass's switches take the message on input line x: each stage
 * is its wiring (omega: rotate left; butterfly: exchange bits 0 and s-1),
 * switch q >> 1 direct ('0') or crossed ('1'), and for the butterfly the
 * exchange again.  An idle switch ('-') on the path: -1. */
static long replay(network net, int n, json_t *settings, uint32_t x)
{
    uint32_t mask = (UINT32_C(1) << n) - 1, at = x;
    for (int s = 1; s <= n; s++) {
        const char *stage = json_string_value(json_array_get(settings, (size_t)s - 1));
        assert_non_null(stage);
        assert_int_equal(strlen(stage), (size_t)1 << (n - 1));
        uint32_t q = net == OMEGA ? ((at << 1) | (at >> (n - 1))) & mask : swap_bits(at, 0, s - 1);
        char c = stage[q >> 1];
        if (c != '0' && c != '1')
            return -1;
        q ^= (uint32_t)(c - '0');
        at = net == OMEGA ? q : swap_bits(q, 0, s - 1);
    }
    return at;
}

/* ---------------------------------------------------- running it */

static json_t *run_json(const char *spec, network net, const char *lcc)
{
    run_result r;
    run_hyperdo_input(&r, spec, strlen(spec), "sim", "--json", "-", "--network",
                      network_word(net), lcc ? "--lcc" : NULL, lcc, NULL);
    if (r.status != 0)
        fprintf(stderr, "hyperdo failed: %s\n", r.err);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    json_error_t e;
    json_t *o = json_loads(r.out, 0, &e);
    assert_non_null(o);
    run_result_free(&r);
    return o;
}

static long field(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        fprintf(stderr, "missing field '%s'\n", key);
    assert_true(json_is_integer(v));
    return (long)json_integer_value(v);
}

/* One LCC's JSON against the permutation t it must be: D, the shared
 * lines of the one-pass attempt, and its passes replayed. */
static void check_permutation(json_t *lcc, network net, int n, const uint32_t *t)
{
    size_t lines = (size_t)1 << n;
    int d = expected_d(net, n, t);
    assert_int_equal(field(lcc, "passes"), d);
    assert_int_equal(field(lcc, "simulated_passes"), d);
    uint32_t *src = malloc(lines * sizeof *src);
    long shared[17];
    assert_non_null(src);
    for (size_t x = 0; x < lines; x++)
        src[x] = (uint32_t)x;
    shared_lines(net, n, src, t, lines, shared);
    free(src);
    json_t *whole = json_object_get(lcc, "one_pass");
    json_t *got = json_object_get(whole, "shared_lines");
    assert_int_equal(json_array_size(got), (size_t)n + 1);
    for (int s = 0; s <= n; s++)
        assert_int_equal(json_integer_value(json_array_get(got, (size_t)s)), shared[s]);
    assert_true(json_boolean_value(json_object_get(whole, "conflict_free")) == (d <= 1));
    json_t *passes = json_object_get(lcc, "pass_settings");
    assert_int_equal(json_array_size(passes), (size_t)d);
    for (size_t x = 0; x < lines && d > 0; x++) {
        long at = (long)x;
        for (size_t p = 0; p < (size_t)d; p++)
            at = replay(net, n, json_object_get(json_array_get(passes, p), "settings"),
                        (uint32_t)at);
        assert_int_equal(at, t[x]);
    }
}

/* Bits of x reversed (n of them). */
static uint32_t reversed(uint32_t x, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++)
        r |= ((x >> i) & 1) << (n - 1 - i);
    return r;
}

/* The bit reversal, the vector reversal (every bit complemented), the
 * identity and the perfect shuffle of Definition 2.1 on the 4-cube, on
 * both networks.  In the spec, `perm p_0 .. p_3` is y_i = x_{p_i}. */
static void test_permutations(void **state)
{
    (void)state;
    static const char spec[] =
        "n 4\n"
        "lcc bitrev perm 3 2 1 0\n"
        "lcc vecrev perm 0 1 2 3 b 1111\n"
        "lcc identity perm 0 1 2 3\n"
        "lcc shuffle perm 3 0 1 2\n";
    int n = 4;
    uint32_t t[4][16];
    for (uint32_t x = 0; x < 16; x++) {
        t[0][x] = reversed(x, n);
        t[1][x] = x ^ 15;
        t[2][x] = x;
        t[3][x] = ((x << 1) | (x >> 3)) & 15;    /* rotate left: Definition 2.1 */
    }
    for (int k = 0; k < 2; k++) {
        network net = (network)k;
        json_t *o = run_json(spec, net, NULL);
        assert_string_equal(json_string_value(json_object_get(o, "network")), network_word(net));
        assert_int_equal(field(o, "n"), n);
        json_t *lccs = json_object_get(o, "lccs");
        assert_int_equal(json_array_size(lccs), 4);
        for (size_t i = 0; i < 4; i++)
            check_permutation(json_array_get(lccs, i), net, n, t[i]);
        json_decref(o);
    }
    /* What the closed forms say, in words: the bit reversal needs two
     * passes on both networks, the vector reversal one. */
    assert_int_equal(expected_d(OMEGA, n, t[0]), 2);
    assert_int_equal(expected_d(BUTTERFLY, n, t[0]), 2);
    assert_int_equal(expected_d(OMEGA, n, t[1]), 1);
}

/* A random nonsingular matrix on the 6-cube, written as a spec (row i's
 * character j is a_ij), against the closed form on its table. */
static void test_random_matrices(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    int n = 6;
    for (int round = 0; round < 6; round++) {
        uint32_t row[6], t[64];
        for (;;) {
            for (int i = 0; i < n; i++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                row[i] = (uint32_t)(seed >> 40) & 63;
            }
            for (uint32_t x = 0; x < 64; x++) {
                t[x] = 0;
                for (int i = 0; i < n; i++)
                    t[x] |= (uint32_t)(__builtin_popcount(row[i] & x) & 1) << i;
            }
            bool bijective = true;    /* nonsingular: no two x alike */
            uint64_t seen = 0;
            for (uint32_t x = 0; x < 64; x++) {
                bijective &= !(seen >> t[x] & 1);
                seen |= UINT64_C(1) << t[x];
            }
            if (bijective)
                break;
        }
        char spec[256];
        int len = snprintf(spec, sizeof spec, "n 6\nlcc m matrix");
        for (int i = 0; i < n; i++) {
            len += snprintf(spec + len, sizeof spec - (size_t)len, " ");
            for (int j = 0; j < n; j++)
                len += snprintf(spec + len, sizeof spec - (size_t)len, "%u", row[i] >> j & 1);
        }
        snprintf(spec + len, sizeof spec - (size_t)len, "\n");
        for (int k = 0; k < 2; k++) {
            json_t *o = run_json(spec, (network)k, "m");
            check_permutation(json_array_get(json_object_get(o, "lccs"), 0), (network)k, n, t);
            json_decref(o);
        }
    }
}

/* Everything to processor 0 (a gather with A = 0): no switch combines,
 * so the 2^n - 1 messages that move share the destination's line and
 * need a pass each; processor 0's own stays home.  The bound, Hyperdo's
 * schedule and the greedy partition are all 2^n - 1, and each pass sets
 * one switch per stage. */
static void test_all_to_one(void **state)
{
    (void)state;
    static const char spec[] = "n 4\nlcc gather0 matrix 0000 0000 0000 0000\n";
    int n = 4;
    long moving = (1 << n) - 1;
    for (int k = 0; k < 2; k++) {
        json_t *o = run_json(spec, (network)k, NULL);
        json_t *lcc = json_array_get(json_object_get(o, "lccs"), 0);
        assert_string_equal(json_string_value(json_object_get(lcc, "class")), "LCG");
        assert_int_equal(field(lcc, "local"), 1);
        assert_int_equal(field(lcc, "lower"), moving);
        assert_int_equal(field(lcc, "passes"), moving);
        assert_int_equal(field(lcc, "greedy_passes"), moving);
        assert_int_equal(field(lcc, "simulated_passes"), moving);
        json_t *passes = json_object_get(lcc, "pass_settings");
        assert_int_equal(json_array_size(passes), (size_t)moving);
        for (size_t p = 0; p < (size_t)moving; p++) {
            json_t *pass = json_array_get(passes, p);
            assert_int_equal(field(pass, "messages"), 1);
            json_t *settings = json_object_get(pass, "settings");
            for (int s = 0; s < n; s++) {
                const char *stage = json_string_value(json_array_get(settings, (size_t)s));
                int set = 0;
                for (const char *c = stage; *c; c++)
                    set += *c != '-';
                assert_int_equal(set, 1);
            }
        }
        json_decref(o);
    }
}

/* The report in words, the LCC named by --lcc alone. */
static void test_report(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "sim", source_path("samples/lcc/paper.lcc"), "--network", "omega",
                "--lcc", "bitrev", NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    assert_non_null(strstr(r.out, "Omega network"));
    assert_non_null(strstr(r.out, "bitrev: LCP gather, rank 8"));
    assert_non_null(strstr(r.out, "passes by the simulator: 2"));
    assert_null(strstr(r.out, "transpose"));
    run_result_free(&r);
    run_hyperdo(&r, NULL, "sim", source_path("samples/lcc/paper.lcc"), "--network",
                "butterfly", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Butterfly"));
    assert_non_null(strstr(r.out, "transpose:"));
    assert_non_null(strstr(r.out, "revflip:"));
    run_result_free(&r);
}

/* A failure: the status, nothing on stdout, and stderr starting so. */
static void expect(run_result *r, int status, const char *prefix, const char *substring)
{
    if (r->status != status || !starts_with(r->err, prefix) || !strstr(r->err, substring))
        fprintf(stderr, "status %d, stderr '%s'\n", r->status, r->err);
    assert_int_equal(r->status, status);
    assert_int_equal(r->outlen, 0);
    assert_true(starts_with(r->err, prefix));
    assert_non_null(strstr(r->err, substring));
    run_result_free(r);
}

/* The wormhole options are refused by name; a bad network word, an
 * unknown LCC and a cube too large for the simulator are errors. */
static void test_usage_errors(void **state)
{
    (void)state;
    const char *spec = source_path("samples/lcc/paper.lcc");
    static const char *const wormhole[][2] = {
        { "--rate", "0.1" }, { "--sweep", NULL },    { "--routing", "pcube" },
        { "--seed", "3" },   { "--cycles", "500" },  { "--flits", "4" },
        { "--mapping", "set" }, { "--objective", "sum" },
    };
    run_result r;
    for (size_t k = 0; k < sizeof wormhole / sizeof wormhole[0]; k++) {
        char message[64];
        snprintf(message, sizeof message, "'%s' belongs to the wormhole simulator",
                 wormhole[k][0]);
        run_hyperdo(&r, NULL, "sim", spec, "--network", "omega", wormhole[k][0],
                    wormhole[k][1], NULL);
        expect(&r, 2, "hyperdo: error: ", message);
    }
    run_hyperdo(&r, NULL, "sim", spec, "--network", "mesh", NULL);
    expect(&r, 2, "hyperdo: error: option '--network'", "ecube, omega or butterfly");
    run_hyperdo(&r, NULL, "sim", spec, "--network", "butterfly", "--lcc", "nosuch", NULL);
    expect(&r, 2, "hyperdo: error: no LCC named 'nosuch'", "bitrev");
    static const char big[] = "n 17\nlcc a perm 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";
    run_hyperdo_input(&r, big, sizeof big - 1, "sim", "-", "--network", "omega", NULL);
    expect(&r, 1, "<stdin>:1: error: n = 17 is too large for the pass-level simulator", "");
    /* The default network is still the wormhole n-cube, which needs
     * --lcc and a load. */
    run_hyperdo(&r, NULL, "sim", spec, "--network", "ecube", NULL);
    expect(&r, 2, "hyperdo: error: missing '--lcc", "");
}

int main(int argc, char **argv)
{
    harness_init(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_permutations),
        cmocka_unit_test(test_random_matrices),
        cmocka_unit_test(test_all_to_one),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
