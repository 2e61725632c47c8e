/*
 * common.c — what several subcommands share.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

/* Where hyperdo/bits.h is: PREFIX/include beside an installed PREFIX/bin,
 * else the source tree this binary was built from (malloc'ed). */
static char *helpers_include_dir(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 64);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            strcpy(slash, "/../include");
            char probe[4200];
            snprintf(probe, sizeof probe, "%s/hyperdo/bits.h", exe);
            if (access(probe, R_OK) == 0) {
                /* PREFIX/include, not PREFIX/bin/../include: the name ends
                 * up in diagnostics and -MD dependency files. */
                char *real = realpath(exe, NULL);
                return real ? real : hd_xstrdup(exe);
            }
        }
    }
    return hd_xstrdup(HYPERDO_SOURCE_INCLUDE_DIR);
}

int hd_usage_verror(const char *usage_line, const char *command,
                    const char *fmt, va_list ap)
{
    fputs("hyperdo: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fprintf(stderr, "%s (see 'hyperdo %s --help')\n", usage_line, command);
    return HD_EXIT_USAGE;
}

int hd_usage_error(const char *usage_line, const char *command,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = hd_usage_verror(usage_line, command, fmt, ap);
    va_end(ap);
    return status;
}

bool hd_option_objective(const char *value, void *objective)
{
    return hd_objective_parse(value, objective);
}

bool hd_option_network(const char *value, void *network)
{
    hd_target t;
    if (!hd_target_parse(value, 1, &t))
        return false;
    *(int *)network = 1 + (int)t.kind;
    return true;
}

int hd_read_c_program(const char *path, hd_c_options opt, hd_program *prog,
                      hd_analysis *results)
{
    char *include = helpers_include_dir();
    opt.include_dir = include;
    hd_diags d;
    hd_c_read(path, &opt, prog, &d);
    free(include);
    int errors = hd_analyse_program(prog, &d, results);
    char *diagnostics = hd_diags_text(&d);
    hd_diags_free(&d);
    if (diagnostics) {
        fputs(diagnostics, stderr);
        free(diagnostics);
    }
    if (errors) {
        hd_program_free(prog);
        hd_analysis_free(results);
        return HD_EXIT_FAILURE;
    }
    return HD_EXIT_OK;
}

int hd_read_c_files(const char *const *paths, int nfiles, hd_c_options opt, hd_program *progs,
                    hd_analysis *results)
{
    char *include = helpers_include_dir();
    opt.include_dir = include;
    hd_diags *d = hd_xcalloc((size_t)nfiles, sizeof *d);
    hd_c_read_files(paths, nfiles, &opt, progs, d);
    free(include);
    int errors = 0;
    /* The analysis of each file into its own sink: every diagnostic is
     * about one file, and is printed with that file's others, file by
     * file in the order given. */
    for (int k = 0; k < nfiles; k++) {
        errors += hd_analyse_program(&progs[k], &d[k], &results[k]);
        char *diagnostics = hd_diags_text(&d[k]);
        hd_diags_free(&d[k]);
        if (diagnostics) {
            fputs(diagnostics, stderr);
            free(diagnostics);
        }
    }
    free(d);
    if (errors) {
        for (int k = 0; k < nfiles; k++) {
            hd_program_free(&progs[k]);
            hd_analysis_free(&results[k]);
        }
        return HD_EXIT_FAILURE;
    }
    return HD_EXIT_OK;
}

int hd_print_text(char *text)
{
    if (!text) {
        fprintf(stderr, "hyperdo: error: out of memory\n");
        return HD_EXIT_FAILURE;
    }
    fputs(text, stdout);
    free(text);
    return HD_EXIT_OK;
}

int hd_read_spec_file(const char *path,
                      int (*read)(FILE *in, const char *name, hd_spec *out, hd_diag *err),
                      hd_spec *spec)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *in = is_stdin ? stdin : fopen(path, "r");
    if (!in) {
        fprintf(stderr, "hyperdo: error: cannot open '%s': %s\n", path, strerror(errno));
        return HD_EXIT_FAILURE;
    }
    hd_diag diag;
    int rc = read(in, name, spec, &diag);
    if (!is_stdin)
        fclose(in);
    if (rc == HD_SPEC_OK)
        return HD_EXIT_OK;
    if (diag.line > 0)
        fprintf(stderr, "%s:%d: error: %s\n", diag.path, diag.line, diag.message);
    else
        fprintf(stderr, "hyperdo: error: %s\n", diag.message);
    return HD_EXIT_FAILURE;
}
