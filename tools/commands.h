/*
 * commands.h — what the driver (hyperdo.c) knows about each subcommand.
 *
 * A subcommand gets its own name as argv[0] and returns the process exit
 * status: HD_EXIT_OK, HD_EXIT_FAILURE when the input is bad or the work
 * fails, HD_EXIT_USAGE when the command line itself is wrong.
 */
#ifndef HYPERDO_COMMANDS_H
#define HYPERDO_COMMANDS_H

#include "frontend.h"

enum { HD_EXIT_OK = 0, HD_EXIT_FAILURE = 1, HD_EXIT_USAGE = 2 };

int hd_cmd_analyze(int argc, char **argv);
int hd_cmd_sim(int argc, char **argv);
int hd_cmd_translate(int argc, char **argv);

/* Reads a C file with hd_c_read, with the directory of hyperdo/bits.h
 * and hyperdo.h (PREFIX/include beside an installed PREFIX/bin/hyperdo,
 * else the source tree it was built from) as opt.include_dir, and prints
 * its diagnostics on stderr.  HD_EXIT_OK with *prog filled, or
 * HD_EXIT_FAILURE. */
int hd_read_c_program(const char *path, hd_c_options opt, hd_program *prog);

/* Prints a malloc'ed answer on stdout and frees it; NULL (out of memory)
 * is reported instead.  Returns the exit status. */
int hd_print_text(char *text);

/* Prints "hyperdo: error: MESSAGE" and the subcommand's usage line on
 * stderr; returns HD_EXIT_USAGE. */
__attribute__((format(printf, 3, 4)))
int hd_usage_error(const char *usage_line, const char *command,
                   const char *fmt, ...);

#endif
