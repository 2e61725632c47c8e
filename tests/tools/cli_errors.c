/*
 * cli_errors.c — malformed inputs: every file in tests/tools/bad/ holds one
 * mistake and announces, in its first line,
 *     # expect: LINE: error: SUBSTRING
 * what hyperdo must say.  Each must fail with status 1, print nothing on
 * stdout and exactly one line "PATH:LINE: error: ...SUBSTRING..." on
 * stderr.  Inputs that cannot live in a file (stdin, a missing file, a
 * directory, a NUL byte) are checked after them.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"

/* Runs hyperdo and checks a failure with exactly this stderr shape. */
static void expect_failure(run_result *r, const char *prefix,
                           const char *substring)
{
    if (!starts_with(r->err, prefix) || !strstr(r->err, substring))
        fprintf(stderr, "expected '%s...%s...', got '%s'\n", prefix,
                substring, r->err);
    assert_int_equal(r->status, 1);
    assert_int_equal(r->outlen, 0);
    assert_true(starts_with(r->err, prefix));
    assert_non_null(strstr(r->err + strlen(prefix), substring));
    assert_int_equal(count_lines(r->err), 1);
    assert_int_equal(r->err[r->errlen - 1], '\n');
}

static void test_bad_file(void **state)
{
    const char *path = *state;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char first[512];
    assert_non_null(fgets(first, sizeof first, f));
    fclose(f);
    first[strcspn(first, "\r\n")] = '\0';

    static const char tag[] = "# expect: ";
    assert_true(starts_with(first, tag));
    char *p;
    long line = strtol(first + strlen(tag), &p, 10);
    static const char sep[] = ": error: ";
    assert_true(line >= 1 && starts_with(p, sep));
    const char *substring = p + strlen(sep);
    assert_true(*substring);

    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s:%ld: error: ", path, line);
    run_result r;
    run_hyperdo(&r, NULL, "analyze", path, NULL);
    expect_failure(&r, prefix, substring);
    run_result_free(&r);
}

static void run_input(run_result *r, const char *text, size_t len)
{
    run_hyperdo_input(r, text, len, "analyze", "-", NULL);
}

static void test_stdin_errors(void **state)
{
    (void)state;
    run_result r;
    static const char unknown[] = "n 8\r\nfoo bar\r\n";
    run_input(&r, unknown, sizeof unknown - 1);
    expect_failure(&r, "<stdin>:2: error: ", "unknown directive 'foo'");
    run_result_free(&r);

    run_input(&r, "", 0);
    expect_failure(&r, "<stdin>:1: error: ", "no 'lcc' lines");
    run_result_free(&r);

    static const char nul[] = "n 2\nlcc a perm 1\0 0\n";
    run_input(&r, nul, sizeof nul - 1);
    expect_failure(&r, "<stdin>:2: error: ", "NUL byte");
    run_result_free(&r);

    /* The last line has no newline: its number is still right. */
    static const char last[] = "n 2\n\nlcc a perm 1 1";
    run_input(&r, last, sizeof last - 1);
    expect_failure(&r, "<stdin>:3: error: ", "lists 1 twice");
    run_result_free(&r);
}

static void test_unreadable(void **state)
{
    (void)state;
    run_result r;
    const char *missing = source_path("tests/tools/no-such-file.lcc");
    char expect[4200];
    snprintf(expect, sizeof expect,
             "hyperdo: error: cannot open '%s': No such file or directory\n",
             missing);
    run_hyperdo(&r, NULL, "analyze", missing, NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(r.outlen, 0);
    assert_string_equal(r.err, expect);
    run_result_free(&r);

    /* A directory opens but cannot be read. */
    char dir[] = "/tmp/hyperdo-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64];
    snprintf(sub, sizeof sub, "%s/d.lcc", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    run_hyperdo(&r, NULL, "analyze", sub, NULL);
    snprintf(expect, sizeof expect, "hyperdo: error: cannot read '%s': ",
             sub);
    expect_failure(&r, expect, "directory");
    run_result_free(&r);
    rmdir(sub);
    rmdir(dir);
}

/* Any file that is not a spec goes to the C reader, which must say when it
 * cannot open it. */
static void test_not_a_spec(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "analyze", "x.c", NULL);
    assert_int_equal(r.status, 1);
    assert_int_equal(r.outlen, 0);
    assert_string_equal(r.err, "hyperdo: error: cannot open 'x.c': No such "
                               "file or directory\n");
    run_result_free(&r);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    harness_init(argc, argv);
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s", source_path("tests/tools/bad"));
    DIR *dir = opendir(dirpath);
    if (!dir) {
        perror(dirpath);
        return 99;
    }
    char **paths = NULL;
    int count = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".lcc") != 0)
            continue;
        paths = realloc(paths, (size_t)(count + 1) * sizeof *paths);
        paths[count] = malloc(strlen(dirpath) + len + 2);
        sprintf(paths[count], "%s/%s", dirpath, e->d_name);
        count++;
    }
    closedir(dir);
    qsort(paths, (size_t)count, sizeof *paths, by_name);

    struct CMUnitTest *tests = calloc((size_t)count + 3, sizeof *tests);
    for (int k = 0; k < count; k++) {
        tests[k].name = strrchr(paths[k], '/') + 1;
        tests[k].test_func = test_bad_file;
        tests[k].initial_state = paths[k];
    }
    tests[count].name = "stdin_errors";
    tests[count].test_func = test_stdin_errors;
    tests[count + 1].name = "unreadable";
    tests[count + 1].test_func = test_unreadable;
    tests[count + 2].name = "not_a_spec";
    tests[count + 2].test_func = test_not_a_spec;

    int failed = _cmocka_run_group_tests("cli.errors", tests,
                                         (size_t)count + 3, NULL, NULL);
    for (int k = 0; k < count; k++)
        free(paths[k]);
    free(paths);
    free(tests);
    return failed;
}
