/*
 * cli_report.c — the text report of `hyperdo analyze` runs on every sample
 * under every objective and shows what a student needs: the contention
 * table header, each LCC by name, and the set's ordering R(L_n).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"

static void check_report(const char *path, const char *objective)
{
    run_result r;
    run_hyperdo(&r, NULL, "analyze", "--objective", objective, path, NULL);
    if (r.status != 0)
        fprintf(stderr, "%s: %s", path, r.err);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    assert_true(starts_with(r.out, "Hyperdo analysis of "));
    assert_non_null(strstr(r.out, "T_0"));
    assert_non_null(strstr(r.out, "R(L_"));
    assert_non_null(strstr(r.out, "New address bit k takes old bit r_k"));
    assert_non_null(strstr(r.out, "== Contention before and after"));
    char line[64];
    snprintf(line, sizeof line, "Objective %s:", objective);
    assert_non_null(strstr(r.out, line));
    assert_int_equal(r.out[r.outlen - 1], '\n');
    run_result_free(&r);
}

static void test_samples(void **state)
{
    (void)state;
    static const char *const objectives[] = { "max", "maxsum", "sum" };
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s", source_path("samples/lcc"));
    DIR *dir = opendir(dirpath);
    assert_non_null(dir);
    int seen = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".lcc") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
        for (int k = 0; k < 3; k++)
            check_report(path, objectives[k]);
        seen++;
    }
    closedir(dir);
    assert_true(seen >= 3);
}

/* The paper's numbers as a student reads them off the report. */
static void test_paper_report(void **state)
{
    (void)state;
    run_result r;
    run_hyperdo(&r, NULL, "analyze", source_path("samples/lcc/paper.lcc"),
                NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "== LCC 1 of 3: transpose (line 13) =="));
    assert_non_null(strstr(r.out, "R(L_8) = (0, 4, 2, 6, 1, 5, 3, 7)"));
    assert_non_null(strstr(r.out,
        "  transpose  before    1   2   4   8   8   4   2   1     8\n"));
    assert_non_null(strstr(r.out, "degree T = 8 (Definition 6)"));
    assert_non_null(strstr(r.out, "Class LCP"));
    run_result_free(&r);
}

int main(int argc, char **argv)
{
    harness_init(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_paper_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
