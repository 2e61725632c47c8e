/*
 * cli_sim.c — `hyperdo sim` end to end: the JSON fields, the mappings of
 * the paper's patterns, determinism, and bad command lines and inputs.
 * Started as PROGRAM HYPERDO_BINARY SOURCE_DIR (see CMakeLists.txt).
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

static json_t *parse_ok(run_result *r)
{
    if (r->status != 0)
        fprintf(stderr, "hyperdo failed: %s\n", r->err);
    assert_int_equal(r->status, 0);
    json_error_t e;
    json_t *o = json_loads(r->out, 0, &e);
    assert_non_null(o);
    return o;
}

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        fprintf(stderr, "missing field '%s'\n", key);
    assert_non_null(v);
    assert_true(json_is_number(v));
    return json_number_value(v);
}

static void test_json_fields(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "sim", "--json", source_path("samples/lcc/paper.lcc"),
                "--lcc", "bitrev", "--rate", "0.05", "--cycles", "2000", NULL);
    json_t *o = parse_ok(&r);
    assert_true(num(o, "offered") == 0.05);
    double acc = num(o, "accepted");
    assert_true(acc > 0.03 && acc < 0.07);
    assert_true(num(o, "latency_mean") >= 25.0);   /* L + D + 1, D = 4 */
    assert_true(num(o, "latency_p99") >= num(o, "latency_mean"));
    assert_true(num(o, "max_channel_load") == 8);  /* Theorem 1 */
    assert_null(json_object_get(o, "saturation"));
    assert_true(num(o, "zero_load_latency") == 25.0);
    json_decref(o);
    run_result_free(&r);
}

/* Each pattern's own mapping removes the contention; the set's mapping
 * leaves 2 on the transpose (Section 6.1). */
static void test_mappings(void **state)
{
    (void)state;
    static const struct { const char *lcc, *mapping; int load; } cases[] = {
        { "transpose", "identity", 8 }, { "transpose", "optimal", 1 },
        { "transpose", "set", 2 },      { "bitrev", "set", 1 },
        { "revflip", "optimal", 1 },    { "revflip", "set", 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        run_hyperdo(&r, NULL, "sim", "--json",
                    source_path("samples/lcc/paper.lcc"), "--lcc",
                    cases[k].lcc, "--mapping", cases[k].mapping, "--rate",
                    "0.1", "--cycles", "1000", NULL);
        json_t *o = parse_ok(&r);
        assert_true(num(o, "max_channel_load") == cases[k].load);
        json_decref(o);
        run_result_free(&r);
    }
}

static void test_sweep(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "sim", "--json", source_path("samples/lcc/paper.lcc"),
                "--lcc", "transpose", "--sweep", "--cycles", "2000", NULL);
    json_t *o = parse_ok(&r);
    double sat = num(o, "saturation");
    assert_true(sat > 0.05 && sat < 0.125);     /* below 1/8: contention 8 */
    assert_true(num(o, "accepted") == sat);
    json_t *pts = json_object_get(o, "points");
    assert_true(json_array_size(pts) >= 3);
    json_decref(o);
    run_result_free(&r);
}

static void test_same_seed_same_output(void **state)
{
    (void)state;
    run_result a, b, c;
    const char *spec = source_path("samples/lcc/paper.lcc");
    run_hyperdo(&a, NULL, "sim", "--json", spec, "--lcc", "revflip", "--rate",
                "0.11", "--seed", "9", "--cycles", "2000", NULL);
    run_hyperdo(&b, NULL, "sim", "--json", spec, "--lcc", "revflip", "--rate",
                "0.11", "--seed", "9", "--cycles", "2000", NULL);
    run_hyperdo(&c, NULL, "sim", "--json", spec, "--lcc", "revflip", "--rate",
                "0.11", "--seed", "10", "--cycles", "2000", NULL);
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    assert_string_not_equal(a.out, c.out);
    run_result_free(&a);
    run_result_free(&b);
    run_result_free(&c);
}

static void test_report(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "sim", source_path("samples/lcc/paper.lcc"), "--lcc",
                "transpose", "--routing", "pcube", "--rate", "0.05",
                "--cycles", "1000", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "P-cube"));
    assert_non_null(strstr(r.out, "accepted"));
    assert_int_equal(r.errlen, 0);
    run_result_free(&r);
}

/* A failure: the status, nothing on stdout, and stderr starting so. */
static void expect(run_result *r, int status, const char *prefix,
                   const char *substring)
{
    if (r->status != status || !starts_with(r->err, prefix) ||
        !strstr(r->err, substring))
        fprintf(stderr, "status %d, stderr '%s'\n", r->status, r->err);
    assert_int_equal(r->status, status);
    assert_int_equal(r->outlen, 0);
    assert_true(starts_with(r->err, prefix));
    assert_non_null(strstr(r->err, substring));
    run_result_free(r);
}

static void test_usage_errors(void **state)
{
    (void)state;
    const char *spec = source_path("samples/lcc/paper.lcc");
    run_result r;
    run_hyperdo(&r, NULL, "sim", spec, "--rate", "0.1", NULL);
    expect(&r, 2, "hyperdo: error: missing '--lcc", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", NULL);
    expect(&r, 2, "hyperdo: error: give '--rate R' or '--sweep'", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "0.1",
                "--sweep", NULL);
    expect(&r, 2, "hyperdo: error: give either", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "1.5", NULL);
    expect(&r, 2, "hyperdo: error: option '--rate'", "0 < R <= 1");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "x", NULL);
    expect(&r, 2, "hyperdo: error: option '--rate'", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "0.1",
                "--mapping", "best", NULL);
    expect(&r, 2, "hyperdo: error: option '--mapping'", "'best'");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "0.1",
                "--routing", "xy", NULL);
    expect(&r, 2, "hyperdo: error: option '--routing'", "ecube or pcube");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "0.1",
                "--cycles", "10", NULL);
    expect(&r, 2, "hyperdo: error: option '--cycles'", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "0.1",
                "--seed", "-1", NULL);
    expect(&r, 2, "hyperdo: error: option '--seed'", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "nosuch", "--rate", "0.1", NULL);
    expect(&r, 2, "hyperdo: error: no LCC named 'nosuch'", "bitrev");
    run_hyperdo(&r, NULL, "sim", source_path("README.md"), "--lcc", "a",
                "--rate", "0.1", NULL);
    expect(&r, 2, "hyperdo: error: sim reads an LCC spec", "");
    run_hyperdo(&r, NULL, "sim", spec, "--lcc", "bitrev", "--rate", "0.1",
                "--bogus", NULL);
    expect(&r, 2, "hyperdo: error: unknown option '--bogus'", "");
}

static void test_input_errors(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "sim", "/nonexistent/x.lcc", "--lcc", "a", "--rate",
                "0.1", NULL);
    expect(&r, 1, "hyperdo: error: cannot open '/nonexistent/x.lcc'", "");
    static const char bad[] = "n 3\nlcc a perm 0 1\n";
    run_hyperdo_input(&r, bad, sizeof bad - 1, "sim", "-", "--lcc", "a",
                      "--rate", "0.1", NULL);
    expect(&r, 1, "<stdin>:2: error: ", "");
    static const char big[] = "# too big\nn 15\nlcc a perm 0 1 2 3 4 5 6 7 8 "
                              "9 10 11 12 13 14\n";
    run_hyperdo_input(&r, big, sizeof big - 1, "sim", "-", "--lcc", "a",
                      "--rate", "0.1", NULL);
    expect(&r, 1, "<stdin>:2: error: n = 15 is too large for the simulator", "");
}

int main(int argc, char **argv)
{
    harness_init(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_fields),
        cmocka_unit_test(test_mappings),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_same_seed_same_output),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_input_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
