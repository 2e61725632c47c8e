/*
 * translate_test.c — end-to-end tests of `hyperdo translate` (tools/translate.c,
 * docs/codegen.md): its command line, its diagnostics, and the files it
 * writes; and of `hyperdo check` (tools/check.c), which translates a
 * program, builds and runs it both ways, and must say whether the two
 * agree.  Running the translated programs is otherwise tests/e2e's
 * business.
 *
 *     translate_test HYPERDO SOURCE_DIR MODE
 *
 * MODE is one of
 *   usage        misuse exits 2 with "hyperdo: error: ..." and the usage
 *                line on stderr and writes nothing; --help exits 0;
 *   reject       tests/codegen/translate/reject/X.c (errors only translate reports:
 *                `hyperdo analyze` accepts the file) and
 *                tests/frontend/reject/X.c (C and front-end errors): exit 1,
 *                the diagnostics their "// expect:" lines name with the
 *                source line and a caret, no output file;
 *   atomic       a failed run leaves an existing out.c byte-identical and no
 *                out.c.tmp.* behind; a successful one replaces it with a
 *                file whose mode follows the umask;
 *   determinism  the same input and options give the same bytes, also from
 *                another working directory with the same relative path;
 *   depfile      -MD writes a make rule (out.c: in.c headers..., an empty
 *                rule per header) listing every header `$CC -MM` lists,
 *                with make's escapes, that make reads;
 *   compile      tests/codegen/translate/accept/X.c, samples/X.c and
 *                docs/examples/fig1.c translate cleanly and the output
 *                compiles with $CC and $CLANG under -std=c11 -Wall -Wextra
 *                -Werror; #line maps a warning and an error in a doall body
 *                back to the input's line;
 *   names        input names with a space, a quote, a backslash or "*" + "/"
 *                still give a program that compiles;
 *   files        programs of several files: each directory X of
 *                tests/codegen/translate/files/ is a program translate
 *                refuses (translate -MD X/a.c X/b.c ... -o DIR): exit 1,
 *                the diagnostics of each file's "// expect" lines, nothing
 *                written; tests/e2e/twofile translated with -MD into a
 *                directory made for it (the rule names every output and
 *                lists both files and their header), a failed translation
 *                keeps the directory's files, --maps wu is refused, and
 *                `hyperdo check` agrees on it;
 *   check        `hyperdo check` on tests/codegen/translate/check/prog.c (with
 *                prog.h beside it), copied into a fresh directory for each
 *                test, which must hold nothing else afterwards; hyperdo's
 *                TMPDIR is a fresh directory too, which must be empty after
 *                every run (the work directory is removed) except with
 *                --keep.  prog.c's macros make the translated program
 *                differ from the sequential one through HYPERDO_H, the
 *                include guard of hyperdo.h, which only the translated
 *                program includes:
 *       agree      as it is: exit 0 and the one line of agreement on
 *                  stdout (threads; mpi when it is built);
 *       reject     a program translate refuses: exit 1 and exactly the
 *                  diagnostics `hyperdo translate` prints;
 *       usage      misuse: exit 2, "hyperdo: error: ..." and check's usage
 *                  line; --help;
 *       differ     -DDIFFER: exit 1 and line 5, both texts; --keep keeps
 *                  the work directory and names it;
 *       status     -DSTATUS: exit 1, the two exit statuses (sim back end,
 *                  --mapping identity);
 *       crash      -DCRASH: exit 1, the translated program killed by
 *                  SIGSEGV;
 *       timeout    -DLOOP --timeout 2: the sequential program loops and
 *                  ignores SIGTERM; exit 1 well before the loop would end;
 *       build      CC=false: the sequential program does not build; a
 *                  missing --lib.
 *
 * Environment: CC (cc), CLANG (empty: only $CC), MAKE (make); for check
 * also CFLAGS, and HYPERDO_CHECK_MPI=1 when the MPI back end is built
 * (then MPICC, MPIEXEC as for hyperdo check).
 *
 * Reject files: each "// expect: LINE:COL: error: TEXT" line at the top
 * asks for a line "FILE:LINE:COL: error: ...TEXT..." on stderr followed by
 * the source line and a caret under column COL; "// expect-in:
 * HEADER:LINE:COL: error: TEXT" the same in a header the file includes,
 * named relative to its directory; "// expect-file: error: TEXT" a line
 * "FILE: error: ...TEXT..." (a diagnostic about the whole file);
 * "// expect-program: error: TEXT" a line "hyperdo: error: ...TEXT..."
 * (about a program of several files as a whole).
 * Accepted files may start with "// args: ARGS" (hyperdo options).
 */
#define _GNU_SOURCE   /* nftw's FTW_DEPTH/FTW_PHYS, mkdtemp, setenv */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "groups.h"
#include "harness.h"

extern char **environ;

static const char *cc = "cc", *clang = "", *make = "make";
static char tmproot[64];   /* removed at exit */
static int scratch_count;

/* ------------------------------------------------------------- helpers */

static void write_bytes(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot create %s: %s", path, strerror(errno));
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = slurp(from, &len);
    if (!data)
        fail_msg("cannot read %s", from);
    write_bytes(to, data, len);
    free(data);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP || flag == FTW_D)
        chmod(path, 0700), rmdir(path);
    else
        unlink(path);
    return 0;
}

static void remove_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_tmproot(void)
{
    remove_tree(tmproot);
}

/* A new empty directory under the temporary root. */
static char *scratch_dir(void)
{
    char *d = xasprintf("%s/t%d", tmproot, ++scratch_count);
    if (mkdir(d, 0700) != 0)
        fail_msg("mkdir %s: %s", d, strerror(errno));
    return d;
}

static void make_dirs(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0700);
            *s = '/';
        }
    mkdir(p, 0700);
    free(p);
}

/* The names in dir, other than . and .., one per line (sorted is not
 * needed: callers count or look for one). */
static char *list_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("opendir %s: %s", dir, strerror(errno));
    char *all = xstrdup("");
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *more = xasprintf("%s%s\n", all, e->d_name);
        free(all);
        all = more;
    }
    closedir(d);
    return all;
}

/* Names in dir that contain ".tmp." (write_atomically's temporaries). */
static int count_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp.")) {
            fprintf(stderr, "left behind: %s/%s\n", dir, e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

/* A NULL-terminated vector of owned words. */

static void words_addv(words *w, ...)
{
    va_list ap;
    va_start(ap, w);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        words_add(w, s);
    va_end(ap);
}

/* Runs argv (searching PATH) in directory cwd (NULL: this one), stdout
 * and stderr into a new string *log; returns the exit status. */
static int run_program(char *const argv[], const char *cwd, char **log)
{
    char *logpath = xasprintf("%s/log.%d", tmproot, ++scratch_count);
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int in = open("/dev/null", O_RDONLY);
        if (fd < 0 || in < 0 || dup2(in, 0) < 0 || dup2(fd, 1) < 0 ||
            dup2(fd, 2) < 0 || (cwd && chdir(cwd) != 0))
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        fail_msg("waitpid: %s", strerror(errno));
    char *out = slurp(logpath, NULL);
    unlink(logpath);
    free(logpath);
    if (log)
        *log = out ? out : xstrdup("");
    else
        free(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs hyperdo with args in directory cwd (NULL: this one). */
static void run_in(run_result *r, const char *cwd, const char *const *args)
{
    char here[4096];
    if (cwd) {
        if (!getcwd(here, sizeof here) || chdir(cwd) != 0)
            fail_msg("chdir %s: %s", cwd, strerror(errno));
    }
    run_hyperdo_argv(r, NULL, args);
    if (cwd && chdir(here) != 0)
        fail_msg("chdir back: %s", strerror(errno));
}

/* Runs hyperdo with the given words, in cwd. */
static void run_words(run_result *r, const char *cwd, const words *w)
{
    run_in(r, cwd, (const char *const *)w->v);
}

/* Compiles c (with -c) with compiler `compiler` and extra flags; returns
 * the status, the compiler's output in *log. */
static int compile(const char *compiler, const char *c, const char *quote_dir,
                   const char *extra, char **log)
{
    words w = { 0 };
    words_add(&w, compiler);
    words_split(&w, "-std=c11 -Wall -Wextra");
    if (extra)
        words_split(&w, extra);
    words_add(&w, "-I");
    words_add(&w, source_path("runtime/include"));
    if (quote_dir) {
        words_add(&w, "-iquote");
        words_add(&w, quote_dir);
    }
    char *obj = xasprintf("%s/obj.%d.o", tmproot, ++scratch_count);
    words_addv(&w, "-c", c, "-o", obj, NULL);
    int rc = run_program(w.v, NULL, log);
    unlink(obj);
    free(obj);
    words_free(&w);
    return rc;
}

/* The compilers to check the output with: CC, then CLANG if set. */
static int compilers(const char *list[2])
{
    list[0] = cc;
    list[1] = clang;
    return clang[0] ? 2 : 1;
}

/* A small valid input (the accepted antidependences). */
static const char *valid_input(void)
{
    return source_path("tests/codegen/translate/accept/antidependence.c");
}

static const char generated_start[] = "/*\n * Generated by hyperdo translate";

/* "// args: ..." of a file's leading comment lines, added to w. */
static void header_args(const char *text, words *w)
{
    for (int line = 1;; line++) {
        char *s = nth_line(text, line);
        if (!s || strncmp(s, "//", 2) != 0) {
            free(s);
            return;
        }
        if (strncmp(s, "// args:", 8) == 0)
            words_split(w, s + 8);
        free(s);
    }
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? xasprintf("%.*s", (int)(slash - path), path)
                 : xstrdup(".");
}

/* ---------------------------------------------------------------- usage */

/* The usage error contract: exit 2, nothing on stdout, two lines on
 * stderr: "hyperdo: error: ...message..." and the usage line of
 * `hyperdo command`. */
static void expect_usage_error(const run_result *r, const char *command,
                               const char *message)
{
    const char *nl = strchr(r->err, '\n');
    if (r->status != 2 || !strstr(r->err, message))
        fprintf(stderr, "expected usage error '%s': status %d, stderr:\n%s",
                message, r->status, r->err);
    assert_int_equal(r->status, 2);
    assert_int_equal(r->outlen, 0);
    assert_true(starts_with(r->err, "hyperdo: error: "));
    assert_non_null(nl);
    assert_non_null(strstr(r->err, message));
    assert_true(strstr(r->err, message) < nl);
    assert_int_equal(count_lines(r->err), 2);
    char *usage = xasprintf("usage: hyperdo %s ", command);
    assert_true(starts_with(nl + 1, usage));
    free(usage);
}

/* Only in.c (and what `keep` names) is left in dir. */
static void expect_only(const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int extra = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, "in.c") == 0 ||
            (keep && strcmp(e->d_name, keep) == 0))
            continue;
        fprintf(stderr, "unexpected file %s/%s\n", dir, e->d_name);
        extra++;
    }
    closedir(d);
    assert_int_equal(extra, 0);
}

static void test_usage_errors(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *in = xasprintf("%s/in.c", dir), *out = xasprintf("%s/out.c", dir),
         *dep = xasprintf("%s/out.d", dir);
    copy_file(valid_input(), in);
    const struct {
        const char *args[10];
        const char *message;
    } cases[] = {
        { { "translate", in, NULL }, "missing '-o out.c'" },
        { { "translate", "-MD", in, NULL }, "missing '-o out.c'" },
        { { "translate", "-o", out, NULL }, "missing the input file" },
        { { "translate", NULL }, "missing the input file" },
        { { "translate", in, "-o", NULL }, "option '-o' needs a file name" },
        { { "translate", "--frobnicate", in, "-o", out, NULL },
          "unknown option '--frobnicate'" },
        { { "translate", in, "-o", out, "-x", NULL }, "unknown option '-x'" },
        { { "translate", "--", in, "-o", out, NULL }, "unknown option '--'" },
        { { "translate", in, in, "-o", out, NULL }, "two inputs named 'in.c'" },
        { { "translate", in, dep, "-o", "-", NULL },
          "several files cannot go to standard output" },
        { { "translate", in, "-", "-o", dir, NULL }, "standard input has no name" },
        { { "translate", in, dep, NULL }, "missing '-o DIR'" },
        { { "translate", in, "in.c", "-o", dir, NULL }, "two inputs named 'in.c'" },
        { { "translate", "--dim", "0", in, "-o", out, NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "translate", "--dim", "17", in, "-o", out, NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "translate", "--dim=3x", in, "-o", out, NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "translate", "--dim=", in, "-o", out, NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "translate", "--dim", "-1", in, "-o", out, NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "translate", in, "-o", out, "--dim", NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "translate", "--mapping", "best", in, "-o", out, NULL },
          "option '--mapping' needs 'optimal' or 'identity'" },
        { { "translate", "--network", "all", in, "-o", out, NULL },
          "option '--network' needs ecube, omega or butterfly" },
        { { "translate", "--mapping=", in, "-o", out, NULL },
          "option '--mapping' needs 'optimal' or 'identity'" },
        { { "translate", "--maps", "best", in, "-o", out, NULL },
          "option '--maps' needs 'program' or 'wu'" },
        { { "translate", in, "-o", out, "--mapping", NULL },
          "option '--mapping' needs 'optimal' or 'identity'" },
        { { "translate", "--objective", "min", in, "-o", out, NULL },
          "option '--objective' needs max, maxsum or sum" },
        { { "translate", "--objective=", in, "-o", out, NULL },
          "option '--objective' needs max, maxsum or sum" },
        { { "translate", "-MF", dep, in, "-o", out, NULL },
          "'-MF' goes with '-MD'" },
        { { "translate", "-MD", in, "-o", out, "-MF", NULL },
          "option '-MF' needs a file name" },
        { { "translate", in, "-o", out, "-p", NULL },
          "option '-p' needs a build directory" },
        { { "translate", in, "-o", in, NULL }, "would overwrite the input" },
        { { "translate", "-MD", in, "-o", in, NULL },
          "would overwrite the input" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        run_in(&r, NULL, cases[k].args);
        expect_usage_error(&r, "translate", cases[k].message);
        run_result_free(&r);
        expect_only(dir, NULL);
    }
    free(in);
    free(out);
    free(dep);
    free(dir);
}

/* The same file under two spellings is still the same file: the input must
 * never be overwritten, by the program or by the dependency file. */
static void test_usage_same_file(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *in = xasprintf("%s/in.c", dir), *dot_in = xasprintf("%s/./in.c", dir),
         *out = xasprintf("%s/out.c", dir);
    copy_file(valid_input(), in);
    size_t want_len;
    char *want = slurp(in, &want_len);
    const struct {
        const char *args[10];
        const char *what;
    } cases[] = {
        { { "translate", in, "-o", dot_in, NULL }, "-o DIR/./in.c" },
        { { "translate", "-MD", "-MF", in, in, "-o", out, NULL }, "-MF in.c" },
        { { "translate", "-MD", "-MF", out, in, "-o", out, NULL },
          "-MF equal to -o" },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        unlink(out);
        run_result r;
        run_in(&r, NULL, cases[k].args);
        size_t got_len;
        char *got = slurp(in, &got_len);
        bool intact = got && got_len == want_len &&
                      memcmp(got, want, want_len) == 0;
        char *o = slurp(out, NULL);
        bool out_is_rule = o && !starts_with(o, generated_start);
        if (!intact || r.status != 2 || out_is_rule) {
            fprintf(stderr, "%s: status %d (expected 2, a usage error)%s%s\n"
                    "stderr: %s\n", cases[k].what, r.status,
                    intact ? "" : "; the INPUT WAS OVERWRITTEN",
                    out_is_rule ? "; out.c holds the make rule" : "", r.err);
            bad++;
            if (!intact)
                copy_file(valid_input(), in);
        }
        free(o);
        free(got);
        run_result_free(&r);
    }
    free(want);
    free(in);
    free(dot_in);
    free(out);
    free(dir);
    if (bad)
        fail_msg("%d way(s) of naming the input or output twice, above", bad);
}

static void test_help(void **state)
{
    (void)state;
    const char *const variants[][4] = {
        { "translate", "--help", NULL },
        { "translate", "-h", NULL },
        { "translate", "--dim", "3", "--help" },
    };
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        const char *args[5] = { NULL };
        for (int j = 0; j < 4 && variants[k][j]; j++)
            args[j] = variants[k][j];
        run_result r;
        run_in(&r, NULL, args);
        assert_int_equal(r.status, 0);
        assert_int_equal(r.errlen, 0);
        assert_true(starts_with(r.out, "usage: hyperdo translate "));
        assert_non_null(strstr(r.out, "-MD"));
        assert_non_null(strstr(r.out, "--mapping"));
        run_result_free(&r);
    }
}

/* --------------------------------------------------------------- reject */

/* Checks the expectations of a reject file against r; returns how many
 * failed (and prints them). */
static int check_expectations(const char *rel, const char *path,
                              const char *text, const run_result *r)
{
    int bad = 0, expectations = 0;
    int nerr = count_lines(r->err) + 1;
    char **err = calloc((size_t)nerr + 1, sizeof *err);
    if (!err)
        abort();
    for (int k = 1; k <= nerr; k++)
        err[k] = nth_line(r->err, k);
    for (int line = 1;; line++) {
        char *s = nth_line(text, line);
        if (!s || strncmp(s, "//", 2) != 0) {
            free(s);
            break;
        }
        int eline = 0, ecol = 0, used = 0;
        char in[256];
        const char *dpath = path, *dtext = text;
        char *other_path = NULL, *other_text = NULL;
        bool whole_file = false;
        if (sscanf(s, "// expect: %d:%d: error: %n", &eline, &ecol, &used)
            >= 2 && used > 0) {
            /* in the file itself */
        } else if (sscanf(s, "// expect-in: %255[^:]:%d:%d: error: %n", in,
                          &eline, &ecol, &used) >= 3 && used > 0) {
            char *d = dir_of(path);
            other_path = xasprintf("%s/%s", d, in);
            free(d);
            other_text = slurp(other_path, NULL);
            if (!other_text)
                fail_msg("%s: cannot read %s", rel, other_path);
            dpath = other_path;
            dtext = other_text;
        } else if (sscanf(s, "// expect-file: error: %n", &used) >= 0
                   && used > 0) {
            whole_file = true;
        } else if (sscanf(s, "// expect-program: error: %n", &used) >= 0
                   && used > 0) {
            whole_file = true;
            dpath = "hyperdo";
        } else {
            free(s);
            continue;
        }
        expectations++;
        const char *fragment = s + used;
        char *prefix = whole_file ? xasprintf("%s: error: ", dpath)
                       : xasprintf("%s:%d:%d: error: ", dpath, eline, ecol);
        char *source = whole_file ? NULL : nth_line(dtext, eline);
        bool found = false, shown = false;
        for (int k = 1; k <= nerr && !found; k++) {
            const char *d = err[k];
            if (!d || !starts_with(d, prefix) ||
                !strstr(d + strlen(prefix), fragment))
                continue;
            const char *src = k + 1 <= nerr ? err[k + 1] : NULL;
            const char *caret = k + 2 <= nerr ? err[k + 2] : NULL;
            if (whole_file || (src && source && strcmp(src, source) == 0 &&
                               caret_at(caret, ecol))) {
                found = true;
            } else if (!shown) {
                fprintf(stderr, "%s: %s:%d:%d: the diagnostic is not "
                        "followed by the source line and a caret at column "
                        "%d:\n%s\n%s\n%s\n", rel, dpath, eline, ecol, ecol, d,
                        src ? src : "", caret ? caret : "");
                shown = true;
            }
        }
        if (!found) {
            fprintf(stderr, "%s: missing diagnostic %s...%s\n", rel, prefix,
                    fragment);
            bad++;
        }
        free(prefix);
        free(source);
        free(other_path);
        free(other_text);
        free(s);
    }
    if (expectations == 0) {
        fprintf(stderr, "%s: no '// expect:' line\n", rel);
        bad++;
    }
    for (int k = 1; k <= nerr; k++)
        free(err[k]);
    free(err);
    return bad;
}

static void check_reject(void **state)
{
    const char *rel = *state;
    bool translate_only = starts_with(rel, "tests/codegen/translate/");
    char *path = xstrdup(source_path(rel));
    char *text = slurp(path, NULL);
    assert_non_null(text);
    char *dir = scratch_dir();
    char *out = xasprintf("%s/out.c", dir), *dep = xasprintf("%s/out.d", dir);
    const char *args[] = { "translate", "-MD", path, "-o", out, NULL };
    run_result r;
    run_in(&r, NULL, args);
    int bad = 0;
    if (r.status != 1) {
        fprintf(stderr, "%s: exit status %d, expected 1\n", rel, r.status);
        bad++;
    }
    if (r.outlen) {
        fprintf(stderr, "%s: stdout not empty: %.200s\n", rel, r.out);
        bad++;
    }
    if (exists(out) || exists(dep) || count_temporaries(dir)) {
        fprintf(stderr, "%s: files were written in %s\n", rel, dir);
        bad++;
    }
    bad += check_expectations(rel, path, text, &r);
    if (bad)
        fprintf(stderr, "--- stderr of hyperdo translate on %s:\n%s---\n", rel,
                r.err);
    run_result_free(&r);

    /* A translate-only error: the front end itself has nothing against
     * the file (else it belongs in tests/frontend/reject). */
    if (translate_only) {
        const char *aargs[] = { "analyze", "--json", path, NULL };
        run_in(&r, NULL, aargs);
        if (r.status != 0) {
            fprintf(stderr, "%s: hyperdo analyze exits %d on it: not a "
                    "translate-only error:\n%s\n", rel, r.status, r.err);
            bad++;
        }
        run_result_free(&r);
    }
    free(out);
    free(dep);
    free(dir);
    free(path);
    free(text);
    if (bad)
        fail_msg("%s: %d problem(s), listed above", rel, bad);
}

/* --------------------------------------------------------------- atomic */

/* Known bytes an earlier run left in out.c (not a C program at all). */
static const char known[] = "known bytes\n\0\x01\xff of an earlier out.c\n";

static void put_known(const char *path)
{
    unlink(path);
    write_bytes(path, known, sizeof known);
    chmod(path, 0640);
}

static bool still_known(const char *path)
{
    size_t len;
    char *got = slurp(path, &len);
    bool same = got && len == sizeof known && memcmp(got, known, len) == 0;
    free(got);
    struct stat st;
    return same && stat(path, &st) == 0 && (st.st_mode & 07777) == 0640;
}

static const char front_end_error[] =
    "double a[256], b[256];\n"
    "int main(void)\n"
    "{\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i <= 255; i++)\n"
    "        a[i] = b[i];\n"
    "    return 0;\n"
    "}\n";

static const char c_error[] =
    "double a[256], b[256];\n"
    "int main(void)\n"
    "{\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i < 256; i++)\n"
    "        a[i] = b[i] + undeclared;\n"
    "    return 0;\n"
    "}\n";

static const char flow_error[] =
    "double a[256];\n"
    "int main(void)\n"
    "{\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i < 256; i++)\n"
    "        a[i] = a[i ^ 1];\n"
    "    return 0;\n"
    "}\n";

/* --maps wu chooses the data mappings: not over the program's own. */
static const char own_maps[] =
    "#pragma hyperdo network(omega)\n"
    "double a[8], b[8];\n"
    "#pragma hyperdo map(b : rows(3, 2, 4))\n"
    "int main(void)\n"
    "{\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i < 8; i++)\n"
    "        a[i] = b[i ^ 1];\n"
    "    return 0;\n"
    "}\n";

static void test_failures_keep_output(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *out = xasprintf("%s/out.c", dir), *good = xasprintf("%s/good.c", dir),
         *fe = xasprintf("%s/frontend.c", dir), *ce = xasprintf("%s/cerror.c", dir),
         *fl = xasprintf("%s/flow.c", dir), *missing = xasprintf("%s/none.c", dir),
         *baddep = xasprintf("%s/no/such/dir/out.d", dir),
         *om = xasprintf("%s/own_maps.c", dir);
    copy_file(valid_input(), good);
    write_text(om, own_maps);
    write_text(fe, front_end_error);
    write_text(ce, c_error);
    write_text(fl, flow_error);
    const struct {
        const char *what;
        const char *args[10];
        int status;
        const char *message;
    } cases[] = {
        { "usage error", { "translate", "--dim", "0", good, "-o", out, NULL },
          2, "hyperdo: error: option '--dim'" },
        { "front-end error", { "translate", fe, "-o", out, NULL }, 1,
          ":5:" },
        { "C error", { "translate", ce, "-o", out, NULL }, 1,
          "error: use of undeclared identifier 'undeclared'" },
        { "translate-only error", { "translate", fl, "-o", out, NULL }, 1,
          "the loop carries a dependence" },
        { "missing input", { "translate", missing, "-o", out, NULL }, 1,
          "hyperdo: error: cannot open" },
        { "-MD with an unwritable dependency file",
          { "translate", "-MD", "-MF", baddep, good, "-o", out, NULL }, 1,
          "hyperdo: error: " },
        { "--maps wu on the e-cube", { "translate", "--maps", "wu", good, "-o", out, NULL }, 1,
          "hyperdo: error: '--maps wu' needs an omega-class network" },
        { "--maps wu over the program's map pragmas",
          { "translate", "--maps", "wu", om, "-o", out, NULL }, 1,
          "own_maps.c:3:21: error: '--maps wu' chooses the data mappings itself" },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        put_known(out);
        run_result r;
        run_in(&r, NULL, cases[k].args);
        bool ok = r.status == cases[k].status &&
                  strstr(r.err, cases[k].message) != NULL;
        if (!ok)
            fprintf(stderr, "%s: status %d (expected %d), stderr:\n%s\n",
                    cases[k].what, r.status, cases[k].status, r.err);
        if (!still_known(out)) {
            fprintf(stderr, "%s: out.c was changed\n", cases[k].what);
            ok = false;
        }
        if (count_temporaries(dir)) {
            fprintf(stderr, "%s: a temporary file was left\n", cases[k].what);
            ok = false;
        }
        bad += !ok;
        run_result_free(&r);
    }
    free(out);
    free(good);
    free(fe);
    free(ce);
    free(fl);
    free(missing);
    free(baddep);
    free(om);
    free(dir);
    if (bad)
        fail_msg("%d failing run(s) did not leave out.c alone, above", bad);
}

/* Output directories that cannot take the file: out.c is left as it was and
 * no temporary file is left behind. */
static void test_unwritable_output(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *good = xasprintf("%s/good.c", dir), *ro = xasprintf("%s/ro", dir),
         *ro_out = xasprintf("%s/ro/out.c", dir),
         *isdir = xasprintf("%s/isdir", dir),
         *notdir = xasprintf("%s/good.c/out.c", dir),
         *nodir = xasprintf("%s/no/such/out.c", dir);
    copy_file(valid_input(), good);

    /* out.c names an existing directory: the temporary file is written,
     * the rename fails, and the temporary must go. */
    assert_int_equal(mkdir(isdir, 0700), 0);
    const char *a1[] = { "translate", good, "-o", isdir, NULL };
    run_result r;
    run_in(&r, NULL, a1);
    assert_int_equal(r.status, 1);
    assert_true(starts_with(r.err, "hyperdo: error: "));
    run_result_free(&r);
    struct stat st;
    assert_int_equal(stat(isdir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(count_temporaries(dir), 0);

    /* A path through a regular file, and a missing directory. */
    const char *const *more[] = {
        (const char *const[]){ "translate", good, "-o", notdir, NULL },
        (const char *const[]){ "translate", good, "-o", nodir, NULL },
    };
    for (size_t k = 0; k < 2; k++) {
        run_in(&r, NULL, more[k]);
        assert_int_equal(r.status, 1);
        assert_true(starts_with(r.err, "hyperdo: error: "));
        assert_int_equal(r.outlen, 0);
        run_result_free(&r);
    }
    assert_int_equal(count_temporaries(dir), 0);

    /* A read-only directory holding out.c: only meaningful when the
     * permission bits bind, i.e. not as root. */
    assert_int_equal(mkdir(ro, 0700), 0);
    put_known(ro_out);
    assert_int_equal(chmod(ro, 0555), 0);
    bool binding = access(ro, W_OK) != 0;
    if (binding) {
        const char *a2[] = { "translate", good, "-o", ro_out, NULL };
        run_in(&r, NULL, a2);
        assert_int_equal(r.status, 1);
        assert_true(starts_with(r.err, "hyperdo: error: "));
        assert_non_null(strstr(r.err, ro_out));
        run_result_free(&r);
        assert_true(still_known(ro_out));
        assert_int_equal(count_temporaries(ro), 0);
    } else {
        fprintf(stderr, "note: running as root, the read-only directory "
                "case is not checked\n");
    }
    chmod(ro, 0700);
    free(good);
    free(ro);
    free(ro_out);
    free(isdir);
    free(notdir);
    free(nodir);
    free(dir);
}

static void test_success_replaces(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *out = xasprintf("%s/out.c", dir), *good = xasprintf("%s/good.c", dir),
         *dep = xasprintf("%s/out.d", dir);
    copy_file(valid_input(), good);
    put_known(out);
    write_text(dep, "stale: rule\n");
    const char *args[] = { "translate", "-MD", good, "-o", out, NULL };
    run_result r;
    run_in(&r, NULL, args);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    assert_int_equal(r.outlen, 0);
    run_result_free(&r);
    char *got = slurp(out, NULL), *d = slurp(dep, NULL);
    assert_non_null(got);
    assert_true(starts_with(got, generated_start));
    assert_non_null(d);
    assert_true(starts_with(d, out));
    assert_int_equal(count_temporaries(dir), 0);
    free(got);
    free(d);
    free(out);
    free(good);
    free(dep);
    free(dir);
}

/* Like a compiler's output: a new file, mode 0666 minus the umask (also
 * when it replaces a file with another mode, as ld does). */
static void test_mode_follows_umask(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *out = xasprintf("%s/out.c", dir), *dep = xasprintf("%s/out.d", dir),
         *good = xasprintf("%s/good.c", dir);
    copy_file(valid_input(), good);
    const mode_t masks[] = { 022, 077, 027, 0, 002 };
    mode_t saved = umask(022);
    for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++)
        for (int replace = 0; replace < 2; replace++) {
            unlink(out);
            unlink(dep);
            if (replace) {
                put_known(out);
                chmod(out, 0600);
            }
            umask(masks[k]);
            const char *args[] = { "translate", "-MD", good, "-o", out, NULL };
            run_result r;
            run_in(&r, NULL, args);
            umask(022);
            assert_int_equal(r.status, 0);
            run_result_free(&r);
            struct stat so, sd;
            assert_int_equal(stat(out, &so), 0);
            assert_int_equal(stat(dep, &sd), 0);
            mode_t want = 0666 & ~masks[k];
            if ((so.st_mode & 07777) != want || (sd.st_mode & 07777) != want)
                fail_msg("umask %03o%s: out.c has mode %03o, out.d %03o, "
                         "expected %03o", (unsigned)masks[k],
                         replace ? " (replacing a 0600 file)" : "",
                         (unsigned)(so.st_mode & 07777),
                         (unsigned)(sd.st_mode & 07777), (unsigned)want);
        }
    umask(saved);
    free(out);
    free(dep);
    free(good);
    free(dir);
}

/* ---------------------------------------------------------- determinism */

static void check_deterministic(void **state)
{
    const char *rel = *state;
    char *path = xstrdup(source_path(rel));
    char *text = slurp(path, NULL);
    assert_non_null(text);
    char *dir = scratch_dir();
    const char *option_sets[] = { "", "--mapping identity",
                                  "--objective sum", "--objective maxsum" };
    for (size_t k = 0; k < sizeof option_sets / sizeof *option_sets; k++) {
        char *outs[2];
        size_t lens[2];
        /* The same output name both times: it is an input too (the
         * generated code's own #line directives name it). */
        for (int t = 0; t < 2; t++) {
            char *out = xasprintf("%s/out.c", dir);
            words w = { 0 };
            words_add(&w, "translate");
            header_args(text, &w);
            words_split(&w, option_sets[k]);
            words_addv(&w, path, "-o", out, NULL);
            run_result r;
            run_words(&r, NULL, &w);
            if (r.status != 0)
                fail_msg("%s %s: exit %d:\n%s", rel, option_sets[k],
                         r.status, r.err);
            run_result_free(&r);
            words_free(&w);
            outs[t] = slurp(out, &lens[t]);
            assert_non_null(outs[t]);
            free(out);
        }
        if (lens[0] != lens[1] || memcmp(outs[0], outs[1], lens[0]) != 0)
            fail_msg("%s %s: two runs gave different bytes", rel,
                     option_sets[k]);
        free(outs[0]);
        free(outs[1]);
    }
    free(dir);
    free(text);
    free(path);
}

/* The same relative path from two working directories: the same bytes,
 * program and dependency file (headers.c includes inc/sizes.h). */
static void test_other_directory(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    const char *headers[] = { "inc/sizes.h", "inc/layout.h" };
    char *outs[2][2];
    size_t lens[2][2];
    for (int t = 0; t < 2; t++) {
        char *top = xasprintf("%s/%s", dir, t ? "second/place" : "first");
        char *sub = xasprintf("%s/src/inc", top);
        make_dirs(sub);
        char *in = xasprintf("%s/src/headers.c", top);
        copy_file(source_path("tests/codegen/translate/accept/headers.c"), in);
        for (int h = 0; h < 2; h++) {
            char *from = xasprintf("tests/codegen/translate/accept/%s", headers[h]);
            char *to = xasprintf("%s/src/%s", top, headers[h]);
            copy_file(source_path(from), to);
            free(from);
            free(to);
        }
        const char *args[] = { "translate", "--dim", "3", "-MD",
                               "src/headers.c", "-o", "src/out.c", NULL };
        run_result r;
        run_in(&r, top, args);
        if (r.status != 0)
            fail_msg("in %s: exit %d:\n%s", top, r.status, r.err);
        run_result_free(&r);
        char *out = xasprintf("%s/src/out.c", top),
             *dep = xasprintf("%s/src/out.d", top);
        outs[t][0] = slurp(out, &lens[t][0]);
        outs[t][1] = slurp(dep, &lens[t][1]);
        assert_non_null(outs[t][0]);
        assert_non_null(outs[t][1]);
        free(out);
        free(dep);
        free(in);
        free(sub);
        free(top);
    }
    for (int f = 0; f < 2; f++) {
        if (lens[0][f] != lens[1][f] ||
            memcmp(outs[0][f], outs[1][f], lens[0][f]) != 0)
            fail_msg("%s differs between the two directories:\n%s\n---\n%s",
                     f ? "out.d" : "out.c", f ? outs[0][f] : "(program)",
                     f ? outs[1][f] : "(program)");
        free(outs[0][f]);
        free(outs[1][f]);
    }
    free(dir);
}

/* -------------------------------------------------------------- depfile */

static const char md_input[] =
    "#include <stdio.h>\n"
    "#include <hyperdo/bits.h>\n"
    "#include \"inc/h1.h\"\n"
    "#include \"sp dir/h 3.h\"\n"
    "#include \"local.h\"\n"
    "#include \"local.h\"\n"
    "#include \"odd/h$1#.h\"\n"
    "double a[N], b[N];\n"
    "int main(void)\n"
    "{\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i < N; i++)\n"
    "        a[i] = b[reverse(i, 8)] + M + K + L + O;\n"
    "    printf(\"%g\\n\", a[1]);\n"
    "    return 0;\n"
    "}\n";

/* Files of the -MD fixture, relative to its directory. */
static const char *const md_files[][2] = {
    { "inc/h1.h", "#include \"h2.h\"\n#define N 256\n" },
    { "inc/h2.h", "#define M 2\n" },
    { "sp dir/h 3.h", "#define K 3\n" },
    { "local.h", "#pragma once\n#define L 1\n" },
    { "odd/h$1#.h", "#define O 4\n" },
};

static char *md_fixture(void)
{
    char *dir = scratch_dir();
    char *in = xasprintf("%s/in.c", dir);
    write_text(in, md_input);
    free(in);
    for (size_t k = 0; k < sizeof md_files / sizeof *md_files; k++) {
        char *p = xasprintf("%s/%s", dir, md_files[k][0]);
        char *d = dir_of(p);
        make_dirs(d);
        write_text(p, md_files[k][1]);
        free(d);
        free(p);
    }
    return dir;
}

/* A make file as words: rules[k] = { target, prerequisites... }. */
typedef struct {
    words *rules;
    int n;
} rules;

/* Splits make text into rules, joining backslash-newlines and undoing the
 * escapes "\ ", "\#" and "$$".  Only what -MD writes: "target: deps". */
static rules parse_make(const char *text)
{
    rules rs = { NULL, 0 };
    char *joined = malloc(strlen(text) + 1);
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (p[0] == '\\' && p[1] == '\n') {
            joined[n++] = ' ';
            p++;
        } else {
            joined[n++] = *p;
        }
    }
    joined[n] = '\0';
    for (int line = 1;; line++) {
        char *s = nth_line(joined, line);
        if (!s)
            break;
        words w = { 0 };
        char word[4096];
        size_t len = 0;
        bool colon_seen = false;
        for (const char *p = s;; p++) {
            bool end = *p == '\0' || *p == ' ' || *p == '\t' ||
                       (!colon_seen && *p == ':' && (p[1] == ' ' || !p[1]));
            if (end) {
                if (len) {
                    word[len] = '\0';
                    words_add(&w, word);
                    len = 0;
                }
                if (*p == ':')
                    colon_seen = true;
                if (!*p)
                    break;
                continue;
            }
            if (p[0] == '\\' && (p[1] == ' ' || p[1] == '#'))
                p++;
            else if (p[0] == '$' && p[1] == '$')
                p++;
            if (len + 1 < sizeof word)
                word[len++] = *p;
        }
        free(s);
        if (w.n == 0)
            continue;
        if (!colon_seen)
            fail_msg("not a rule: %s", w.v[0]);
        rs.rules = realloc(rs.rules, (size_t)(rs.n + 1) * sizeof *rs.rules);
        rs.rules[rs.n++] = w;
    }
    free(joined);
    return rs;
}

static void rules_free(rules *rs)
{
    for (int k = 0; k < rs->n; k++)
        words_free(&rs->rules[k]);
    free(rs->rules);
}

/* a and b name the same file for make ("./x" is "x"). */
static bool same_name(const char *a, const char *b)
{
    while (starts_with(a, "./"))
        a += 2;
    while (starts_with(b, "./"))
        b += 2;
    return strcmp(a, b) == 0;
}

/* name (relative to dir) resolved, or a copy of it if it does not exist. */
static char *canonical(const char *dir, const char *name)
{
    char *joined = name[0] == '/' ? xstrdup(name)
                                  : xasprintf("%s/%s", dir, name);
    char *real = realpath(joined, NULL);
    if (real) {
        free(joined);
        return real;
    }
    return joined;
}

/* Whether w lists, from its word `from` on, the file `name` (both
 * relative to dir). */
static bool has_file(const char *dir, const words *w, int from,
                     const char *name)
{
    char *want = canonical(dir, name);
    bool found = false;
    for (int k = from; k < w->n && !found; k++) {
        char *got = canonical(dir, w->v[k]);
        found = same_name(w->v[k], name) || strcmp(got, want) == 0;
        free(got);
    }
    free(want);
    return found;
}

static void test_md_rule(void **state)
{
    (void)state;
    char *dir = md_fixture();
    const char *args[] = { "translate", "-MD", "in.c", "-o", "out.c", NULL };
    run_result r;
    run_in(&r, dir, args);
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.err);
    assert_int_equal(r.errlen, 0);
    run_result_free(&r);
    char *dpath = xasprintf("%s/out.d", dir);
    char *text = slurp(dpath, NULL);
    assert_non_null(text);

    /* The escapes, in the text itself. */
    assert_non_null(strstr(text, "sp\\ dir/h\\ 3.h"));
    assert_non_null(strstr(text, "odd/h$$1\\#.h"));

    rules rs = parse_make(text);
    assert_true(rs.n >= 1);
    const words *main_rule = &rs.rules[0];
    assert_string_equal(main_rule->v[0], "out.c");
    assert_true(main_rule->n >= 2);
    assert_string_equal(main_rule->v[1], "in.c");

    /* Every header `cc -MM` lists (all but the system headers), from an
     * independent preprocessor. */
    char *iflag = xasprintf("-I%s", source_path("runtime/include"));
    char *const mm[] = { (char *)cc, "-MM", iflag, "in.c", NULL };
    char *log;
    int rc = run_program(mm, dir, &log);
    if (rc != 0)
        fail_msg("%s -MM failed:\n%s", cc, log);
    rules want = parse_make(log);
    assert_int_equal(want.n, 1);
    /* in.o, in.c, bits.h and the five local headers: else the comparison
     * below would prove nothing */
    assert_true(want.rules[0].n >= 8);
    int missing = 0;
    for (int k = 2; k < want.rules[0].n; k++) {
        const char *h = want.rules[0].v[k];
        if (!has_file(dir, main_rule, 2, h)) {
            fprintf(stderr, "out.d does not list %s\n", h);
            missing++;
        }
    }
    /* ...and an empty rule for each prerequisite but the input. */
    for (int k = 2; k < main_rule->n; k++) {
        bool found = false;
        for (int j = 1; j < rs.n && !found; j++)
            found = rs.rules[j].n == 1 &&
                    strcmp(rs.rules[j].v[0], main_rule->v[k]) == 0;
        if (!found) {
            fprintf(stderr, "no empty rule for %s\n", main_rule->v[k]);
            missing++;
        }
    }
    if (missing)
        fprintf(stderr, "--- out.d:\n%s---\n%s -MM:\n%s---\n", text, cc, log);
    assert_int_equal(missing, 0);
    rules_free(&want);
    rules_free(&rs);
    free(log);
    free(iflag);
    free(text);
    free(dpath);
    free(dir);
}

/* Where the dependency file goes, and the target's escapes. */
static void test_md_names(void **state)
{
    (void)state;
    char *dir = md_fixture();
    const struct {
        const char *args[10];
        const char *depfile;     /* must exist afterwards */
        const char *not_there;   /* must not */
        const char *target;      /* start of its text */
    } cases[] = {
        { { "translate", "-MD", "in.c", "-o", "out.c", NULL }, "out.d", NULL,
          "out.c: in.c" },
        { { "translate", "-MD", "in.c", "-o", "prog.spmd", NULL },
          "prog.spmd.d", "prog.d", "prog.spmd: in.c" },
        { { "translate", "-MD", "-MF", "deps.mk", "in.c", "-o", "x.c", NULL },
          "deps.mk", "x.d", "x.c: in.c" },
        { { "translate", "in.c", "-o", "y.c", "-MF", "sub/y.dep", "-MD",
            NULL }, "sub/y.dep", "y.d", "y.c: in.c" },
        { { "translate", "-MD", "in.c", "-o", "my out.c", NULL }, "my out.d",
          NULL, "my\\ out.c: in.c" },
        { { "translate", "in.c", "-o", "no-md.c", NULL }, NULL, "no-md.d",
          NULL },
    };
    char *sub = xasprintf("%s/sub", dir);
    make_dirs(sub);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        run_in(&r, dir, cases[k].args);
        if (r.status != 0)
            fail_msg("case %zu: exit %d:\n%s", k, r.status, r.err);
        run_result_free(&r);
        if (cases[k].depfile) {
            char *p = xasprintf("%s/%s", dir, cases[k].depfile);
            char *text = slurp(p, NULL);
            if (!text)
                fail_msg("case %zu: no %s", k, cases[k].depfile);
            if (!starts_with(text, cases[k].target))
                fail_msg("case %zu: %s starts '%.40s', expected '%s'", k,
                         cases[k].depfile, text, cases[k].target);
            free(text);
            free(p);
        }
        if (cases[k].not_there) {
            char *p = xasprintf("%s/%s", dir, cases[k].not_there);
            if (exists(p))
                fail_msg("case %zu: %s was written", k, cases[k].not_there);
            free(p);
        }
    }
    free(sub);
    free(dir);
}

static void set_mtime(const char *path, time_t t)
{
    struct timespec ts[2] = { { t, 0 }, { t, 0 } };
    if (utimensat(AT_FDCWD, path, ts, 0) != 0)
        fail_msg("utimensat %s: %s", path, strerror(errno));
}

/* make includes out.d: up to date after translating, out of date when a
 * header (one with a space, one with $ and #) changes, and a deleted
 * header is not an error. */
static void test_md_make(void **state)
{
    (void)state;
    char *dir = md_fixture();
    const char *args[] = { "translate", "-MD", "in.c", "-o", "out.c", NULL };
    run_result r;
    run_in(&r, dir, args);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *mk = xasprintf("%s/Makefile.test", dir);
    write_text(mk, "out.c:\n\t@echo translate again\ninclude out.d\n");

    /* out.c's time must be later than every prerequisite the test does
     * not set: hyperdo/bits.h of the source tree is as new as the
     * checkout, seconds old in a fresh clone.  Times after now only make
     * make warn of clock skew. */
    time_t base = time(NULL) - 100;
    struct stat st;
    if (stat(source_path("runtime/include/hyperdo/bits.h"), &st) == 0 &&
        st.st_mtime >= base)
        base = st.st_mtime + 1;
    char *in = xasprintf("%s/in.c", dir), *out = xasprintf("%s/out.c", dir);
    set_mtime(in, base - 100);
    for (size_t k = 0; k < sizeof md_files / sizeof *md_files; k++) {
        char *p = xasprintf("%s/%s", dir, md_files[k][0]);
        set_mtime(p, base - 100);
        free(p);
    }
    set_mtime(out, base);
    char *const q[] = { (char *)make, "-q", "-f", "Makefile.test", "out.c",
                        NULL };
    char *log;
    int rc = run_program(q, dir, &log);
    if (rc != 0)
        fail_msg("make -q: %d (expected 0, up to date):\n%s", rc, log);
    free(log);

    const char *touched[] = { "sp dir/h 3.h", "odd/h$1#.h", "inc/h2.h", "in.c" };
    for (size_t k = 0; k < sizeof touched / sizeof *touched; k++) {
        char *p = xasprintf("%s/%s", dir, touched[k]);
        set_mtime(p, base + 50);
        rc = run_program(q, dir, &log);
        if (rc != 1)
            fail_msg("after changing '%s', make -q: %d (expected 1):\n%s",
                     touched[k], rc, log);
        free(log);
        set_mtime(p, base - 100);
        free(p);
    }

    /* A header that is gone: the empty rule keeps make going. */
    char *h2 = xasprintf("%s/inc/h2.h", dir);
    unlink(h2);
    char *const build[] = { (char *)make, "-f", "Makefile.test", "out.c",
                            NULL };
    rc = run_program(build, dir, &log);
    if (rc != 0 || !strstr(log, "translate again"))
        fail_msg("with a header deleted, make: %d:\n%s", rc, log);
    free(log);
    free(h2);
    free(in);
    free(out);
    free(mk);
    free(dir);
}

/* -------------------------------------------------------------- compile */

static void check_compiles(void **state)
{
    const char *rel = *state;
    char *path = xstrdup(source_path(rel));
    char *text = slurp(path, NULL);
    assert_non_null(text);
    char *dir = scratch_dir();
    char *out = xasprintf("%s/out.c", dir);
    words w = { 0 };
    words_add(&w, "translate");
    header_args(text, &w);
    words_addv(&w, path, "-o", out, NULL);
    run_result r;
    run_words(&r, NULL, &w);
    words_free(&w);
    if (r.status != 0 || r.errlen)
        fail_msg("%s: translate exit %d, stderr:\n%s", rel, r.status, r.err);
    run_result_free(&r);
    char *quote = dir_of(path);
    const char *list[2];
    int bad = 0;
    for (int c = 0; c < compilers(list); c++) {
        char *log;
        int rc = compile(list[c], out, quote, "-Werror", &log);
        if (rc != 0) {
            fprintf(stderr, "%s: the translation does not compile with %s "
                    "(exit %d):\n%s\n", rel, list[c], rc, log);
            bad++;
        }
        free(log);
    }
    free(quote);
    free(out);
    free(dir);
    free(text);
    free(path);
    if (bad)
        fail_msg("%s: %d compiler(s) reject the output", rel, bad);
}

/* The body's line 14 holds the conversion double -> int, and EXTRA, which
 * a compile with -DEXTRA=no_such_name turns into an error. */
static const char line_input[] =
    "/* #line: diagnostics in the translated body point here. */\n"
    "#include <stdio.h>\n"
    "#ifndef EXTRA\n"
    "#define EXTRA 0\n"
    "#endif\n"
    "double b[256];\n"
    "int q[256];\n"
    "int main(void)\n"
    "{\n"
    "    for (int i = 0; i < 256; i++)\n"
    "        b[i] = i * 0.5;\n"
    "#pragma hyperdo doall\n"
    "    for (int i = 0; i < 256; i++)\n"
    "        q[i] = b[255 - i] * 3 + EXTRA;\n"
    "    printf(\"%d\\n\", q[7]);\n"
    "    return 0;\n"
    "}\n";

static void test_line_directives(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    char *in = xasprintf("%s/in.c", dir), *out = xasprintf("%s/out.c", dir);
    write_text(in, line_input);
    const char *args[] = { "translate", "in.c", "-o", "out.c", NULL };
    run_result r;
    run_in(&r, dir, args);
    if (r.status != 0)
        fail_msg("translate: exit %d:\n%s", r.status, r.err);
    run_result_free(&r);
    char *text = slurp(out, NULL);
    assert_non_null(strstr(text, "\n#line 1 \"in.c\"\n"));
    assert_non_null(strstr(text, "\n#line 14 \"in.c\"\n"));
    /* The body is in the node function, not left in main. */
    char *node = strstr(text, "hd_node_0(const void *hd_arg)");
    assert_non_null(node);
    const char *list[2];
    for (int c = 0; c < compilers(list); c++) {
        char *log;
        int rc = compile(list[c], out, NULL, "-Werror", &log);
        if (rc != 0)
            fail_msg("%s: the clean translation does not compile:\n%s",
                     list[c], log);
        free(log);
        /* A warning in the body: at in.c:14. */
        rc = compile(list[c], out, NULL, "-Wfloat-conversion", &log);
        const char *at = strstr(log, "in.c:14:");
        if (rc != 0 || !at || !strstr(at, "conversion"))
            fail_msg("%s -Wfloat-conversion: expected a warning at in.c:14 "
                     "(exit %d):\n%s", list[c], rc, log);
        free(log);
        /* An error in the body: at in.c:14 too. */
        rc = compile(list[c], out, NULL, "-DEXTRA=no_such_name", &log);
        if (rc == 0 || !strstr(log, "in.c:14:") ||
            !strstr(log, "no_such_name"))
            fail_msg("%s -DEXTRA=no_such_name: expected an error at in.c:14 "
                     "(exit %d):\n%s", list[c], rc, log);
        free(log);
    }
    free(text);
    free(in);
    free(out);
    free(dir);
}

/* ---------------------------------------------------------------- names */

static void check_name(void **state)
{
    const char *name = *state;
    char *dir = scratch_dir();
    char *in = xasprintf("%s/%s", dir, name);
    char *d = dir_of(in);
    make_dirs(d);
    free(d);
    copy_file(valid_input(), in);
    const char *args[] = { "translate", name, "-o", "out.c", NULL };
    run_result r;
    run_in(&r, dir, args);
    if (r.status != 0)
        fail_msg("'%s': translate exit %d:\n%s", name, r.status, r.err);
    run_result_free(&r);
    char *out = xasprintf("%s/out.c", dir);
    const char *list[2];
    for (int c = 0; c < compilers(list); c++) {
        char *log;
        int rc = compile(list[c], out, NULL, "-Werror", &log);
        if (rc != 0)
            fail_msg("input named '%s': the output does not compile with %s "
                     "(the name is not escaped in a comment, #line or string "
                     "literal?):\n%s", name, list[c], log);
        free(log);
    }
    free(out);
    free(in);
    free(dir);
}

/* ---------------------------------------------------------------- check */

/* hyperdo check's program, tests/codegen/translate/check/prog.c (with prog.h),
 * is copied into a fresh directory for each test; its macros make the
 * translated program differ from the sequential one (see prog.c). */

static char *hyperdo_tmp;  /* hyperdo's TMPDIR: new for each check test */

/* hyperdo's TMPDIR from now on: a new empty directory, so that what one
 * failed test leaves there does not fail the next. */
static void fresh_tmpdir(void)
{
    free(hyperdo_tmp);
    hyperdo_tmp = scratch_dir();
    setenv("TMPDIR", hyperdo_tmp, 1);
}

/* A fresh directory holding prog.c and prog.h, and a fresh TMPDIR;
 * returns DIR/prog.c. */
static char *fresh_prog(void)
{
    fresh_tmpdir();
    char *dir = scratch_dir();
    char *c = xasprintf("%s/prog.c", dir), *h = xasprintf("%s/prog.h", dir);
    copy_file(source_path("tests/codegen/translate/check/prog.c"), c);
    copy_file(source_path("tests/codegen/translate/check/prog.h"), h);
    free(h);
    free(dir);
    return c;
}

/* Nothing was written beside prog.c, and the work directory is gone. */
static void expect_clean(const char *prog)
{
    char *dir = dir_of(prog);
    char *names = list_dir(dir);
    if (count_lines(names) != 2 || !strstr(names, "prog.c\n") ||
        !strstr(names, "prog.h\n"))
        fail_msg("hyperdo check wrote beside prog.c; %s holds:\n%s", dir, names);
    free(names);
    free(dir);
    names = list_dir(hyperdo_tmp);
    if (*names)
        fail_msg("hyperdo check left its work directory in %s:\n%s",
                 hyperdo_tmp, names);
    free(names);
}

/* Runs `hyperdo check ARGS... prog -- -DSCALE=2 EXTRA...` (args and extra
 * NULL-terminated, either may be NULL). */
static void run_check(run_result *r, const char *prog,
                      const char *const *args, const char *const *extra)
{
    words w = { 0 };
    words_add(&w, "check");
    for (int k = 0; args && args[k]; k++)
        words_add(&w, args[k]);
    words_addv(&w, prog, "--", "-DSCALE=2", NULL);
    for (int k = 0; extra && extra[k]; k++)
        words_add(&w, extra[k]);
    run_words(r, NULL, &w);
    words_free(&w);
}

/* Exit 1, nothing on stdout, and `message` on stderr. */
static void expect_failure(const run_result *r, const char *message)
{
    if (r->status != 1 || r->outlen != 0 || !strstr(r->err, message))
        fail_msg("expected exit 1 and \"%s\" on stderr; got exit %d,\n"
                 "stdout:\n%s\nstderr:\n%s", message, r->status, r->out,
                 r->err);
}

/* As it is, prog.c gives the same output and exit status both ways. */
static void expect_agreement(const char *const *args, const char *config)
{
    char *prog = fresh_prog();
    run_result r;
    run_check(&r, prog, args, NULL);
    char *want = xasprintf("%s: the translated program (%s) printed what the "
                           "sequential program printed (8 lines, exit "
                           "status 3)\n", prog, config);
    if (r.status != 0 || strcmp(r.out, want) != 0 || r.errlen != 0)
        fail_msg("expected exit 0 and\n%sgot exit %d, stdout:\n%s\nstderr:\n%s",
                 want, r.status, r.out, r.err);
    run_result_free(&r);
    expect_clean(prog);
    free(want);
    free(prog);
}

static void test_check_agree_threads(void **state)
{
    (void)state;
    expect_agreement(NULL, "dim 3, mapping optimal, threads");
}

static void test_check_agree_mpi(void **state)
{
    (void)state;
    const char *args[] = { "--backend=mpi", "--dim", "3", NULL };
    expect_agreement(args, "dim 3, mapping optimal, mpi");
}

/* A program translate refuses: exactly translate's diagnostics. */
static void test_check_reject(void **state)
{
    (void)state;
    char *path = xstrdup(source_path("tests/codegen/translate/reject/flow_xor.c"));
    char *out = xasprintf("%s/reject.spmd.c", tmproot);
    fresh_tmpdir();
    run_result t, c;
    const char *translate[] = { "translate", path, "-o", out, NULL };
    run_in(&t, NULL, translate);
    const char *check[] = { "check", path, NULL };
    run_in(&c, NULL, check);
    assert_int_equal(t.status, 1);
    assert_true(t.errlen > 0);
    if (c.status != 1 || c.outlen != 0 || strcmp(c.err, t.err) != 0)
        fail_msg("expected exit 1 and translate's diagnostics:\n%s"
                 "got exit %d, stdout:\n%s\nstderr:\n%s", t.err, c.status,
                 c.out, c.err);
    run_result_free(&t);
    run_result_free(&c);
    char *names = list_dir(hyperdo_tmp);
    assert_string_equal(names, "");
    free(names);
    free(out);
    free(path);
}

static void test_check_usage(void **state)
{
    (void)state;
    char *prog = fresh_prog();
    const struct {
        const char *args[6];
        const char *message;
    } cases[] = {
        { { "check", NULL }, "missing the input file" },
        { { "check", "--backend", "gpu", prog, NULL },
          "option '--backend' needs threads, mpi or sim" },
        { { "check", prog, "--backend", NULL },
          "option '--backend' needs threads, mpi or sim" },
        { { "check", "--timeout", "0", prog, NULL },
          "option '--timeout' needs a number of seconds above 0" },
        { { "check", "--timeout=2s", prog, NULL },
          "option '--timeout' needs a number of seconds above 0" },
        { { "check", "--include=", prog, NULL },
          "option '--include' needs a directory" },
        { { "check", prog, "--lib", NULL }, "option '--lib' needs a library" },
        { { "check", "--dim", "17", prog, NULL },
          "option '--dim' needs an integer from 1 to 16" },
        { { "check", "--mapping", "best", prog, NULL },
          "option '--mapping' needs 'optimal' or 'identity'" },
        { { "check", "--objective=min", prog, NULL },
          "option '--objective' needs max, maxsum or sum" },
        { { "check", prog, "-o", "out.c", NULL }, "unknown option '-o'" },
        { { "check", "--", prog, NULL }, "unknown option '--'" },
        { { "check", prog, prog, NULL }, "two files named 'prog.c'" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        run_in(&r, NULL, cases[k].args);
        expect_usage_error(&r, "check", cases[k].message);
        run_result_free(&r);
    }
    expect_clean(prog);
    free(prog);

    const char *help[] = { "check", "--dim", "3", "-h", NULL };
    run_result r;
    run_in(&r, NULL, help);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    assert_true(starts_with(r.out, "usage: hyperdo check "));
    assert_non_null(strstr(r.out, "pkg-config"));
    assert_non_null(strstr(r.out, "--timeout"));
    run_result_free(&r);
}

/* The path after "the work files are in " on stderr (new string). */
static char *kept_dir(const char *err)
{
    const char *p = strstr(err, "hyperdo: note: the work files are in ");
    if (!p)
        return NULL;
    p += strlen("hyperdo: note: the work files are in ");
    return xasprintf("%.*s", (int)strcspn(p, "\n"), p);
}

/* -DDIFFER: line 5 differs, both texts are shown; --keep keeps the work
 * directory and names it. */
static void test_check_differ(void **state)
{
    (void)state;
    char *prog = fresh_prog();
    const char *args[] = { "--keep", NULL }, *extra[] = { "-DDIFFER", NULL };
    run_result r;
    run_check(&r, prog, args, extra);
    char *error = xasprintf("%s: error: the translated program (dim 3, mapping "
                            "optimal, threads) printed something else at line "
                            "5 of its output\n", prog);
    char *seq = xasprintf("%s: note: the sequential program printed "
                          "\"b[4] = 27\"\n", prog);
    char *spmd = xasprintf("%s: note: the translated program printed "
                           "\"b[4] = -1\"\n", prog);
    expect_failure(&r, error);
    char *at = strstr(r.err, error);
    if (!strstr(at, seq) || !strstr(at, spmd))
        fail_msg("expected both texts of line 5:\n%s%sstderr:\n%s", seq, spmd,
                 r.err);
    assert_null(strstr(r.err, "exited with status"));

    /* --keep: the directory is named, under TMPDIR, with the translation. */
    char *kept = kept_dir(r.err);
    if (!kept || !starts_with(kept, hyperdo_tmp))
        fail_msg("--keep: expected the work directory under %s; stderr:\n%s",
                 hyperdo_tmp, r.err);
    char *spmd_c = xasprintf("%s/prog.spmd.c", kept);
    char *text = slurp(spmd_c, NULL);
    if (!text || !starts_with(text, generated_start))
        fail_msg("--keep: no translated program in %s", kept);
    free(text);
    remove_tree(kept);
    expect_clean(prog);
    free(spmd_c);
    free(kept);
    free(error);
    free(seq);
    free(spmd);
    run_result_free(&r);
    free(prog);
}

/* -DSTATUS: only the exit statuses differ. */
static void test_check_status(void **state)
{
    (void)state;
    char *prog = fresh_prog();
    /* On the other back end and mapping, which then agree but for this. */
    const char *args[] = { "--backend", "sim", "--mapping=identity", NULL };
    const char *extra[] = { "-DSTATUS", NULL };
    run_result r;
    run_check(&r, prog, args, extra);
    char *want = xasprintf("%s: error: the translated program (dim 3, mapping "
                           "identity, sim) exited with status 4, the "
                           "sequential program with status 3\n", prog);
    expect_failure(&r, want);
    assert_null(strstr(r.err, "printed something else"));
    run_result_free(&r);
    expect_clean(prog);
    free(want);
    free(prog);
}

/* -DCRASH: the translated program dies of SIGSEGV. */
static void test_check_crash(void **state)
{
    (void)state;
    char *prog = fresh_prog();
    const char *extra[] = { "-DCRASH", NULL };
    run_result r;
    run_check(&r, prog, NULL, extra);
    char *want = xasprintf("%s: error: the translated program (dim 3, mapping "
                           "optimal, threads) was killed by SIGSEGV", prog);
    expect_failure(&r, want);
    run_result_free(&r);
    expect_clean(prog);
    free(want);
    free(prog);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* -DLOOP --timeout 2: the sequential program loops and ignores SIGTERM;
 * check gives up well before the loop would end. */
static void test_check_timeout(void **state)
{
    (void)state;
    char *prog = fresh_prog();
    const char *args[] = { "--timeout", "2", NULL }, *extra[] = { "-DLOOP", NULL };
    run_result r;
    double start = seconds();
    run_check(&r, prog, args, extra);
    double took = seconds() - start;
    char *want = xasprintf("%s: error: the sequential program did not finish "
                           "within 2 seconds (--timeout)\n", prog);
    expect_failure(&r, want);
    /* The translated program does not loop: nothing is said of it. */
    assert_null(strstr(r.err, "the translated program"));
    /* 2 s, 2 s more for SIGTERM it ignores, the builds: far below 30. */
    if (took > 30)
        fail_msg("hyperdo check --timeout 2 took %.1f s", took);
    run_result_free(&r);
    expect_clean(prog);
    free(want);
    free(prog);
}

/* CC=false: the sequential program does not build; a missing --lib. */
static void test_check_build_failures(void **state)
{
    (void)state;
    char *prog = fresh_prog();
    char *saved_cc = getenv("CC") ? xstrdup(getenv("CC")) : NULL;
    setenv("CC", "false", 1);
    run_result r;
    run_check(&r, prog, NULL, NULL);
    if (saved_cc)
        setenv("CC", saved_cc, 1);
    else
        unsetenv("CC");
    char *want = xasprintf("%s: error: the sequential program does not build "
                           "with 'false'\n", prog);
    expect_failure(&r, want);
    run_result_free(&r);
    free(want);

    char *lib = xasprintf("%s/no-such-library.a", tmproot);
    const char *args[] = { "--lib", lib, NULL };
    run_check(&r, prog, args, NULL);
    want = xasprintf("hyperdo: error: the run-time library '%s': No such file",
                     lib);
    expect_failure(&r, want);
    run_result_free(&r);
    expect_clean(prog);
    free(want);
    free(lib);
    free(saved_cc);
    free(prog);
}

/* ----------------------------------------------------------------- main */

/* accept/X.c, samples/X.c and docs/examples/fig1.c. */
static int accepted_inputs(char ***out)
{
    char **a, **s;
    int na = list_c_files("tests/codegen/translate/accept", &a);
    int ns = list_c_files("samples", &s);
    char **all = malloc((size_t)(na + ns + 1) * sizeof *all);
    if (!all)
        abort();
    memcpy(all, a, (size_t)na * sizeof *a);
    memcpy(all + na, s, (size_t)ns * sizeof *s);
    all[na + ns] = xstrdup("docs/examples/fig1.c");
    free(a);
    free(s);
    *out = all;
    return na + ns + 1;
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v ? v : fallback;
}

/* translate --maps wu: where the chosen mappings do not make the whole
 * program cheaper (maps/no_gain.c), the program written is the one
 * written without --maps wu but for the header's note saying why; where
 * they do (tests/e2e/wu_maps.c on the 4-cube), the header names them as
 * chosen, and the output is the same bytes every time. */
static char *translate_to(const char *dir, const char *in, const char *const *opts)
{
    char *out = xasprintf("%s/out.c", dir);
    const char *args[16] = { "translate" };
    int k = 1;
    for (; *opts; opts++)
        args[k++] = *opts;
    args[k++] = in;
    args[k++] = "-o";
    args[k++] = out;
    args[k] = NULL;
    run_result r;
    run_in(&r, NULL, args);
    if (r.status != 0)
        fail_msg("translate failed: %s", r.err);
    run_result_free(&r);
    char *text = slurp(out, NULL);
    free(out);
    return text;
}

/* text without the header's lines from the " *" before "--maps wu:" to
 * the end of that note, and without the #line directives back to the
 * output itself (the note moves them). */
static char *without_note(const char *text)
{
    char *copy = xstrdup(text);
    char *at = strstr(copy, " *\n * --maps wu:");
    if (at) {
        char *end = strstr(at, "none applied.\n");
        assert_non_null(end);
        end += strlen("none applied.\n");
        memmove(at, end, strlen(end) + 1);
    }
    char *w = copy;
    for (const char *line = copy; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        bool own = strncmp(line, "#line ", 6) == 0 && strstr(line, "out.c\"") &&
                   strstr(line, "out.c\"") < line + len;
        if (!own) {
            memmove(w, line, len);
            w += len;
        }
        line += len;
    }
    *w = '\0';
    return copy;
}

static void test_maps_wu(void **state)
{
    (void)state;
    char *dir = scratch_dir();
    const char *no_gain = source_path("tests/codegen/translate/maps/no_gain.c");
    char *plain = translate_to(dir, no_gain, (const char *const[]){ NULL });
    char *wu = translate_to(dir, no_gain, (const char *const[]){ "--maps", "wu", NULL });
    assert_non_null(strstr(wu, "none applied."));
    char *stripped = without_note(wu), *plain_stripped = without_note(plain);
    assert_string_equal(stripped, plain_stripped);
    free(plain_stripped);
    free(plain);
    free(wu);
    free(stripped);
    const char *prog = source_path("tests/e2e/wu_maps.c");
    const char *const opts[] = { "--maps", "wu", "--network", "omega", "--dim", "4", NULL };
    char *first = translate_to(dir, prog, opts);
    char *second = translate_to(dir, prog, opts);
    assert_non_null(strstr(first, "--maps wu: the data mappings below come from Algorithm II"));
    assert_non_null(strstr(first, "(chosen: --maps wu)"));
    assert_string_equal(first, second);
    free(first);
    free(second);
    free(dir);
}

/* ---------------------------------------------------------------- files */

/* The directories of tests/codegen/translate/files, sorted. */
static int list_program_dirs(const char *dir, char ***out)
{
    DIR *d = opendir(source_path(dir));
    if (!d)
        fail_msg("cannot open %s", source_path(dir));
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (size_t)(n + 1) * sizeof *names);
        if (!names)
            abort();
        names[n++] = xasprintf("%s/%s", dir, e->d_name);
    }
    closedir(d);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    *out = names;
    return n;
}

/* A program of several files translate refuses: exit 1, each file's
 * expectations, and nothing written (the output directory not even
 * made). */
static void check_files_reject(void **state)
{
    const char *rel = *state;
    char **files = NULL;
    int nfiles = list_c_files(rel, &files);
    assert_true(nfiles >= 2);
    char *dir = scratch_dir();
    char *out = xasprintf("%s/out", dir), *dep = xasprintf("%s/out.d", dir);
    words w = { 0 };
    words_addv(&w, "translate", "-MD", NULL);
    for (int k = 0; k < nfiles; k++)
        words_add(&w, source_path(files[k]));
    words_addv(&w, "-o", out, NULL);
    run_result r;
    run_words(&r, NULL, &w);
    int bad = 0, with = 0;
    if (r.status != 1) {
        fprintf(stderr, "%s: exit status %d, expected 1\n", rel, r.status);
        bad++;
    }
    if (r.outlen || exists(out) || exists(dep) || count_temporaries(dir)) {
        fprintf(stderr, "%s: something was written\n", rel);
        bad++;
    }
    for (int k = 0; k < nfiles; k++) {
        char *path = xstrdup(source_path(files[k]));
        char *text = slurp(path, NULL);
        assert_non_null(text);
        if (strstr(text, "// expect")) {
            with++;
            bad += check_expectations(files[k], path, text, &r);
        }
        free(path);
        free(text);
    }
    if (!with) {
        fprintf(stderr, "%s: no file has an '// expect' line\n", rel);
        bad++;
    }
    if (bad)
        fprintf(stderr, "--- stderr of hyperdo translate on %s:\n%s---\n", rel, r.err);
    run_result_free(&r);
    words_free(&w);
    free_files(files, nfiles);
    free(out);
    free(dep);
    free(dir);
    if (bad)
        fail_msg("%s: %d problem(s), listed above", rel, bad);
}

static const char *const twofile[] = { "main.c", "kernels.c", "kernels.h" };

/* tests/e2e/twofile copied into a fresh directory. */
static char *twofile_fixture(void)
{
    char *dir = scratch_dir();
    for (size_t k = 0; k < sizeof twofile / sizeof *twofile; k++) {
        char *from = xasprintf("tests/e2e/twofile/%s", twofile[k]);
        char *to = xasprintf("%s/%s", dir, twofile[k]);
        copy_file(source_path(from), to);
        free(from);
        free(to);
    }
    return dir;
}

/* -MD into a directory that does not exist yet: both outputs, and the
 * rule out/a/main.c out/a/kernels.c: main.c kernels.c kernels.h ...,
 * which make reads. */
static void test_files_md(void **state)
{
    (void)state;
    char *dir = twofile_fixture();
    const char *args[] = { "translate", "-MD", "--dim", "3", "main.c", "kernels.c", "-o",
                           "out/a", NULL };
    run_result r;
    run_in(&r, dir, args);
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.err);
    run_result_free(&r);
    char *main_out = xasprintf("%s/out/a/main.c", dir), *kernels_out =
        xasprintf("%s/out/a/kernels.c", dir), *dpath = xasprintf("%s/out/a.d", dir);
    char *m = slurp(main_out, NULL), *k = slurp(kernels_out, NULL), *d = slurp(dpath, NULL);
    assert_non_null(m);
    assert_non_null(k);
    assert_non_null(d);
    assert_true(starts_with(m, generated_start));
    assert_true(starts_with(k, generated_start));
    /* The program's tables are in the file with main, its record of the
     * arrays shared. */
    assert_non_null(strstr(m, "int main(int argc, char **argv)"));
    assert_null(strstr(k, "int main(int argc, char **argv)"));
    assert_non_null(strstr(m, "\nunsigned char hd_where["));
    assert_non_null(strstr(k, "extern unsigned char hd_where["));
    rules rs = parse_make(d);
    assert_true(rs.n >= 2);
    const words *rule = &rs.rules[0];
    assert_true(rule->n >= 5);
    assert_string_equal(rule->v[0], "out/a/main.c");
    assert_string_equal(rule->v[1], "out/a/kernels.c");
    assert_string_equal(rule->v[2], "main.c");
    assert_string_equal(rule->v[3], "kernels.c");
    assert_true(has_file(dir, rule, 4, "kernels.h"));
    char *const mk[] = { (char *)make, "-s", "-n", "-f", "out/a.d", "out/a/main.c", NULL };
    char *log;
    int rc = run_program(mk, dir, &log);
    if (rc != 0)
        fail_msg("make cannot read out/a.d:\n%s\n--- out/a.d:\n%s", log, d);
    free(log);
    free(m);
    free(k);
    free(d);
    free(main_out);
    free(kernels_out);
    free(dpath);
    free(dir);
}

/* A failed translation of several files keeps the directory's files as
 * they were and leaves no temporary; --maps wu is refused. */
static void test_files_keep(void **state)
{
    (void)state;
    char *dir = twofile_fixture();
    char *out = xasprintf("%s/out", dir), *main_out = xasprintf("%s/out/main.c", dir);
    make_dirs(out);
    char *bad = xasprintf("%s/bad.c", dir);
    write_text(bad, "double a[256];\nint main(void) { return 0; }\n");
    const struct {
        const char *args[10];
        const char *message;
    } cases[] = {
        { { "translate", "main.c", "kernels.c", "bad.c", "-o", "out", NULL },
          "main is also defined in main.c" },
        { { "translate", "--maps", "wu", "--network", "omega", "main.c", "kernels.c", "-o",
            "out", NULL }, "hyperdo: error: '--maps wu' is not supported yet" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        put_known(main_out);
        run_result r;
        run_in(&r, dir, cases[k].args);
        if (r.status != 1 || !strstr(r.err, cases[k].message))
            fail_msg("%s: exit %d, stderr:\n%s", cases[k].message, r.status, r.err);
        run_result_free(&r);
        assert_true(still_known(main_out));
        char *names = list_dir(out);
        assert_string_equal(names, "main.c\n");
        free(names);
        assert_int_equal(count_temporaries(out), 0);
    }
    free(bad);
    free(out);
    free(main_out);
    free(dir);
}

/* hyperdo check builds both programs from all the files. */
static void test_files_check(void **state)
{
    (void)state;
    char *dir = twofile_fixture();
    fresh_tmpdir();
    const char *args[] = { "check", "--dim", "3", "main.c", "kernels.c", NULL };
    run_result r;
    run_in(&r, dir, args);
    if (r.status != 0 || !strstr(r.out, "printed what the sequential program printed"))
        fail_msg("exit %d, stdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    run_result_free(&r);
    char *names = list_dir(hyperdo_tmp);
    assert_string_equal(names, "");
    free(names);
    free(dir);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s HYPERDO SOURCE_DIR usage|reject|atomic|"
                "determinism|depfile|compile|names|files|check\n", argv[0]);
        return 99;
    }
    harness_init(argc, argv);
    if (argv[1][0] != '/') {
        fprintf(stderr, "%s: HYPERDO must be an absolute path (tests change "
                "directory)\n", argv[0]);
        return 99;
    }
    const char *mode = argv[3];
    cc = env_or("CC", "cc");
    clang = env_or("CLANG", "");
    make = env_or("MAKE", "make");
    if (!*cc)
        cc = "cc";
    umask(022);
    strcpy(tmproot, "/tmp/hyperdo-translate-XXXXXX");
    if (!mkdtemp(tmproot)) {
        perror("mkdtemp");
        return 99;
    }
    atexit(remove_tmproot);

    struct CMUnitTest *tests = NULL;
    int n = 0;
    char **files = NULL, **more = NULL;
    int nfiles = 0, nmore = 0;
    if (strcmp(mode, "usage") == 0) {
        add_test(&tests, &n, "usage_errors", test_usage_errors);
        add_test(&tests, &n, "same_file_other_spelling", test_usage_same_file);
        add_test(&tests, &n, "help", test_help);
    } else if (strcmp(mode, "reject") == 0) {
        nfiles = list_c_files("tests/codegen/translate/reject", &files);
        add_file_tests(&tests, &n, files, nfiles, check_reject);
        nmore = list_c_files("tests/frontend/reject", &more);
        add_file_tests(&tests, &n, more, nmore, check_reject);
    } else if (strcmp(mode, "atomic") == 0) {
        add_test(&tests, &n, "failures_keep_output", test_failures_keep_output);
        add_test(&tests, &n, "unwritable_output", test_unwritable_output);
        add_test(&tests, &n, "success_replaces", test_success_replaces);
        add_test(&tests, &n, "mode_follows_umask", test_mode_follows_umask);
    } else if (strcmp(mode, "determinism") == 0) {
        nfiles = accepted_inputs(&files);
        add_file_tests(&tests, &n, files, nfiles, check_deterministic);
        add_test(&tests, &n, "other_directory", test_other_directory);
        add_test(&tests, &n, "maps_wu", test_maps_wu);
    } else if (strcmp(mode, "depfile") == 0) {
        add_test(&tests, &n, "rule_lists_headers", test_md_rule);
        add_test(&tests, &n, "file_names", test_md_names);
        add_test(&tests, &n, "make_reads_it", test_md_make);
    } else if (strcmp(mode, "compile") == 0) {
        nfiles = accepted_inputs(&files);
        add_file_tests(&tests, &n, files, nfiles, check_compiles);
        add_test(&tests, &n, "line_directives", test_line_directives);
    } else if (strcmp(mode, "names") == 0) {
        static char *names[] = { "with space.c", "quote\"d.c",
                                 "back\\slash.c", "star*/end.c" };
        add_file_tests(&tests, &n, names, 4, check_name);
    } else if (strcmp(mode, "files") == 0) {
        nfiles = list_program_dirs("tests/codegen/translate/files", &files);
        add_file_tests(&tests, &n, files, nfiles, check_files_reject);
        add_test(&tests, &n, "md_into_new_directory", test_files_md);
        add_test(&tests, &n, "failures_keep_directory", test_files_keep);
        add_test(&tests, &n, "check_agrees", test_files_check);
    } else if (strcmp(mode, "check") == 0) {
        add_test(&tests, &n, "agree_threads", test_check_agree_threads);
        const char *mpi = getenv("HYPERDO_CHECK_MPI");
        if (mpi && strcmp(mpi, "1") == 0)
            add_test(&tests, &n, "agree_mpi", test_check_agree_mpi);
        add_test(&tests, &n, "reject", test_check_reject);
        add_test(&tests, &n, "usage", test_check_usage);
        add_test(&tests, &n, "differ", test_check_differ);
        add_test(&tests, &n, "status_sim_identity", test_check_status);
        add_test(&tests, &n, "crash", test_check_crash);
        add_test(&tests, &n, "timeout", test_check_timeout);
        add_test(&tests, &n, "build_failures", test_check_build_failures);
    } else {
        fprintf(stderr, "unknown mode '%s'\n", mode);
        return 99;
    }
    if (n == 0) {
        fprintf(stderr, "no tests for mode %s\n", mode);
        return 1;
    }
    int failed = run_group("translate", mode, tests, n);
    /* The tests' states point into the lists: free them last. */
    free_files(files, nfiles);
    free_files(more, nmore);
    free(hyperdo_tmp);
    return failed;
}
