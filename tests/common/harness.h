/*
 * harness.h — running the hyperdo binary from the CLI tests and capturing
 * what it prints.  Every test program is started as
 *     PROGRAM HYPERDO_BINARY SOURCE_DIR
 * (see CMakeLists.txt) and calls harness_init first.
 */
#ifndef HYPERDO_CLI_HARNESS_H
#define HYPERDO_CLI_HARNESS_H

#include <stdbool.h>
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

/* Helpers the test drivers share (tests/frontend, tests/codegen/translate); each
 * aborts on out of memory. */
char *xstrdup(const char *s);
__attribute__((format(printf, 1, 2)))
char *xasprintf(const char *fmt, ...);
/* Line `line` (1-based) of text, without its newline, in a new string;
 * NULL past the end (a text ending in a newline has one more, empty line). */
char *nth_line(const char *text, int line);

/* A NULL-terminated, growing list of strings. */
typedef struct {
    char **v;
    int n, cap;
} words;
void words_add(words *w, const char *s);
void words_split(words *w, const char *s);   /* at blanks */
void words_free(words *w);

/* The whole file, NUL-terminated (*len, when not NULL, without the NUL),
 * or NULL when it cannot be opened. */
char *slurp(const char *path, size_t *len);

/* The header comments of a test input (its first lines that start with
 * //): "// args: ARGS" gives hyperdo's arguments, then clang's after "--";
 * "// compdb: FLAGS" the flags of a compile_commands.json for it. */
typedef struct {
    words before;   /* hyperdo arguments before the file */
    words after;    /* clang arguments (after "--") */
    words compdb;   /* flags for a generated compile_commands.json */
} input_header;
void read_input_header(const char *text, input_header *h);
void input_header_free(input_header *h);

/* The *.c files of SOURCE_DIR/dir, sorted, as paths relative to
 * SOURCE_DIR (exits 99 when dir cannot be read). */
int list_c_files(const char *dir, char ***out);
/* Is `line` a caret line (blanks, '~' and '^') with its '^' at column col? */
bool caret_at(const char *line, int col);

#endif
