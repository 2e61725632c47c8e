/*
 * hyperdo.c — the command-line driver: the global options and a table of
 * subcommands, each implemented in a file of its own.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

#ifndef PROJECT_VERSION
#error "PROJECT_VERSION must be defined by the build"
#endif

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    { "analyze", "channel contention of a set of LCCs and the processor "
                 "mapping that minimises it", hd_cmd_analyze },
    { "translate", "write the SPMD C program of an annotated C file",
                   hd_cmd_translate },
    { "check", "translate, build and run a program both ways and compare "
               "what they print", hd_cmd_check },
    { "sim", "simulate one LCC on a flit-level wormhole n-cube, with or "
             "without the mapping, or a collective on the link-bound cube",
             hd_cmd_sim },
    { "map", "map a finite element mesh onto the n-cube (Chung and Ranka "
             "1990, Scotch, METIS) and report its cost", hd_cmd_map },
    { "cost", "cost a mapping of a finite element mesh as Chung and Ranka "
              "1990 do", hd_cmd_cost },
};

#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void print_usage(FILE *out)
{
    fprintf(out,
        "usage: hyperdo [--help] [--version] COMMAND [ARGS...]\n"
        "       hyperdo help [COMMAND]\n"
        "\n"
        "Hyperdo renames the processors of a hypercube so that the\n"
        "linear-complement communications (LCCs) of a program contend for\n"
        "as few channels as possible under e-cube wormhole routing\n"
        "(Hou, Wang, Ku, Hsu, IEEE TPDS 2001).\n"
        "\n"
        "Commands:\n");
    for (int k = 0; k < NCOMMANDS; k++)
        fprintf(out, "  %-10s %s\n", commands[k].name, commands[k].summary);
    fprintf(out,
        "\n"
        "Options:\n"
        "  -h, --help     show this help and exit\n"
        "  --version      show the version and exit\n"
        "\n"
        "Run 'hyperdo COMMAND --help' or 'hyperdo help COMMAND' for the\n"
        "options of a command.\n");
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "hyperdo: error: %s%s%s%s\n", what,
            arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    fprintf(stderr, "usage: hyperdo [--help] [--version] COMMAND [ARGS...] "
                    "(see 'hyperdo --help')\n");
    return HD_EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("no command given", NULL);
    const char *arg = argv[1];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        print_usage(stdout);
        return HD_EXIT_OK;
    }
    if (strcmp(arg, "--version") == 0) {
        printf("hyperdo %s\n", PROJECT_VERSION);
        return HD_EXIT_OK;
    }
    if (arg[0] == '-')
        return usage_error("unknown option", arg);
    if (strcmp(arg, "help") == 0) {
        /* hyperdo help [COMMAND]: as --help, or as COMMAND --help */
        if (argc < 3) {
            print_usage(stdout);
            return HD_EXIT_OK;
        }
        if (argc > 3)
            return usage_error("help takes one command, not", argv[3]);
        for (int k = 0; k < NCOMMANDS; k++)
            if (strcmp(argv[2], commands[k].name) == 0) {
                char *help[] = { argv[2], "--help", NULL };
                return commands[k].run(2, help);
            }
        return usage_error("unknown command", argv[2]);
    }
    for (int k = 0; k < NCOMMANDS; k++)
        if (strcmp(arg, commands[k].name) == 0)
            return commands[k].run(argc - 1, argv + 1);
    return usage_error("unknown command", arg);
}

int main(int argc, char **argv)
{
    int status = dispatch(argc, argv);
    /* A full disk or closed pipe must not pass for success. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hyperdo: error: cannot write the output\n");
        return HD_EXIT_FAILURE;
    }
    return status;
}
