/*
 * timed.c — runs a command and appends "WALL USER SYS" (seconds) to the
 * file named by $TIMED_OUT: wall time from clock_gettime(CLOCK_MONOTONIC),
 * CPU time of the command and of every process it waited for
 * (getrusage(RUSAGE_CHILDREN): all threads of a threads-back-end program,
 * every rank of an mpiexec run).  Exits with the command's status.
 *
 *     TIMED_OUT=FILE timed COMMAND [ARGS...]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *out = getenv("TIMED_OUT");
    if (argc < 2 || !out) {
        fprintf(stderr, "usage: TIMED_OUT=FILE timed COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) {
        perror("timed");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    FILE *f = fopen(out, "a");
    if (f) {
        fprintf(f, "%.4f %.4f %.4f\n",
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
                (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
                (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
        fclose(f);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
