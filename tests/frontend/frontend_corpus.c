/*
 * frontend_corpus.c — runs `hyperdo analyze` on the annotated C files of
 * tests/frontend (docs/annotations.md) and checks what it says.
 *
 *     frontend_corpus HYPERDO SOURCE_DIR MODE [CC]
 *
 * MODE is one of
 *   corpus   every tests/frontend/X.c with an X.expect.json: exit 0, empty
 *            stderr, and the JSON on stdout agrees with X.expect.json on
 *            every field the expectation holds (an lccs entry's
 *            "reason_contains" is a substring of its "reason");
 *   reject   every tests/frontend/reject/X.c: exit 1, empty stdout, and for
 *            each "// expect: LINE:COL: error: TEXT" line at its top, a line
 *            "FILE:LINE:COL: error: ...TEXT..." on stderr followed by the
 *            source line and a caret under column COL ("// expect-in:
 *            HEADER:LINE:COL: error: TEXT" for a diagnostic located in a
 *            file it includes, HEADER relative to its directory); with a
 *            line "// only the expected errors" among them, no other;
 *   sys      every tests/frontend/sys/X.c (real programs with system
 *            headers): exit 0, nothing on stderr, a JSON object on stdout;
 *   compile  every accepted and sys file built with CC -std=c11 -Wall
 *            -Wextra -Werror (and -Wno-unknown-pragmas: C11 6.10.6 says an
 *            unknown pragma is ignored, -Wall only says so aloud) and run:
 *            the annotated program is still a valid sequential C program.
 *
 * Header comments of a corpus file (first lines starting with //):
 *   // args: ARGS       extra hyperdo arguments; those after a "--" go after
 *                       the file (clang arguments) and to CC as well;
 *   // compdb: FLAGS    write a compile_commands.json holding FLAGS for the
 *                       file in a temporary directory and pass -p DIR.
 * Each file is one cmocka test, named after it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "groups.h"
#include "harness.h"

extern char **environ;

static const char *source_dir, *cc = "cc";
static char tmpdir[64];

/* Driver sources living beside the corpus, which are not corpus files. */
static const char *const not_corpus[] = { "frontend_corpus.c", "test_bits.c", "test_cfront.c",
                                           "test_mesh.c", "test_spec.c", "test_stages.c" };

/* ------------------------------------------------------------- helpers */

/* A NULL-terminated vector of words; words are owned. */

/* Runs argv (searching PATH) with stdout and stderr into `log`; returns the
 * exit status, or 128 + signal. */
static int run_program(char *const argv[], const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(rc));
        return 127;
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return 127;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static bool is_driver_source(const char *rel)
{
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    for (size_t k = 0; k < sizeof not_corpus / sizeof *not_corpus; k++)
        if (strcmp(base, not_corpus[k]) == 0)
            return true;
    return false;
}

/* X.c -> X.expect.json, relative to SOURCE_DIR. */
static char *expect_path(const char *rel)
{
    return xasprintf("%.*s.expect.json", (int)(strlen(rel) - 2), rel);
}

static bool has_expectation(const char *rel)
{
    char *e = expect_path(rel);
    bool ok = access(source_path(e), R_OK) == 0;
    free(e);
    return ok;
}

/* ------------------------------------------------------- running hyperdo */

/* Runs `hyperdo analyze --json BEFORE... [-p DIR] FILE [-- AFTER...]`. */
static void analyze(run_result *r, const char *rel, const input_header *h)
{
    words args = { 0 };
    words_add(&args, "analyze");
    words_add(&args, "--json");
    for (int k = 0; k < h->before.n; k++)
        words_add(&args, h->before.v[k]);
    char *file = xstrdup(source_path(rel));
    if (h->compdb.n) {
        char *db = xasprintf("%s/compile_commands.json", tmpdir);
        FILE *f = fopen(db, "w");
        assert_non_null(f);
        json_t *cmd = json_array();
        json_array_append_new(cmd, json_string(cc));
        json_array_append_new(cmd, json_string("-std=c11"));
        for (int k = 0; k < h->compdb.n; k++)
            json_array_append_new(cmd, json_string(h->compdb.v[k]));
        json_array_append_new(cmd, json_string("-c"));
        json_array_append_new(cmd, json_string(file));
        json_t *entry = json_pack("{s:s, s:s, s:o}", "directory",
                                  source_path("tests/frontend"), "file", file,
                                  "arguments", cmd);
        json_t *all = json_array();
        json_array_append_new(all, entry);
        json_dumpf(all, f, JSON_INDENT(2));
        json_decref(all);
        fclose(f);
        free(db);
        words_add(&args, "-p");
        words_add(&args, tmpdir);
    }
    words_add(&args, file);
    if (h->after.n) {
        words_add(&args, "--");
        for (int k = 0; k < h->after.n; k++)
            words_add(&args, h->after.v[k]);
    }
    run_hyperdo_argv(r, NULL, (const char *const *)args.v);
    free(file);
    words_free(&args);
}

/* ------------------------------------------------------------- corpus */

static int mismatches;

__attribute__((format(printf, 2, 3)))
static void mismatch(const char *rel, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "MISMATCH %s: ", rel);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    mismatches++;
}

static char *dump(const json_t *j)
{
    return j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY)
             : xstrdup("(absent)");
}

static void compare_field(const char *rel, const char *where, const char *key,
                          const json_t *want, const json_t *got)
{
    if (got && json_equal((json_t *)want, (json_t *)got))
        return;
    char *w = dump(want), *g = dump(got);
    mismatch(rel, "%s.%s: expected %s, got %s", where, key, w, g);
    free(w);
    free(g);
}

/* Every field of the spec JSON an LCC entry keeps, plus the C reader's. */
static const char *const lcc_keys[] = {
    "name", "class", "kind", "bpc", "rank", "A", "b", "contention_before",
    "contention_after", "alone_order", "alone_contention", "array", "line",
    "col", "loop_line",
};
static const char *const general_keys[] = {
    "name", "class", "reason", "array", "line", "col", "loop_line",
};

static void compare_entry(const char *rel, int k, json_t *want, json_t *got)
{
    char where[32];
    snprintf(where, sizeof where, "lccs[%d]", k);
    int before = mismatches;
    const char *key;
    json_t *value;
    json_t *wclass = json_object_get(want, "class"),
           *gclass = json_object_get(got, "class");
    if (!json_equal(wclass, gclass)) {
        /* One line says it all; the other fields would only follow. */
        compare_field(rel, where, "class", wclass, gclass);
        const char *reason = json_string_value(json_object_get(got, "reason"));
        if (reason)
            fprintf(stderr, "  reason: %s\n", reason);
        return;
    }
    json_object_foreach(want, key, value) {
        if (strcmp(key, "reason_contains") == 0) {
            const char *reason = json_string_value(json_object_get(got,
                                                                   "reason"));
            if (!reason || !strstr(reason, json_string_value(value)))
                mismatch(rel, "%s.reason: expected to contain \"%s\", got "
                         "\"%s\"", where, json_string_value(value),
                         reason ? reason : "(absent)");
        } else {
            compare_field(rel, where, key, value, json_object_get(got, key));
        }
    }
    bool general = strcmp(json_string_value(json_object_get(want, "class")),
                          "general") == 0;
    const char *const *keys = general ? general_keys : lcc_keys;
    size_t nkeys = general ? sizeof general_keys / sizeof *general_keys
                           : sizeof lcc_keys / sizeof *lcc_keys;
    for (size_t j = 0; j < nkeys; j++)
        if (!json_object_get(got, keys[j]))
            mismatch(rel, "%s: field \"%s\" is missing", where, keys[j]);
    if (general && (json_object_get(got, "A") || json_object_get(got, "b")))
        mismatch(rel, "%s: a general entry has A or b", where);
    if (mismatches > before) {
        char *g = dump(got);
        fprintf(stderr, "  actual %s: %s\n", where, g);
        free(g);
    }
}

static void check_accept(void **state)
{
    const char *rel = *state;
    char *text = slurp(source_path(rel), NULL);
    assert_non_null(text);
    input_header h;
    read_input_header(text, &h);
    char *epath = expect_path(rel);
    json_error_t jerr;
    json_t *want = json_load_file(source_path(epath), 0, &jerr);
    if (!want)
        fail_msg("%s: %s", epath, jerr.text);

    run_result r;
    analyze(&r, rel, &h);
    int before = mismatches;
    if (r.status != 0)
        mismatch(rel, "exit status %d, expected 0", r.status);
    if (r.errlen)
        mismatch(rel, "unexpected stderr:\n%s", r.err);
    json_t *got = json_loads(r.out, 0, &jerr);
    if (!got) {
        mismatch(rel, "stdout is not JSON (%s): %.300s", jerr.text, r.out);
    } else {
        const char *key;
        json_t *value;
        json_object_foreach(want, key, value)
            if (strcmp(key, "lccs") != 0)
                compare_field(rel, "top", key, value,
                              json_object_get(got, key));
        for (size_t j = 0; j < 3; j++) {
            const char *top[] = { "objective", "order", "cost" };
            if (!json_object_get(got, top[j]))
                mismatch(rel, "field \"%s\" is missing", top[j]);
        }
        json_t *wl = json_object_get(want, "lccs"),
               *gl = json_object_get(got, "lccs");
        if (!json_is_array(gl)) {
            mismatch(rel, "no lccs array");
        } else {
            size_t nw = json_array_size(wl), ng = json_array_size(gl);
            if (nw != ng)
                mismatch(rel, "%zu lccs entries, expected %zu", ng, nw);
            for (size_t k = 0; k < nw && k < ng; k++)
                compare_entry(rel, (int)k, json_array_get(wl, k),
                              json_array_get(gl, k));
            for (size_t k = nw; k < ng; k++) {
                char *g = dump(json_array_get(gl, k));
                fprintf(stderr, "  extra lccs[%zu]: %s\n", k, g);
                free(g);
            }
            for (size_t k = ng; k < nw; k++) {
                char *w = dump(json_array_get(wl, k));
                fprintf(stderr, "  missing lccs[%zu]: %s\n", k, w);
                free(w);
            }
        }
        json_decref(got);
    }
    json_decref(want);
    run_result_free(&r);
    input_header_free(&h);
    free(epath);
    free(text);
    if (mismatches > before)
        fail_msg("%s: %d mismatch(es), listed above", rel,
                 mismatches - before);
}

/* -------------------------------------------------------------- reject */

static void check_reject(void **state)
{
    const char *rel = *state;
    char *text = slurp(source_path(rel), NULL);
    assert_non_null(text);
    char *path = xstrdup(source_path(rel));
    run_result r;
    words args = { 0 };
    words_add(&args, "analyze");
    words_add(&args, "--json");
    words_add(&args, path);
    run_hyperdo_argv(&r, NULL, (const char *const *)args.v);
    words_free(&args);

    int bad = 0, expectations = 0;
    /* stderr as lines err[1 .. nerr] */
    int nerr = count_lines(r.err) + 1;
    char **err = calloc((size_t)nerr + 1, sizeof *err);
    if (!err)
        abort();
    for (int k = 1; k <= nerr; k++)
        err[k] = nth_line(r.err, k);
    if (r.status != 1) {
        fprintf(stderr, "%s: exit status %d, expected 1\n", rel, r.status);
        bad++;
    }
    if (r.outlen) {
        fprintf(stderr, "%s: stdout not empty: %.200s\n", rel, r.out);
        bad++;
    }
    for (int line = 1;; line++) {
        char *s = nth_line(text, line);
        if (!s || strncmp(s, "//", 2) != 0) {
            free(s);
            break;
        }
        int eline, ecol, used = 0;
        char in[256];
        const char *dpath = path, *dtext = text;
        char *other_path = NULL, *other_text = NULL;
        if (sscanf(s, "// expect: %d:%d: error: %n", &eline, &ecol, &used) >= 2
            && used > 0) {
            /* a diagnostic in the file itself */
        } else if (sscanf(s, "// expect-in: %255[^:]:%d:%d: error: %n", in,
                          &eline, &ecol, &used) >= 3 && used > 0) {
            /* in a file included by it, named relative to its directory */
            const char *slash = strrchr(path, '/');
            int dirlen = slash ? (int)(slash - path) : 1;
            other_path = xasprintf("%.*s/%s", dirlen, slash ? path : ".", in);
            other_text = slurp(other_path, NULL);
            if (!other_text)
                fail_msg("%s: cannot read %s", rel, other_path);
            dpath = other_path;
            dtext = other_text;
        } else {
            free(s);
            continue;
        }
        expectations++;
        const char *fragment = s + used;
        char *prefix = xasprintf("%s:%d:%d: error: ", dpath, eline, ecol);
        char *source = nth_line(dtext, eline);
        bool found = false, shown = false;
        for (int k = 1; k <= nerr && !found; k++) {
            const char *d = err[k];
            if (!starts_with(d, prefix) || !strstr(d + strlen(prefix),
                                                    fragment))
                continue;
            const char *src = k + 1 <= nerr ? err[k + 1] : NULL;
            const char *caret = k + 2 <= nerr ? err[k + 2] : NULL;
            if (src && source && strcmp(src, source) == 0
                && caret_at(caret, ecol)) {
                found = true;
            } else if (!shown) {
                fprintf(stderr, "%s: %s:%d:%d: the diagnostic is not "
                        "followed by the source line and a caret at column "
                        "%d:\n%s\n%s\n%s\n", rel, dpath, eline, ecol, ecol,
                        d, src ? src : "", caret ? caret : "");
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
    /* "// only the expected errors": no follow-on error either. */
    if (strstr(text, "\n// only the expected errors\n")) {
        int errors = 0;
        for (int k = 1; k <= nerr; k++)
            errors += strstr(err[k], ": error: ") != NULL;
        if (errors != expectations) {
            fprintf(stderr, "%s: %d errors, expected only the %d named\n", rel,
                    errors, expectations);
            bad++;
        }
    }
    if (bad)
        fprintf(stderr, "--- stderr of hyperdo on %s:\n%s---\n", rel, r.err);
    for (int k = 1; k <= nerr; k++)
        free(err[k]);
    free(err);
    run_result_free(&r);
    free(path);
    free(text);
    if (bad)
        fail_msg("%s: %d problem(s), listed above", rel, bad);
}

/* ----------------------------------------------------------------- sys */

static void check_sys(void **state)
{
    const char *rel = *state;
    input_header h;
    memset(&h, 0, sizeof h);
    run_result r;
    analyze(&r, rel, &h);
    json_error_t jerr;
    json_t *got = json_loads(r.out, 0, &jerr);
    bool ok = r.status == 0 && r.errlen == 0 && json_is_object(got)
              && json_is_array(json_object_get(got, "lccs"));
    if (!ok)
        fprintf(stderr, "%s: exit status %d (expected 0), stderr:\n%s\n"
                "stdout:\n%.400s\n", rel, r.status, r.err, r.out);
    json_decref(got);
    run_result_free(&r);
    if (!ok)
        fail_msg("%s: not analysed cleanly", rel);
}

/* ------------------------------------------------------------- compile */

static void check_compile(void **state)
{
    const char *rel = *state;
    char *text = slurp(source_path(rel), NULL);
    assert_non_null(text);
    input_header h;
    read_input_header(text, &h);
    char *exe = xasprintf("%s/prog", tmpdir);
    char *log = xasprintf("%s/log", tmpdir);
    words args = { 0 };
    words_add(&args, cc);
    words_split(&args, "-std=c11 -Wall -Wextra -Werror -Wno-unknown-pragmas");
    words_add(&args, "-I");
    words_add(&args, source_path("runtime/include"));
    for (int k = 0; k < h.after.n; k++)
        words_add(&args, h.after.v[k]);
    for (int k = 0; k < h.compdb.n; k++)
        words_add(&args, h.compdb.v[k]);
    words_add(&args, "-o");
    words_add(&args, exe);
    words_add(&args, source_path(rel));
    words_add(&args, "-lm");
    int rc = run_program(args.v, log);
    if (rc != 0) {
        char *out = slurp(log, NULL);
        fprintf(stderr, "%s: %s exited with %d:\n%s\n", rel, cc, rc,
                out ? out : "");
        free(out);
    } else {
        char *const run[] = { exe, NULL };
        rc = run_program(run, log);
        if (rc != 0) {
            char *out = slurp(log, NULL);
            fprintf(stderr, "%s: the program exited with %d:\n%s\n", rel, rc,
                    out ? out : "");
            free(out);
        }
        unlink(exe);
    }
    unlink(log);
    words_free(&args);
    input_header_free(&h);
    free(exe);
    free(log);
    free(text);
    if (rc != 0)
        fail_msg("%s does not build or run as sequential C", rel);
}

/* ---------------------------------------------------------------- main */

/* The accepted corpus; a .c file without expectation is an error (it
 * would otherwise be silently untested). */
static int accepted_files(char ***out)
{
    char **all;
    int n = list_c_files("tests/frontend", &all), m = 0;
    for (int k = 0; k < n; k++) {
        if (is_driver_source(all[k])) {
            free(all[k]);
        } else if (!has_expectation(all[k])) {
            fprintf(stderr, "%s has no %s: add one\n", all[k],
                    expect_path(all[k]));
            exit(1);
        } else {
            all[m++] = all[k];
        }
    }
    *out = all;
    return m;
}

static void remove_tmpdir(void)
{
    char *p = xasprintf("%s/compile_commands.json", tmpdir);
    unlink(p);
    free(p);
    rmdir(tmpdir);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s HYPERDO SOURCE_DIR "
                "corpus|reject|sys|compile [CC]\n", argv[0]);
        return 99;
    }
    harness_init(argc, argv);
    source_dir = argv[2];
    const char *mode = argv[3];
    if (argc > 4)
        cc = argv[4];
    strcpy(tmpdir, "/tmp/hyperdo-frontend-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 99;
    }
    atexit(remove_tmpdir);

    struct CMUnitTest *tests = NULL;
    int n = 0;
    char **files = NULL, **more = NULL;
    int nfiles = 0, nmore = 0;
    if (strcmp(mode, "corpus") == 0) {
        nfiles = accepted_files(&files);
        add_file_tests(&tests, &n, files, nfiles, check_accept);
    } else if (strcmp(mode, "reject") == 0) {
        nfiles = list_c_files("tests/frontend/reject", &files);
        add_file_tests(&tests, &n, files, nfiles, check_reject);
    } else if (strcmp(mode, "sys") == 0) {
        nfiles = list_c_files("tests/frontend/sys", &files);
        add_file_tests(&tests, &n, files, nfiles, check_sys);
    } else if (strcmp(mode, "compile") == 0) {
        nfiles = accepted_files(&files);
        add_file_tests(&tests, &n, files, nfiles, check_compile);
        nmore = list_c_files("tests/frontend/sys", &more);
        add_file_tests(&tests, &n, more, nmore, check_compile);
    } else {
        fprintf(stderr, "unknown mode '%s'\n", mode);
        return 99;
    }
    if (n == 0) {
        fprintf(stderr, "no test files found under %s\n", source_dir);
        return 1;
    }
    int failed = run_group("frontend", mode, tests, n);
    /* The tests' states point into the lists: free them last. */
    free_files(files, nfiles);
    free_files(more, nmore);
    return failed;
}
