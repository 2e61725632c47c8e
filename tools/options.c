/*
 * options.c — the option parser of the subcommands (options.h).
 */
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"

int hd_option_error(const hd_command_line *cl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = hd_usage_verror(cl->usage_line, cl->command, fmt, ap);
    va_end(ap);
    return status;
}

bool hd_option_long(const char *s, long lo, long hi, long *v)
{
    char *end = NULL;
    long x = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

bool hd_option_us(const char *value, void *field)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (!*value || *end || errno || !(v >= 0) || v > 1e12)
        return false;
    *(double *)field = v;
    return true;
}

/* The option of the tables that arg names, with the table it is in;
 * *value points past "=" when arg is --name=VALUE. */
static const hd_option *find_option(const hd_option_table tables[2],
                                    const char *arg,
                                    const hd_option_table **table,
                                    const char **value)
{
    *value = NULL;
    for (int t = 0; t < 2 && tables[t].options; t++)
        for (const hd_option *o = tables[t].options; o->name; o++) {
            size_t len = strlen(o->name);
            if (strncmp(arg, o->name, len) != 0)
                continue;
            if (arg[len] == '=' && o->takes != HD_OPT_NO_VALUE && o->name[1] == '-') {
                *value = arg + len + 1;
            } else if (arg[len] != '\0') {
                continue;
            }
            *table = &tables[t];
            return o;
        }
    return NULL;
}

int hd_parse_command_line(const hd_command_line *cl, const hd_option_table tables[2],
                          hd_operands into, int argc, char **argv)
{
    bool only_operands = false;
    const char *operand = NULL;
    const char **more = NULL;
    int nmore = 0;
    int nrest = 0;
    char **rest = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (into.rest && operand && strcmp(arg, "--") == 0) {
            /* FILE -- ARGS: the rest goes to clang, as in clang tools. */
            nrest = argc - i - 1;
            rest = argv + i + 1;
            break;
        }
        if (only_operands || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (operand && into.more) {
                more = hd_xrealloc(more, (size_t)(nmore + 1) * sizeof *more);
                more[nmore++] = arg;
                continue;
            }
            if (operand)   /* (more is NULL) */
                return hd_option_error(cl, "too many arguments: '%s' (%s "
                                       "takes one %s)", arg, cl->command,
                                       cl->operand);
            operand = arg;
            continue;
        }
        if (cl->dashdash_ends_options && strcmp(arg, "--") == 0) {
            only_operands = true;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            cl->help();
            free(more);
            return HD_EXIT_OK;
        }
        const hd_option_table *table = NULL;
        const char *value;
        const hd_option *o = find_option(tables, arg, &table, &value);
        if (!o) {
            free(more);
            return hd_option_error(cl, "unknown option '%s'", arg);
        }
        if (o->takes != HD_OPT_NO_VALUE && !value && i + 1 < argc)
            value = argv[++i];
        if (o->handle) {
            int status = o->handle(cl, table->dest, value);
            if (status >= 0) {
                free(more);
                return status;
            }
            continue;
        }
        void *field = (char *)table->dest + o->field;
        if (o->takes == HD_OPT_NO_VALUE) {
            *(bool *)field = true;
            continue;
        }
        if (!value || (o->takes == HD_OPT_NONEMPTY_VALUE && !*value) ||
            (o->parse && !o->parse(value, field))) {
            free(more);
            return hd_option_error(cl, "option '%s' needs %s", o->name, o->needs);
        }
        if (!o->parse)
            *(const char **)field = value;
    }
    if (!operand && cl->missing)
        return hd_option_error(cl, "%s", cl->missing);
    *into.operand = operand;
    if (into.more) {
        *into.more = more;
        *into.nmore = nmore;
    }
    if (into.rest) {
        *into.nrest = nrest;
        *into.rest = rest;
    }
    return -1;
}

int hd_run_command(int argc, char **argv, void *opts,
                   int (*parse)(int argc, char **argv, void *opts),
                   int (*run)(void *opts))
{
    int status = parse(argc, argv, opts);
    return status >= 0 ? status : run(opts);
}
