/*
 * bench_frontend.c — issue 12's front-end figure: the CPU time (user +
 * system, from wait4) of `hyperdo analyze --json FILE -- ARGS` and of
 * `hyperdo translate FILE -o TMP -- ARGS`, each against
 * `clang -fsyntax-only ARGS FILE` measured in the same run.  CPU rather
 * than wall time is judged because hyperdo parses and analyses on several
 * threads, so its wall time can match clang's while it does more work, and
 * because wall time on a shared machine moves with the load; wall time is
 * printed too.
 *
 * The three commands run in turn, round after round, so that a change of
 * load falls on all of them alike; one untimed warm-up of each comes first
 * (it fills the page cache and checks that all three succeed).  For each
 * command it prints the best and median wall time, the median CPU time and
 * the peak resident set size (the largest ru_maxrss of its runs), then for
 * analyze and for translate the ratios to clang with a verdict: met when
 * the median CPU ratio is at most the target (--target, default 1.30; the
 * issue asks 1.30 on the 1000-loop file and 1.20 on samples/fft.c).  The
 * verdict does not change the exit status, which is 0 unless a command
 * fails (1) or the usage is wrong (2).
 *
 * With --floor PATH (bench/libclang_floor.c), two more commands run in
 * the same rounds: libclang's parse alone, with hyperdo's flags, and that
 * parse followed by a visit of every cursor asking its kind and extent.
 * Their ratios to clang show the floor of any reader built on libclang's
 * C API, and so how much of the target is left for hyperdo's own work
 * (docs/frontend-performance.md).
 *
 * translate's output goes to a temporary directory removed at the end.
 *
 * usage: bench_frontend [--runs N] [--target RATIO] [--hyperdo PATH]
 *                       [--clang PATH] [--floor PATH] FILE
 *                       [-- COMPILER ARGS...]
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
    printf("  %-9s:%s%s", c->name, c->env ? " " : "", c->env ? c->env : "");
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
    fprintf(stderr, "usage: bench_frontend [--runs N] [--target RATIO] "
                    "[--hyperdo PATH] [--clang PATH] [--floor PATH] FILE "
                    "[-- COMPILER ARGS...]\n");
    exit(2);
}

/* The ratios of command c to the baseline b, with the verdict on CPU. */
static void show_ratios(const command *c, const command *b, int runs,
                        double target)
{
    double cpu = median(c->cpu, runs) / median(b->cpu, runs);
    printf("%s/%s:%*s cpu %.2fx (target <= %.2fx: %s); wall best %.2fx, "
           "median %.2fx; peak RSS %.2fx\n",
           c->name, b->name, (int)(9 - strlen(c->name)), "", cpu, target,
           cpu <= target ? "met" : "NOT met",
           best(c->wall, runs) / best(b->wall, runs),
           median(c->wall, runs) / median(b->wall, runs),
           (double)c->maxrss_kb / (double)b->maxrss_kb);
}

/* The ratios of a floor command to the baseline: no verdict, it is not
 * hyperdo. */
static void show_floor(const command *c, const command *b, int runs)
{
    printf("%s/%s:%*s cpu %.2fx; wall best %.2fx, median %.2fx\n",
           c->name, b->name, (int)(9 - strlen(c->name)), "",
           median(c->cpu, runs) / median(b->cpu, runs),
           best(c->wall, runs) / best(b->wall, runs),
           median(c->wall, runs) / median(b->wall, runs));
}

int main(int argc, char **argv)
{
    int runs = 7;
    double target = 1.30;
    const char *hyperdo = "hyperdo", *clang = "clang-14", *file = NULL;
    const char *floor_exe = NULL;
    int a = 1;
    for (; a < argc; a++) {
        char *end;
        if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc)
            runs = atoi(argv[++a]);
        else if (strcmp(argv[a], "--target") == 0 && a + 1 < argc) {
            target = strtod(argv[++a], &end);
            if (end == argv[a] || *end || !(target > 0))
                usage();
        } else if (strcmp(argv[a], "--hyperdo") == 0 && a + 1 < argc)
            hyperdo = argv[++a];
        else if (strcmp(argv[a], "--clang") == 0 && a + 1 < argc)
            clang = argv[++a];
        else if (strcmp(argv[a], "--floor") == 0 && a + 1 < argc)
            floor_exe = argv[++a];
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

    /* The commands' stderr (shown when one fails) and translate's output. */
    char dir[] = "/tmp/bench_frontend.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("bench_frontend: mkdtemp");
        return 1;
    }
    char errpath[sizeof dir + 16], outpath[sizeof dir + 16];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    snprintf(outpath, sizeof outpath, "%s/out.c", dir);

    /* hyperdo analyze --json FILE -- ARGS
     * hyperdo translate FILE -o OUT -- ARGS
     * clang -fsyntax-only ARGS FILE */
    char **aargv = calloc((size_t)nextra + 6, sizeof *aargv);
    char **targv = calloc((size_t)nextra + 7, sizeof *targv);
    char **cargv = calloc((size_t)nextra + 4, sizeof *cargv);
    char **pargv = calloc((size_t)nextra + 5, sizeof *pargv);
    char **rargv = calloc((size_t)nextra + 5, sizeof *rargv);
    if (!aargv || !targv || !cargv || !pargv || !rargv) {
        perror("bench_frontend");
        rmdir(dir);
        return 1;
    }
    int na = 0, nt = 0, nc = 0, nf = 0;
    aargv[na++] = (char *)hyperdo;
    aargv[na++] = "analyze";
    aargv[na++] = "--json";
    aargv[na++] = (char *)file;
    targv[nt++] = (char *)hyperdo;
    targv[nt++] = "translate";
    targv[nt++] = (char *)file;
    targv[nt++] = "-o";
    targv[nt++] = outpath;
    if (nextra) {
        aargv[na++] = "--";
        targv[nt++] = "--";
    }
    cargv[nc++] = (char *)clang;
    cargv[nc++] = "-fsyntax-only";
    for (int e = 0; e < nextra; e++) {
        aargv[na++] = extra[e];
        targv[nt++] = extra[e];
        cargv[nc++] = extra[e];
    }
    cargv[nc++] = (char *)file;
    /* libclang_floor parse|read FILE -- ARGS */
    pargv[nf] = rargv[nf] = (char *)floor_exe;
    nf++;
    pargv[nf] = "parse";
    rargv[nf++] = "read";
    pargv[nf] = rargv[nf] = (char *)file;
    nf++;
    pargv[nf] = rargv[nf] = "--";
    nf++;
    for (int e = 0; e < nextra; e++, nf++)
        pargv[nf] = rargv[nf] = extra[e];

    enum { ANALYZE, TRANSLATE, CLANG, FLOOR_PARSE, FLOOR_READ, NCMD_ALL };
    command cmd[NCMD_ALL] = {
        [ANALYZE] = { .name = "analyze", .argv = aargv },
        [TRANSLATE] = { .name = "translate", .argv = targv },
        [CLANG] = { .name = "clang", .argv = cargv },
        [FLOOR_PARSE] = { .name = "lc-parse", .argv = pargv },
        [FLOOR_READ] = { .name = "lc-read", .argv = rargv },
    };
    int ncmd = floor_exe ? NCMD_ALL : FLOOR_PARSE;

    long lines = 0;
    FILE *f = fopen(file, "r");
    if (f) {
        int ch;
        while ((ch = getc(f)) != EOF)
            lines += ch == '\n';
        fclose(f);
    }
    printf("Front end: %s (%ld lines), %d timed runs each, in turn\n",
           file, lines, runs);
    for (int c = 0; c < ncmd; c++)
        show_command(&cmd[c]);
    fflush(stdout);

    int rc = 0;
    for (int c = 0; c < ncmd && rc == 0; c++) {     /* warm-up and check */
        int st = run_once(&cmd[c], -1, errpath);
        if (st != 0) {
            show_failure(&cmd[c], st, errpath);
            rc = 1;
        }
    }
    for (int r = 0; r < runs && rc == 0; r++)
        for (int c = 0; c < ncmd && rc == 0; c++) {
            int st = run_once(&cmd[c], r, errpath);
            if (st != 0) {
                show_failure(&cmd[c], st, errpath);
                rc = 1;
            }
        }
    unlink(errpath);
    unlink(outpath);
    if (rmdir(dir) != 0)
        fprintf(stderr, "bench_frontend: cannot remove %s: %s\n", dir,
                strerror(errno));

    if (rc == 0) {
        printf("%-10s %10s %10s %10s %12s\n", "", "best_s", "median_s",
               "cpu_s", "peak_rss_MB");
        for (int c = 0; c < ncmd; c++)
            printf("%-10s %10.3f %10.3f %10.3f %12.1f\n", cmd[c].name,
                   best(cmd[c].wall, runs), median(cmd[c].wall, runs),
                   median(cmd[c].cpu, runs), cmd[c].maxrss_kb / 1024.0);
        show_ratios(&cmd[ANALYZE], &cmd[CLANG], runs, target);
        show_ratios(&cmd[TRANSLATE], &cmd[CLANG], runs, target);
        if (floor_exe) {
            show_floor(&cmd[FLOOR_PARSE], &cmd[CLANG], runs);
            show_floor(&cmd[FLOOR_READ], &cmd[CLANG], runs);
        }
    }
    free(pargv);
    free(rargv);
    free(aargv);
    free(targv);
    free(cargv);
    return rc;
}
