/*
 * groups.h — the cmocka group of a test driver that makes one test per
 * input file (tests/frontend, tests/codegen/translate).  Include after cmocka.h.
 */
#ifndef HYPERDO_CLI_GROUPS_H
#define HYPERDO_CLI_GROUPS_H

/* A test named `name`, without state. */
void add_test(struct CMUnitTest **tests, int *n, const char *name,
              CMUnitTestFunction fn);
/* One test per file, named by it, with the file (a string) as its state:
 * the list must outlive the run. */
void add_file_tests(struct CMUnitTest **tests, int *n, char **files,
                    int nfiles, CMUnitTestFunction fn);
/* Runs the tests as the group PREFIX.MODE and frees the array; returns
 * the number that failed. */
int run_group(const char *prefix, const char *mode, struct CMUnitTest *tests,
              int n);
/* Frees a file list and its strings. */
void free_files(char **files, int nfiles);

#endif
