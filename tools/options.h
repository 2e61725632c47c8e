/*
 * options.h — the one option parser of the subcommands: each describes
 * its command line as tables of options and the parser walks argv.
 *
 * What every subcommand's command line has in common:
 *   - an argument that starts with '-' and is not "-" is an option; "-"
 *     (standard input) and anything else is the operand, of which there
 *     is exactly one ("too many arguments", "missing ..."), or one or
 *     more (hd_operands.more);
 *   - -h and --help print the help and leave with HD_EXIT_OK;
 *   - an option that takes a value takes the next argument, whatever it
 *     looks like; one whose name starts with "--" also takes it as
 *     --name=VALUE (-o, -p and -MF only as the next argument, as they
 *     always have);
 *   - an option that takes no value is matched by its exact name
 *     (--json=1 is an unknown option).
 * Where they differ, hd_command_line says: whether "--" before the
 * operand ends the options (analyze, sim) or is an unknown option
 * (translate, check), and whether "--" after the operand hands the rest
 * to clang (analyze, translate, check: hd_operands.rest).
 */
#ifndef HYPERDO_OPTIONS_H
#define HYPERDO_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct hd_command_line hd_command_line;

/* Whether an option takes a value, and (for an option without a handler)
 * whether the empty string is one. */
typedef enum {
    HD_OPT_NO_VALUE,          /* --json */
    HD_OPT_VALUE,             /* -o FILE: any string, "" too */
    HD_OPT_NONEMPTY_VALUE,    /* --lib FILE: "" is refused as a missing one */
} hd_option_takes;

/* One option.  With a handler, the parser calls handle(cl, dest, value)
 * with the table's dest and the value (NULL when the option takes none,
 * or when it takes one and argv ends): the handler stores it, or prints
 * the usage error (hd_option_error) and returns its status; -1 to go on.
 * Without one, the option stores what it takes at offset `field` in dest:
 * a flag's bool becomes true, a value goes into a const char *, or, with
 * a parse function, into what parse converts it to (parse returns false
 * when the value is not one). */
typedef struct {
    const char *name;         /* "--dim", "-o" */
    hd_option_takes takes;
    int (*handle)(const hd_command_line *cl, void *dest, const char *value);
    size_t field;             /* with no handler: offsetof the bool (no
                               * value), the const char * or parse's value */
    const char *needs;        /* with no handler, a value's message when it
                               * is missing, bad (parse) or empty and must
                               * not be: "option 'NAME' needs <needs>" */
    bool (*parse)(const char *value, void *field);
} hd_option;

/* A table of options, ended by an entry whose name is NULL, and what its
 * options write into. */
typedef struct {
    const hd_option *options;
    void *dest;
} hd_option_table;

/* Where what is left of argv once the options are taken goes. */
typedef struct {
    const char **operand;
    int *nrest;               /* OPERAND -- ARGS: how many ARGS (for clang), */
    char ***rest;             /* and where they start; NULL: the command
                               * takes none */
    const char ***more;       /* operands after the first (translate, check:
                               * the files of one program), malloc'ed, and */
    int *nmore;               /* how many; NULL: the command takes one */
} hd_operands;

/* A command's command line but for its options: one for each command,
 * fixed (the options' tables say where their values go). */
struct hd_command_line {
    const char *command;      /* "analyze": in the usage errors */
    const char *usage_line;
    void (*help)(void);       /* -h, --help */
    const char *operand;      /* "FILE": "(analyze takes one FILE)" */
    const char *missing;      /* the usage error when there is no operand;
                               * NULL: the operand may be left out (NULL) */
    bool dashdash_ends_options;   /* "--" before the operand */
};

/* Parses argv[1..argc-1] as cl says, with the options of tables
 * (searched in order; an unused one: NULL), calling their handlers.  -1
 * to go on with the operands stored into `into`, else the exit status to
 * leave with (help, usage error). */
int hd_parse_command_line(const hd_command_line *cl, const hd_option_table tables[2],
                          hd_operands into, int argc, char **argv);

/* A subcommand in its two halves: parse reads argv into *opts and
 * returns -1 to go on, else the exit status to leave with (help, usage
 * error); only then does run do the work with *opts.  Returns the exit
 * status of whichever ended it. */
int hd_run_command(int argc, char **argv, void *opts,
                   int (*parse)(int argc, char **argv, void *opts),
                   int (*run)(void *opts));

/* Prints "hyperdo: error: MESSAGE" and cl's usage line on stderr (as
 * hd_usage_error); returns HD_EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int hd_option_error(const hd_command_line *cl, const char *fmt, ...);

/* s as a decimal integer from lo to hi (strtol's syntax: leading blanks
 * and a sign are allowed); false when s is NULL, empty or out of range. */
bool hd_option_long(const char *s, long lo, long hi, long *v);
/* A time in microseconds into a double: a number from 0 to 10^12, for an
 * option table's parse (false when value is none). */
bool hd_option_us(const char *value, void *field);

#endif
