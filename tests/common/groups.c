/*
 * groups.c — see groups.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "groups.h"
#include "harness.h"

static void grow(struct CMUnitTest **tests, int n)
{
    *tests = realloc(*tests, (size_t)n * sizeof **tests);
    if (!*tests)
        abort();
}

void add_test(struct CMUnitTest **tests, int *n, const char *name,
              CMUnitTestFunction fn)
{
    grow(tests, *n + 1);
    struct CMUnitTest t = { name, fn, NULL, NULL, NULL };
    (*tests)[(*n)++] = t;
}

void add_file_tests(struct CMUnitTest **tests, int *n, char **files,
                    int nfiles, CMUnitTestFunction fn)
{
    grow(tests, *n + nfiles);
    for (int k = 0; k < nfiles; k++) {
        struct CMUnitTest t = { files[k], fn, NULL, NULL, files[k] };
        (*tests)[(*n)++] = t;
    }
}

int run_group(const char *prefix, const char *mode, struct CMUnitTest *tests,
              int n)
{
    char *group = xasprintf("%s.%s", prefix, mode);
    int failed = _cmocka_run_group_tests(group, tests, (size_t)n, NULL, NULL);
    free(group);
    free(tests);
    return failed;
}

void free_files(char **files, int nfiles)
{
    for (int k = 0; k < nfiles; k++)
        free(files[k]);
    free(files);
}
