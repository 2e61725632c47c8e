/*
 * test_runtime.c — runs rt_prog (threads) or rt_prog_mpi under mpiexec
 * and checks what each scenario prints and its exit status.
 *
 *     test_runtime --prog PATH [--mpiexec PATH --max-dim N] GROUP
 *
 * GROUP is one of permute, large, scatter, mapping, exchange, layout,
 * exit, errors (ctest runs each as runtime.BACKEND.GROUP).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *prog;
static const char *mpiexec; /* NULL: the threads back end */
static int max_dim = 6;

typedef struct {
    int status; /* exit status, or 128 + signal */
    char *out, *err;
} run_result;

static char *slurp(int fd)
{
    size_t len = 0, cap = 4096;
    char *s = malloc(cap);
    ssize_t k;
    lseek(fd, 0, SEEK_SET);
    while ((k = read(fd, s + len, cap - len - 1)) > 0) {
        len += (size_t)k;
        if (cap - len < 2)
            s = realloc(s, cap *= 2);
    }
    s[len] = '\0';
    close(fd);
    return s;
}

static int temp_file(void)
{
    char path[] = "/tmp/hd_rt_testXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    return fd;
}

/* Runs the program on 2^nprocs_dim processors (mpiexec -n 2^np for MPI)
 * with the given arguments after the program's path. */
static run_result run_np(int np, const char *const *args)
{
    const char *argv[32];
    char npbuf[16];
    int k = 0, out = temp_file(), err = temp_file(), st;
    pid_t pid;
    run_result r;

    if (mpiexec) {
        snprintf(npbuf, sizeof npbuf, "%d", np);
        argv[k++] = mpiexec;
        argv[k++] = "-n";
        argv[k++] = npbuf;
    }
    argv[k++] = prog;
    for (int i = 0; args[i]; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    fflush(stdout);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out, 1);
        dup2(err, 2);
        execv(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        assert_int_equal(errno, EINTR);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

static run_result run(const char *scenario, int n, int map, const char *arg)
{
    char nbuf[16], mbuf[16];
    const char *args[] = { scenario, nbuf, mbuf, arg, NULL };
    snprintf(nbuf, sizeof nbuf, "%d", n);
    snprintf(mbuf, sizeof mbuf, "%d", map);
    return run_np(1 << n, args);
}

static void show(const char *what, const run_result *r)
{
    print_message("%s: status %d\n--- stdout\n%s--- stderr\n%s---\n", what, r->status, r->out,
                  r->err);
}

static void free_result(run_result *r)
{
    free(r->out);
    free(r->err);
}

/* The scenario succeeded and printed "SCENARIO ok". */
static void expect_ok(const char *scenario, int n, int map, const char *arg)
{
    char want[64], what[128];
    run_result r = run(scenario, n, map, arg);
    snprintf(want, sizeof want, "%s ok n=%d", scenario, n);
    snprintf(what, sizeof what, "%s n=%d map=%d %s", scenario, n, map, arg ? arg : "");
    if (r.status != 0 || !strstr(r.out, want))
        show(what, &r);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, want));
    free_result(&r);
}

/* The program stopped with status 1 and the documented message. */
static void expect_error(const run_result *r, const char *what, const char *needle)
{
    if (r->status != 1 || !strstr(r->err, "hyperdo: error: ") || !strstr(r->err, needle))
        show(what, r);
    assert_int_equal(r->status, 1);
    assert_non_null(strstr(r->err, "hyperdo: error: "));
    assert_non_null(strstr(r->err, needle));
}

static int top(int n)
{
    return n < max_dim ? n : max_dim;
}

/* ----------------------------------------------------- the tests */

static void test_permute(void **state)
{
    (void)state;
    for (int n = 1; n <= max_dim; n++) {
        expect_ok("permute", n, 0, NULL);
        expect_ok("permute", n, 1, NULL);
    }
}

static void test_large(void **state)
{
    (void)state;
    /* Every processor sends to all others before receiving anything. */
    expect_ok("alltoall", top(3), 0, "16");
    expect_ok("alltoall", top(2), 1, "64");
}

static void test_scatter(void **state)
{
    (void)state;
    for (int n = 0; n <= top(3); n++)
        expect_ok("scatter", n, n & 1, NULL);
    expect_ok("scatter", top(3), 0, NULL);
}

static void test_mapping(void **state)
{
    (void)state;
    for (int n = 1; n <= top(3); n++)
        expect_ok("mapping", n, 1, NULL);
    expect_ok("mapping", top(2), 0, NULL);
}

static void test_exchange(void **state)
{
    (void)state;
    for (int n = 0; n <= top(4); n++)
        expect_ok("exchange", n, n & 1, NULL);
    expect_ok("exchange", top(3), 0, NULL);
    for (int n = 0; n <= top(4); n++) {
        expect_ok("groups", n, n & 1, NULL);
        expect_ok("requests", n, n & 1, NULL);
        expect_ok("alias", n, n & 1, NULL);
    }
}

/* A 2^n x 2^n matrix under a skewed layout that is no bit field (owner
 * xi(i) XOR j), scattered, read in place, asked for and gathered back
 * (rt_prog's layout scenario checks each placement by brute force). */
static void test_layout(void **state)
{
    (void)state;
    for (int n = 0; n <= top(4); n++)
        expect_ok("layout", n, n & 1, NULL);
    expect_ok("layout", top(3), 0, NULL);
    /* Remaps (hd_relayout, hd_set_layout) between a block and two layouts
     * that data mappings give it (rt_prog's relayout scenario). */
    for (int n = 0; n <= top(4); n++)
        expect_ok("relayout", n, n & 1, NULL);
    expect_ok("relayout", top(3), 0, NULL);
}

static void test_exit(void **state)
{
    run_result r;
    (void)state;
    r = run("exit_return", top(2), 1, "3");
    if (r.status != 3 || !strstr(r.out, "main returns 3\n"))
        show("exit_return", &r);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.out, "main returns 3\n"));
    free_result(&r);

    r = run("exit_return", top(2), 0, "0");
    assert_int_equal(r.status, 0);
    free_result(&r);

    r = run("exit_call", top(3), 1, "3");
    if (r.status != 3 || !strstr(r.out, "calling exit(3)\n") || strstr(r.err, "BAD TERMINATION"))
        show("exit_call", &r);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.out, "calling exit(3)\n"));
    assert_null(strstr(r.err, "BAD TERMINATION"));
    free_result(&r);
}

static void test_errors(void **state)
{
    run_result r;
    int n = top(2);
    (void)state;
    r = run("err_send_range", n, 0, NULL);
    expect_error(&r, "err_send_range", "v_send to virtual processor 4: out of range 0 .. 3");
    assert_non_null(strstr(r.out, "before the error"));
    assert_null(strstr(r.out, "after the error"));
    free_result(&r);

    r = run("err_send_range", n, 1, "neg");
    expect_error(&r, "err_send_range neg", "v_send to virtual processor -1: out of range");
    free_result(&r);

    r = run("err_recv_range", n, 0, NULL);
    expect_error(&r, "err_recv_range", "v_receive from virtual processor 4: out of range");
    free_result(&r);

    r = run("err_size", n, 1, NULL);
    expect_error(&r, "err_size",
                 "v_receive from virtual processor 0: the message has 8 bytes, 16 expected");
    /* The message names the program and the receiver (virtual 1). */
    assert_non_null(strstr(r.err, "rt_prog.c: processor "));
    assert_non_null(strstr(r.err, "(virtual 1): v_receive"));
    free_result(&r);

    r = run("err_take", n, 0, NULL);
    expect_error(&r, "err_take", "hd_take");
    free_result(&r);

    r = run("err_doall_range", n, 0, NULL);
    expect_error(&r, "err_doall_range", "hd_doall: doall 99 out of range");
    free_result(&r);

    r = run("err_request_owner", n, 1, NULL);
    expect_error(&r, "err_request_owner",
                 "hd_request: element 0 of array cyc8 is not on virtual processor 1");
    free_result(&r);

    if (mpiexec) {
        /* A 2^2-processor program started on 3 ranks. */
        const char *args[] = { "permute", "2", NULL };
        r = run_np(3, args);
        expect_error(&r, "wrong rank count",
                     "started with 3 MPI ranks, but the program runs on 2^2 = 4 processors: "
                     "run it with mpiexec -n 4");
        free_result(&r);
    }
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest all[] = {
        cmocka_unit_test(test_permute), cmocka_unit_test(test_large),
        cmocka_unit_test(test_scatter), cmocka_unit_test(test_mapping),
        cmocka_unit_test(test_exchange), cmocka_unit_test(test_layout),
        cmocka_unit_test(test_exit),     cmocka_unit_test(test_errors),
    };
    static const char *const names[] = { "permute",  "large",  "scatter", "mapping",
                                         "exchange", "layout", "exit",    "errors" };
    const char *group = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--prog") == 0 && i + 1 < argc)
            prog = argv[++i];
        else if (strcmp(argv[i], "--mpiexec") == 0 && i + 1 < argc)
            mpiexec = argv[++i];
        else if (strcmp(argv[i], "--max-dim") == 0 && i + 1 < argc)
            max_dim = atoi(argv[++i]);
        else
            group = argv[i];
    }
    if (!prog) {
        fprintf(stderr, "usage: test_runtime --prog PATH [--mpiexec PATH] [--max-dim N] "
                        "[GROUP]\n");
        return 64;
    }
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        if (!group || strcmp(group, names[k]) == 0) {
            if (group)
                return _cmocka_run_group_tests(names[k], &all[k], 1, NULL, NULL) != 0;
        }
    }
    if (group) {
        fprintf(stderr, "test_runtime: unknown group %s\n", group);
        return 64;
    }
    return cmocka_run_group_tests_name(mpiexec ? "runtime.mpi" : "runtime.threads", all, NULL,
                                       NULL);
}
