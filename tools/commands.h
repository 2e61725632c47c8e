/*
 * commands.h — what the driver (hyperdo.c) knows about each subcommand.
 *
 * A subcommand gets its own name as argv[0] and returns the process exit
 * status: HD_EXIT_OK, HD_EXIT_FAILURE when the input is bad or the work
 * fails, HD_EXIT_USAGE when the command line itself is wrong.
 */
#ifndef HYPERDO_COMMANDS_H
#define HYPERDO_COMMANDS_H

enum { HD_EXIT_OK = 0, HD_EXIT_FAILURE = 1, HD_EXIT_USAGE = 2 };

int hd_cmd_analyze(int argc, char **argv);
int hd_cmd_sim(int argc, char **argv);
int hd_cmd_translate(int argc, char **argv);

/* Where hyperdo/bits.h and hyperdo.h are: PREFIX/include beside an
 * installed PREFIX/bin/hyperdo, else the source tree it was built from
 * (malloc'ed). */
char *hd_helpers_include_dir(void);

/* Prints "hyperdo: error: MESSAGE" and the subcommand's usage line on
 * stderr; returns HD_EXIT_USAGE. */
__attribute__((format(printf, 3, 4)))
int hd_usage_error(const char *usage_line, const char *command,
                   const char *fmt, ...);

#endif
