/*
 * process.h — running other programs for `hyperdo check` (check.c): the
 * compilers, pkg-config, and the two programs it compares, each with its
 * output in files, under a time limit, and killed with everything it
 * started when the limit passes or hyperdo itself is interrupted.
 */
#ifndef HYPERDO_PROCESS_H
#define HYPERDO_PROCESS_H

#include <stdbool.h>
#include <stdio.h>

/* A NULL-terminated argument vector that grows. */
typedef struct {
    char **v;
    int n, cap;
} hd_args;

void hd_args_add(hd_args *a, const char *s);
/* The words of s, split at blanks (how make splits $CC). */
void hd_args_split(hd_args *a, const char *s);
void hd_args_append(hd_args *a, const hd_args *more);
void hd_args_free(hd_args *a);
/* The command as a shell would need it typed, on f. */
void hd_args_print(FILE *f, const hd_args *a);

typedef enum {
    HD_RUN_EXITED,        /* code: its exit status */
    HD_RUN_SIGNALED,      /* code: the signal that killed it */
    HD_RUN_TIMED_OUT,     /* killed after the time limit */
    HD_RUN_NOT_STARTED,   /* code: errno (no such program, no fork) */
    HD_RUN_INTERRUPTED,   /* hyperdo got code (SIGINT...): killed it */
} hd_run_how;

typedef struct {
    hd_run_how how;
    int code;
} hd_run_status;

/* Runs argv (a PATH search when argv[0] has no '/'; `exe`, when not NULL,
 * is the file run instead of argv[0], which the program then sees as its
 * name) in a process group of its own, stdin from /dev/null, stdout into
 * the new file out_path and stderr into err_path (NULL: out_path too).
 * After `timeout` seconds (0: never) the group gets SIGTERM, and SIGKILL
 * two seconds later. */
hd_run_status hd_run(char *const argv[], const char *exe, const char *out_path,
                     const char *err_path, double timeout);

/* From now on SIGINT, SIGTERM, SIGHUP and SIGPIPE only stop hd_run
 * (HD_RUN_INTERRUPTED), so that the caller can clean up; then it calls
 * hd_run_reraise to die of the signal as it would have. */
void hd_run_catch_signals(void);
/* The signal caught, or 0. */
int hd_run_interrupted(void);
void hd_run_reraise(void);

/* "SIGSEGV", or "signal N" for one without a name here. */
const char *hd_signal_name(int sig, char buf[32]);

#endif
