/*
 * cli_usage.c — the command line itself: help and version succeed on
 * stdout; misuse exits 2 with "hyperdo: error: ..." and a one-line usage
 * hint on stderr, and nothing on stdout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"

#ifndef PROJECT_VERSION
#error "PROJECT_VERSION must be defined by the build"
#endif

typedef struct {
    const char *args[6];
    const char *message;   /* expected within the first line */
} misuse;

static void test_misuse(void **state)
{
    (void)state;
    char sample[4096];
    snprintf(sample, sizeof sample, "%s",
             source_path("samples/lcc/paper.lcc"));
    const misuse cases[] = {
        { { NULL }, "no command given" },
        { { "frobnicate", NULL }, "unknown command 'frobnicate'" },
        { { "--frobnicate", NULL }, "unknown option '--frobnicate'" },
        { { "analyze", NULL }, "missing FILE" },
        { { "analyze", "--json", NULL }, "missing FILE" },
        { { "analyze", "--verbose", sample, NULL },
          "unknown option '--verbose'" },
        { { "analyze", "-j", sample, NULL }, "unknown option '-j'" },
        { { "analyze", sample, "--objective", NULL },
          "option '--objective' needs a value" },
        { { "analyze", "--objective", "min", sample, NULL },
          "unknown objective 'min'" },
        { { "analyze", "--objective=avg", sample, NULL },
          "unknown objective 'avg'" },
        { { "analyze", "--network", "mesh", sample, NULL },
          "unknown network 'mesh': expected ecube, omega, butterfly or all" },
        { { "analyze", sample, "--network", NULL },
          "option '--network' needs a value" },
        { { "analyze", sample, sample, NULL }, "too many arguments" },
        { { "analyze", "a.lcc", "b.lcc", NULL }, "too many arguments" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        run_hyperdo_argv(&r, NULL, cases[k].args);
        const char *nl = strchr(r.err, '\n');
        if (r.status != 2 || !strstr(r.err, cases[k].message))
            fprintf(stderr, "case %zu: status %d, stderr '%s'\n", k,
                    r.status, r.err);
        assert_int_equal(r.status, 2);
        assert_int_equal(r.outlen, 0);
        assert_true(starts_with(r.err, "hyperdo: error: "));
        assert_non_null(nl);
        assert_true(strstr(r.err, cases[k].message) < nl);
        assert_int_equal(count_lines(r.err), 2);
        assert_true(starts_with(nl + 1, "usage: hyperdo"));
        run_result_free(&r);
    }
}

static void test_help(void **state)
{
    (void)state;
    const char *const main_help[] = { "--help", NULL };
    const char *const main_h[] = { "-h", NULL };
    const char *const analyze_help[] = { "analyze", "--help", NULL };
    const char *const analyze_help_late[] = { "analyze", "--json", "-h",
                                              NULL };
    const struct {
        const char *const *args;
        const char *start;
        const char *contains;
    } cases[] = {
        { main_help, "usage: hyperdo ", "analyze" },
        { main_h, "usage: hyperdo ", "analyze" },
        { analyze_help, "usage: hyperdo analyze [--json]", "--objective" },
        { analyze_help_late, "usage: hyperdo analyze", "maxsum" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        run_hyperdo_argv(&r, NULL, cases[k].args);
        assert_int_equal(r.status, 0);
        assert_int_equal(r.errlen, 0);
        assert_true(starts_with(r.out, cases[k].start));
        assert_non_null(strstr(r.out, cases[k].contains));
        run_result_free(&r);
    }
}

static void test_version(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "--version", NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    assert_string_equal(r.out, "hyperdo " PROJECT_VERSION "\n");
    assert_string_equal(r.out, "hyperdo 0.1.0\n");
    run_result_free(&r);
}

/* "--" ends the options, so a file may be called "--json.lcc". */
static void test_double_dash(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "analyze", "--", "--json.lcc", NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(r.outlen, 0);
    assert_true(starts_with(r.err, "hyperdo: error: cannot open "
                                   "'--json.lcc'"));
    run_result_free(&r);
}

int main(int argc, char **argv)
{
    harness_init(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_double_dash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
