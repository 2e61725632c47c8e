/*
 * commands.h — what the driver (hyperdo.c) knows about each subcommand.
 *
 * A subcommand gets its own name as argv[0] and returns the process exit
 * status: HD_EXIT_OK, HD_EXIT_FAILURE when the input is bad or the work
 * fails, HD_EXIT_USAGE when the command line itself is wrong.
 */
#ifndef HYPERDO_COMMANDS_H
#define HYPERDO_COMMANDS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "codegen.h"
#include "frontend.h"
#include "options.h"

enum { HD_EXIT_OK = 0, HD_EXIT_FAILURE = 1, HD_EXIT_USAGE = 2 };

int hd_cmd_analyze(int argc, char **argv);
int hd_cmd_check(int argc, char **argv);
int hd_cmd_cost(int argc, char **argv);
int hd_cmd_map(int argc, char **argv);
int hd_cmd_sim(int argc, char **argv);
int hd_cmd_translate(int argc, char **argv);

/* What `hyperdo translate` and `hyperdo check` share (translate.c): the
 * options that shape the generated program, their command line, and the
 * translation. */
typedef struct {
    int dim;                  /* --dim, or 0: the file's cube pragma */
    hd_codegen_options gen;   /* --mapping, --objective */
    int network;              /* --network: 1 + an hd_target_kind; 0: the
                               * file's network pragma, else ecube */
    int maps;                 /* --maps: HD_MAPS_PROGRAM or HD_MAPS_WU */
    const char *cost;         /* --cost: ncube2 (NULL) or linkbound */
    bool collectives_off;     /* --collectives off: direct messages only */
} hd_translate_options;

/* Where the data mappings of a translation come from: the program's map
 * pragmas (default), or Wu 1984's Algorithm II (VI) on an omega-class
 * network, kept where they make the program cheaper (docs/omega.md). */
enum { HD_MAPS_PROGRAM = 0, HD_MAPS_WU = 1 };

/* The input of a translation: the annotated C file, the options that
 * shape its program, and the arguments for clang after "--". */
typedef struct {
    const char *path;         /* the first file */
    hd_translate_options t;
    int nclang;
    char **clang;
    int nmore;                /* the program's other files, after path */
    const char **more;
} hd_translate_input;

/* The command line of a subcommand that translates one file (options.h):
 * -h/--help (help() prints the help), --dim, --mapping and --objective
 * (with their value in the next argument or after '='; defaults: the
 * file's dimension, the optimal mapping, objective max), the options of
 * the table `own` (ended by a NULL name) writing into *opts, one input
 * file and, after it, "--" and clang's arguments.  Usage errors are
 * reported with `command`'s usage line.  -1 to go on with *in filled,
 * else the exit status (help, usage). */
int hd_translate_command_line(int argc, char **argv, const char *usage_line,
                              const char *command, void (*help)(void),
                              const hd_option *own, void *opts,
                              hd_translate_input *in);

/* --objective's value (max, maxsum, sum) into an hd_objective, for an
 * option table (options.h); false when it is none of them. */
bool hd_option_objective(const char *value, void *objective);
/* ecube, omega, butterfly: into an int, 1 + the hd_target_kind. */
bool hd_option_network(const char *value, void *network);

/* Reads the annotated C file in->path (clang arguments in->clang, flags
 * from build_dir/compile_commands.json when build_dir is not NULL) and
 * writes its SPMD program, whose #line directives to itself name
 * out_path, into *out (malloc'ed, *out_len bytes).  Diagnostics go to
 * stderr as the compilers print them.  HD_EXIT_OK with *out and *prog
 * (hd_program_free) set, or HD_EXIT_FAILURE with neither. */
int hd_translate_file(const hd_translate_input *in, const char *build_dir,
                      const char *out_path, char **out, size_t *out_len,
                      hd_program *prog);

/* The same for the files of one program, in->path then in->more
 * (translate a.c b.c -o DIR): out_paths[k] names file k's output in its
 * #line directives, outs[k] and out_lens[k] receive it.  HD_EXIT_OK with
 * every outs[k] and progs[k] set, or HD_EXIT_FAILURE with none. */
int hd_translate_files(const hd_translate_input *in, const char *build_dir,
                       const char *const *out_paths, char **outs, size_t *out_lens,
                       hd_program *progs);

/* The pipeline's first two stages: reads a C file into the model with
 * hd_c_read, with the directory of hyperdo/bits.h and hyperdo.h
 * (PREFIX/include beside an installed PREFIX/bin/hyperdo, else the source
 * tree it was built from) as opt.include_dir, analyses it
 * (hd_analyse_program) and prints both stages' diagnostics on stderr, in
 * source order.  HD_EXIT_OK with *prog and *results (the
 * analysis's) filled, or HD_EXIT_FAILURE. */
int hd_read_c_program(const char *path, hd_c_options opt, hd_program *prog,
                      hd_analysis *results);
/* The same for the nfiles files of one program (hd_c_read_files): each
 * file's diagnostics printed together, file by file.  HD_EXIT_OK with
 * progs[k] and results[k] filled for each, or HD_EXIT_FAILURE with none. */
int hd_read_c_files(const char *const *paths, int nfiles, hd_c_options opt, hd_program *progs,
                    hd_analysis *results);
/* Reads the spec at `path` ("-": standard input, called <stdin> in
 * messages) with `read`: HD_EXIT_OK, or HD_EXIT_FAILURE with the error
 * printed. */
int hd_read_spec_file(const char *path,
                      int (*read)(FILE *in, const char *name, hd_spec *out, hd_diag *err),
                      hd_spec *spec);

/* Prints a malloc'ed answer on stdout and frees it; NULL (out of memory)
 * is reported instead.  Returns the exit status. */
int hd_print_text(char *text);

/* Prints "hyperdo: error: MESSAGE" and the subcommand's usage line on
 * stderr; returns HD_EXIT_USAGE. */
__attribute__((format(printf, 3, 4)))
int hd_usage_error(const char *usage_line, const char *command,
                   const char *fmt, ...);

/* hd_usage_error with a va_list. */
__attribute__((format(printf, 3, 0)))
int hd_usage_verror(const char *usage_line, const char *command,
                    const char *fmt, va_list ap);

#endif
