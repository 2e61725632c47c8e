/*
 * bench_frontend.c — time and peak memory of `hyperdo analyze --json` on a
 * C file against `clang -fsyntax-only` on the same file with the same
 * compiler arguments, both measured in this run, alternately, after one
 * untimed warm-up of each (which also checks that both succeed).
 *
 * Prints, for each command, the best and median wall time over the runs,
 * the median CPU time (user + system) and the peak resident set size (the
 * largest ru_maxrss of its runs), then the ratios hyperdo / clang.  The
 * target is a wall-time ratio of at most 1.30 (the figure); the
 * program exits 0 either way, unless a command fails (status 1).
 *
 * usage: bench_frontend [--runs N] [--hyperdo PATH] [--clang PATH]
 *                       FILE [-- COMPILER ARGS...]
 */
#define _DEFAULT_SOURCE     /* wait4 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 101
#define TARGET_RATIO 1.30

typedef struct {
    const char *name;
    char *env;             /* NAME=VALUE set in the child, or NULL */
    char **argv;
    double wall[MAX_RUNS];
    double cpu[MAX_RUNS];
    long maxrss_kb;
} command;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + tv.tv_usec * 1e-6;
}

/* Runs c once with stdout to /dev/null and stderr to `errpath`; records
 * run number `r` (unless r < 0).  Returns the exit status, or -1. */
static int run_once(command *c, int r, const char *errpath)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_frontend: fork");
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (null < 0 || err < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0)
            _exit(126);
        if (c->env)
            putenv(c->env);
        execvp(c->argv[0], c->argv);
        fprintf(stderr, "cannot run %s: %s\n", c->argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) {
            perror("bench_frontend: wait4");
            return -1;
        }
    double wall = now() - t0;
    if (r >= 0) {
        c->wall[r] = wall;
        c->cpu[r] = tv_seconds(ru.ru_utime) + tv_seconds(ru.ru_stime);
    }
    if (ru.ru_maxrss > c->maxrss_kb)
        c->maxrss_kb = ru.ru_maxrss;
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_RUNS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double best(const double *v, int n)
{
    double b = v[0];
    for (int k = 1; k < n; k++)
        if (v[k] < b)
            b = v[k];
    return b;
}

static void show_command(const command *c)
{
    printf("  %-8s:%s%s", c->name, c->env ? " " : "", c->env ? c->env : "");
    for (char **a = c->argv; *a; a++)
        printf(" %s", *a);
    printf("\n");
}

static void show_failure(const command *c, int status, const char *errpath)
{
    fprintf(stderr, "bench_frontend: %s exited with status %d; its stderr "
                    "begins:\n", c->name, status);
    FILE *f = fopen(errpath, "r");
    if (f) {
        char line[512];
        for (int k = 0; k < 20 && fgets(line, sizeof line, f); k++)
            fputs(line, stderr);
        fclose(f);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_frontend [--runs N] [--hyperdo PATH] "
                    "[--clang PATH] FILE [-- COMPILER ARGS...]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int runs = 7;
    const char *hyperdo = "hyperdo", *clang = "clang-14", *file = NULL;
    int a = 1;
    for (; a < argc; a++) {
        if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc)
            runs = atoi(argv[++a]);
        else if (strcmp(argv[a], "--hyperdo") == 0 && a + 1 < argc)
            hyperdo = argv[++a];
        else if (strcmp(argv[a], "--clang") == 0 && a + 1 < argc)
            clang = argv[++a];
        else if (strcmp(argv[a], "--") == 0) {
            a++;
            break;
        } else if (argv[a][0] != '-' && !file)
            file = argv[a];
        else
            usage();
    }
    if (!file || runs < 1 || runs > MAX_RUNS)
        usage();
    int nextra = argc - a;
    char **extra = argv + a;

    /* hyperdo analyze --json FILE -- ARGS;  clang -fsyntax-only ARGS FILE */
    char **hargv = calloc((size_t)nextra + 7, sizeof *hargv);
    char **cargv = calloc((size_t)nextra + 4, sizeof *cargv);
    if (!hargv || !cargv) {
        perror("bench_frontend");
        return 1;
    }
    int h = 0, k = 0;
    hargv[h++] = (char *)hyperdo;
    hargv[h++] = "analyze";
    hargv[h++] = "--json";
    hargv[h++] = (char *)file;
    if (nextra)
        hargv[h++] = "--";
    cargv[k++] = (char *)clang;
    cargv[k++] = "-fsyntax-only";
    for (int e = 0; e < nextra; e++) {
        hargv[h++] = extra[e];
        cargv[k++] = extra[e];
    }
    cargv[k++] = (char *)file;

    enum { NCMD = 2 };
    command cmd[NCMD] = {
        { .name = "hyperdo", .argv = hargv },
        { .name = "clang", .argv = cargv },
    };

    char errpath[] = "/tmp/bench_frontend.XXXXXX";
    int fd = mkstemp(errpath);
    if (fd < 0) {
        perror("bench_frontend: mkstemp");
        return 1;
    }
    close(fd);

    long lines = 0;
    FILE *f = fopen(file, "r");
    if (f) {
        int ch;
        while ((ch = getc(f)) != EOF)
            lines += ch == '\n';
        fclose(f);
    }
    printf("Front end: %s (%ld lines), %d timed runs each, alternating\n",
           file, lines, runs);
    for (int c = 0; c < NCMD; c++)
        show_command(&cmd[c]);
    fflush(stdout);

    int rc = 0;
    for (int c = 0; c < NCMD && rc == 0; c++) {     /* warm-up and check */
        int st = run_once(&cmd[c], -1, errpath);
        if (st != 0) {
            show_failure(&cmd[c], st, errpath);
            rc = 1;
        }
    }
    for (int r = 0; r < runs && rc == 0; r++)
        for (int c = 0; c < NCMD && rc == 0; c++) {
            int st = run_once(&cmd[c], r, errpath);
            if (st != 0) {
                show_failure(&cmd[c], st, errpath);
                rc = 1;
            }
        }
    unlink(errpath);
    if (rc)
        return rc;

    printf("%-8s %10s %10s %10s %12s\n", "", "best_s", "median_s", "cpu_s",
           "peak_rss_MB");
    for (int c = 0; c < NCMD; c++)
        printf("%-8s %10.3f %10.3f %10.3f %12.1f\n", cmd[c].name,
               best(cmd[c].wall, runs), median(cmd[c].wall, runs),
               median(cmd[c].cpu, runs), cmd[c].maxrss_kb / 1024.0);
    double rb = best(cmd[0].wall, runs) / best(cmd[1].wall, runs);
    double rm = median(cmd[0].wall, runs) / median(cmd[1].wall, runs);
    double rc_cpu = median(cmd[0].cpu, runs) / median(cmd[1].cpu, runs);
    double rr = (double)cmd[0].maxrss_kb / (double)cmd[1].maxrss_kb;
    printf("ratio hyperdo/clang: best %.2fx, median %.2fx, cpu %.2fx, "
           "peak RSS %.2fx (target: wall <= %.2fx: %s)\n",
           rb, rm, rc_cpu, rr, TARGET_RATIO,
           rm <= TARGET_RATIO ? "met" : "NOT met");
    free(hargv);
    free(cargv);
    return 0;
}
