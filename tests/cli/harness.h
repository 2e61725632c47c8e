/*
 * harness.h — running the hyperdo binary from the CLI tests and capturing
 * what it prints.  Every test program is started as
 *     PROGRAM HYPERDO_BINARY SOURCE_DIR
 * (see CMakeLists.txt) and calls harness_init first.
 */
#ifndef HYPERDO_CLI_HARNESS_H
#define HYPERDO_CLI_HARNESS_H

#include <stddef.h>

typedef struct {
    int status;     /* exit status, or 128 + signal number */
    char *out;      /* all of stdout, NUL-terminated */
    size_t outlen;
    char *err;      /* all of stderr, NUL-terminated */
    size_t errlen;
} run_result;

void harness_init(int argc, char **argv);
const char *hyperdo_binary(void);
/* SOURCE_DIR/relative, in a buffer that lives until the next call. */
const char *source_path(const char *relative);

/* Runs hyperdo with the given arguments (a NULL-terminated list).  Its
 * stdin is the file stdin_path, or /dev/null when that is NULL. */
void run_hyperdo(run_result *r, const char *stdin_path, ...);
/* The same with stdin fed from `len` bytes of `input`. */
void run_hyperdo_input(run_result *r, const char *input, size_t len, ...);
/* The same with an argument vector (args[0] is the first argument). */
void run_hyperdo_argv(run_result *r, const char *stdin_path,
                      const char *const *args);
void run_result_free(run_result *r);

/* Number of '\n' in s. */
int count_lines(const char *s);
int starts_with(const char *s, const char *prefix);

#endif
