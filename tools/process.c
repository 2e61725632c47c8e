/*
 * process.c — see process.h.
 *
 * Each program runs in a process group of its own so that a time limit
 * stops all of it: mpiexec's ranks, or whatever a test program forks.  The
 * parent polls for the end instead of waiting on SIGCHLD, which keeps
 * signal handling to one flag; the leader is left unreaped (WNOWAIT) until
 * its group has been killed, so that the group's number cannot have been
 * given to anyone else by then.
 */
#define _XOPEN_SOURCE 700   /* waitid, WNOWAIT, nanosleep */

#include "process.h"
#include "hd_alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------ argument vectors */

void hd_args_add(hd_args *a, const char *s)
{
    hd_xreserve(&a->v, &a->cap, a->n + 2, sizeof *a->v);
    a->v[a->n++] = hd_xstrdup(s);
    a->v[a->n] = NULL;
}

void hd_args_split(hd_args *a, const char *s)
{
    while (*s) {
        size_t blank = strspn(s, " \t\n");
        s += blank;
        size_t len = strcspn(s, " \t\n");
        if (!len)
            break;
        char *word = hd_xstrndup(s, len);
        hd_args_add(a, word);
        free(word);
        s += len;
    }
}

void hd_args_append(hd_args *a, const hd_args *more)
{
    for (int k = 0; k < more->n; k++)
        hd_args_add(a, more->v[k]);
}

void hd_args_free(hd_args *a)
{
    for (int k = 0; k < a->n; k++)
        free(a->v[k]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static void print_word(FILE *f, const char *w)
{
    const char *safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                       "0123456789_./=:,+@%^-";
    if (*w && strspn(w, safe) == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (; *w; w++) {
        if (*w == '\'')
            fputs("'\\''", f);
        else
            fputc(*w, f);
    }
    fputc('\'', f);
}

void hd_args_print(FILE *f, const hd_args *a)
{
    for (int k = 0; k < a->n; k++) {
        if (k)
            fputc(' ', f);
        print_word(f, a->v[k]);
    }
    fputc('\n', f);
}

/* -------------------------------------------------------------- signals */

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    caught = sig;
}

void hd_run_catch_signals(void)
{
    /* SIGPIPE too: `hyperdo check ... | head -1` must still clean up. */
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction old;
        /* Ignored signals stay ignored (nohup, background jobs). */
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[k], &sa, NULL);
    }
}

int hd_run_interrupted(void)
{
    return caught;
}

void hd_run_reraise(void)
{
    int sig = caught;
    if (!sig)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
}

const char *hd_signal_name(int sig, char buf[32])
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        { SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },   { SIGQUIT, "SIGQUIT" },
        { SIGILL, "SIGILL" },   { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
        { SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },   { SIGKILL, "SIGKILL" },
        { SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
        { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
        { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" }, { SIGSYS, "SIGSYS" },
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (names[k].sig == sig)
            return names[k].name;
    snprintf(buf, 32, "signal %d", sig);
    return buf;
}

/* ------------------------------------------------------------- running */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_for(double seconds)
{
    struct timespec ts = { (time_t)seconds,
                           (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&ts, NULL);
}

/* Has the leader ended?  It stays a zombie, its group number reserved. */
static bool ended(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid;
}

/* Waits for the leader to end, until `deadline` (0: forever) or a caught
 * signal; true when it ended.  The pause grows from 1 ms to 20 ms: short
 * programs are not slowed, long ones do not keep a core busy. */
static bool wait_until(pid_t pid, double deadline, bool stop_on_signal)
{
    double pause = 0.001;
    while (!ended(pid)) {
        if ((deadline > 0 && now() >= deadline) ||
            (stop_on_signal && caught))
            return false;
        pause_for(pause);
        if (pause < 0.02)
            pause *= 2;
    }
    return true;
}

/* Stops the whole group: SIGTERM, then SIGKILL after a grace period. */
static void stop_group(pid_t pid)
{
    kill(-pid, SIGTERM);
    wait_until(pid, now() + 2.0, false);
    kill(-pid, SIGKILL);
}

/* The child: files in place, then exec; on failure errno goes to the
 * parent through `report` (closed by a successful exec). */
static void child(char *const argv[], const char *exe, const char *out_path,
                  const char *err_path, int report)
{
    setpgid(0, 0);
    int in = open("/dev/null", O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600)
                       : out;
    if (in >= 0 && out >= 0 && err >= 0 && dup2(in, 0) >= 0 &&
        dup2(out, 1) >= 0 && dup2(err, 2) >= 0)
        execvp(exe ? exe : argv[0], argv);
    int e = errno;
    ssize_t w = write(report, &e, sizeof e);
    (void)w;
    _exit(127);
}

hd_run_status hd_run(char *const argv[], const char *exe, const char *out_path,
                     const char *err_path, double timeout)
{
    hd_run_status st = { HD_RUN_NOT_STARTED, 0 };
    if (caught) {
        st.how = HD_RUN_INTERRUPTED;
        st.code = caught;
        return st;
    }
    int report[2];
    if (pipe(report) != 0) {
        st.code = errno;
        return st;
    }
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);   /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        st.code = errno;
        close(report[0]);
        close(report[1]);
        return st;
    }
    if (pid == 0) {
        close(report[0]);
        child(argv, exe, out_path, err_path, report[1]);
    }
    setpgid(pid, pid);   /* as the child does: whichever runs first */
    close(report[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(report[0]);
    double deadline = timeout > 0 ? now() + timeout : 0;
    bool done = got == (ssize_t)sizeof e || wait_until(pid, deadline, true);
    if (!done)
        stop_group(pid);
    else
        kill(-pid, SIGKILL);   /* whatever it left running */
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    if (got == (ssize_t)sizeof e) {
        st.code = e;
    } else if (!done) {
        st.how = caught ? HD_RUN_INTERRUPTED : HD_RUN_TIMED_OUT;
        st.code = caught;
    } else if (WIFSIGNALED(wstatus)) {
        st.how = HD_RUN_SIGNALED;
        st.code = WTERMSIG(wstatus);
    } else {
        st.how = HD_RUN_EXITED;
        st.code = WEXITSTATUS(wstatus);
    }
    return st;
}
