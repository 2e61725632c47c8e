/*
 * harness.c — starts hyperdo with posix_spawn, its stdout and stderr on two
 * pipes drained together with poll (so a chatty child cannot block on a
 * full pipe), and waits for its exit status.
 */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *binary, *source_dir;

static void die(const char *what)
{
    perror(what);
    exit(99);
}

void harness_init(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s HYPERDO_BINARY SOURCE_DIR\n", argv[0]);
        exit(99);
    }
    binary = argv[1];
    source_dir = argv[2];
}

const char *hyperdo_binary(void)
{
    return binary;
}

const char *source_path(const char *relative)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", source_dir, relative);
    return buf;
}

typedef struct {
    char *data;
    size_t len, cap;
} buffer;

static void append(buffer *b, const char *data, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        b->cap = 2 * (b->len + len + 1);
        b->data = realloc(b->data, b->cap);
        if (!b->data)
            die("realloc");
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void run_hyperdo_argv(run_result *r, const char *stdin_path,
                      const char *const *args)
{
    int outp[2], errp[2];
    if (pipe(outp) || pipe(errp))
        die("pipe");

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, stdin_path ? stdin_path
                                     : "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    posix_spawn_file_actions_addclose(&fa, outp[0]);
    posix_spawn_file_actions_addclose(&fa, errp[0]);
    posix_spawn_file_actions_addclose(&fa, outp[1]);
    posix_spawn_file_actions_addclose(&fa, errp[1]);

    int argc = 0;
    while (args[argc])
        argc++;
    char **argv = calloc((size_t)argc + 2, sizeof *argv);
    if (!argv)
        die("calloc");
    argv[0] = (char *)binary;
    for (int k = 0; k < argc; k++)
        argv[k + 1] = (char *)args[k];

    pid_t pid;
    int rc = posix_spawn(&pid, binary, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    if (rc != 0) {
        errno = rc;
        die("posix_spawn");
    }
    close(outp[1]);
    close(errp[1]);

    buffer out = { NULL, 0, 0 }, err = { NULL, 0, 0 };
    append(&out, "", 0);
    append(&err, "", 0);
    struct pollfd fds[2] = { { outp[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };
    buffer *bufs[2] = { &out, &err };
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0)
            die("poll");
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !fds[k].revents)
                continue;
            char chunk[4096];
            ssize_t got = read(fds[k].fd, chunk, sizeof chunk);
            if (got > 0) {
                append(bufs[k], chunk, (size_t)got);
            } else {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_fds--;
            }
        }
    }

    int wstatus;
    if (waitpid(pid, &wstatus, 0) < 0)
        die("waitpid");
    r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                                   : 128 + WTERMSIG(wstatus);
    r->out = out.data;
    r->outlen = out.len;
    r->err = err.data;
    r->errlen = err.len;
}

#define MAX_ARGS 32

static void collect(va_list ap, const char **args)
{
    int n = 0;
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL) {
        if (n == MAX_ARGS)
            die("too many arguments");
        args[n++] = a;
    }
    args[n] = NULL;
}

void run_hyperdo(run_result *r, const char *stdin_path, ...)
{
    const char *args[MAX_ARGS + 1];
    va_list ap;
    va_start(ap, stdin_path);
    collect(ap, args);
    va_end(ap);
    run_hyperdo_argv(r, stdin_path, args);
}

void run_hyperdo_input(run_result *r, const char *input, size_t len, ...)
{
    const char *args[MAX_ARGS + 1];
    char path[] = "/tmp/hyperdo-cli-input-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp");
    if (write(fd, input, len) != (ssize_t)len)
        die("write");
    close(fd);
    va_list ap;
    va_start(ap, len);
    collect(ap, args);
    va_end(ap);
    run_hyperdo_argv(r, path, args);
    unlink(path);
}

void run_result_free(run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

int count_lines(const char *s)
{
    int k = 0;
    for (; *s; s++)
        k += *s == '\n';
    return k;
}

int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ------------------------------------------------ shared by the drivers */

char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        abort();
    return d;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *buf = malloc((size_t)len + 1);
    if (!buf)
        abort();
    vsnprintf(buf, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    return buf;
}

/* Line `line` (1-based) of text, without its newline, in a new string. */
char *nth_line(const char *text, int line)
{
    const char *p = text;
    for (int k = 1; k < line && p; k++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return NULL;
    size_t len = strcspn(p, "\n");
    char *s = malloc(len + 1);
    if (!s)
        abort();
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

void words_add(words *w, const char *s)
{
    if (w->n + 2 > w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        w->v = realloc(w->v, (size_t)w->cap * sizeof *w->v);
        if (!w->v)
            abort();
    }
    w->v[w->n++] = xstrdup(s);
    w->v[w->n] = NULL;
}

void words_split(words *w, const char *s)
{
    char *copy = xstrdup(s), *save = NULL;
    for (char *t = strtok_r(copy, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save))
        words_add(w, t);
    free(copy);
}

void words_free(words *w)
{
    for (int k = 0; k < w->n; k++)
        free(w->v[k]);
    free(w->v);
    w->v = NULL;
    w->n = w->cap = 0;
}

/* The *.c files of SOURCE_DIR/dir, sorted, as paths relative to
 * SOURCE_DIR. */
int list_c_files(const char *dir, char ***out)
{
    DIR *d = opendir(source_path(dir));
    if (!d) {
        fprintf(stderr, "cannot open %s: %s\n", source_path(dir),
                strerror(errno));
        exit(99);
    }
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        /* X.spmd.c is what `hyperdo translate` writes (samples/Makefile's
         * older builds left them beside the sources): not an input. */
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0 ||
            (len > 7 && strcmp(e->d_name + len - 7, ".spmd.c") == 0))
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

bool caret_at(const char *line, int col)
{
    if (!line || (int)strlen(line) < col || line[col - 1] != '^')
        return false;
    for (const char *p = line; *p; p++)
        if (*p != ' ' && *p != '~' && *p != '^')
            return false;
    return true;
}

char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf)
        abort();
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

void read_input_header(const char *text, input_header *h)
{
    memset(h, 0, sizeof *h);
    for (int line = 1;; line++) {
        char *s = nth_line(text, line);
        if (!s || strncmp(s, "//", 2) != 0) {
            free(s);
            break;
        }
        if (strncmp(s, "// args:", 8) == 0) {
            words w = { 0 };
            words_split(&w, s + 8);
            bool clang = false;
            for (int k = 0; k < w.n; k++) {
                if (!clang && strcmp(w.v[k], "--") == 0)
                    clang = true;
                else
                    words_add(clang ? &h->after : &h->before, w.v[k]);
            }
            words_free(&w);
        } else if (strncmp(s, "// compdb:", 10) == 0) {
            words_split(&h->compdb, s + 10);
        }
        free(s);
    }
}

void input_header_free(input_header *h)
{
    words_free(&h->before);
    words_free(&h->after);
    words_free(&h->compdb);
}

