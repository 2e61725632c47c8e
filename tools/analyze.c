/*
 * analyze.c — `hyperdo analyze`: read a set of LCCs, compute each one's
 * channel contention (Theorem 1), its own optimal reordering mapping
 * (Section 4) and one mapping for the whole set (Section 5), and print
 * either a report for people (analyze_text.c) or one JSON object for
 * programs (analyze_json.c).  This file is the driver: the command line,
 * reading the input, building the plan (analysis.h), choosing the output.
 *
 * Section numbers are those of Hou et al. 2001 (Hou, Wang, Ku, Hsu, "Optimal
 * processor mapping for linear-complement communication on hypercubes").
 *
 * Nothing reaches stdout until the whole answer has been built, so a
 * failure leaves stdout empty and a diagnostic on stderr.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "analyze.h"
#include "commands.h"
#include "frontend.h"

/* ------------------------------------------------------- command line */

typedef struct {
    bool json;
    hd_objective objective;
    const char *path;
    int dim;                  /* --dim for C files, 0 when absent */
    const char *build_dir;    /* -p */
    int nclang;               /* compiler arguments after FILE -- */
    char **clang;
    int kind;                 /* --spec (1), --c (2), or 0: by the name */
    bool layouts;             /* --layouts: the layout advisor (C only) */
    const char *network;      /* --network, NULL when absent */
    const char *cost;         /* --cost, NULL when absent (ncube2) */
    bool collectives_off;     /* --collectives off */
} options;

static const char usage_line[] =
    "usage: hyperdo analyze [--json] [--layouts] [--objective max|maxsum|sum] "
    "[--network ecube|omega|butterfly|all] [--cost ncube2|linkbound] [--collectives on|off] "
    "[--dim n] [-p builddir] [--spec|--c] FILE "
    "[-- clang args...]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Reads a set of linear-complement communications (LCCs) and reports,\n"
        "for an e-cube routed hypercube, how many paths share a channel of\n"
        "each dimension (Hou et al. 2001, Theorem 1), the best renaming of\n"
        "processors for each LCC alone (its Fig. 3 and Theorem 4) and the best\n"
        "one for the whole set (its Section 5 dynamic program).  References:\n"
        "docs/references.md.\n"
        "\n"
        "FILE is a C file annotated with '#pragma hyperdo doall' loops (see\n"
        "docs/annotations.md), or an LCC spec: a spec when its name ends in\n"
        "  .lcc or it is - (standard input), C otherwise; --spec and --c\n"
        "  decide instead.  Example of a spec:\n"
        "  n 8\n"
        "  lcc transpose perm 4 5 6 7 0 1 2 3     # y_i = x_{p_i}\n"
        "  lcc revflip perm 7 6 5 4 3 2 1 0 b 11111111\n"
        "  lcc scale scatter matrix 01000000 00100000 00010000 00000000 "
        "00000100 00000010 00000001 00000000\n"
        "\n"
        "Options:\n"
        "  --json              print one JSON object instead of the report\n"
        "  --spec, --c         read FILE as an LCC spec, or as C, whatever its name\n"
        "  --layouts           C files: for each distributed array, its conflict\n"
        "                      degrees and the contention after mapping under\n"
        "                      each layout it can have (cyclic, block_cyclic(B),\n"
        "                      block, skew, 'block, block', 'cyclic, cyclic',\n"
        "                      xor), and the layout that minimises them\n"
        "                      (docs/layouts.md)\n"
        "  --dim n             C files: the cube has 2^n processors (wins over\n"
        "                      '#pragma hyperdo cube(n)')\n"
        "  -p builddir         C files: take compiler flags from\n"
        "                      builddir/compile_commands.json\n"
        "  -- ARGS             after FILE: extra arguments for clang\n"
        "  --objective OBJ     what the set mapping minimises (default max):\n"
        "                        max     the largest T(A_r, b_r) of any LCC\n"
        "                        maxsum  the largest sum over LCCs of T_i\n"
        "                        sum     the sum over LCCs and dimensions\n"
        "  --network NET       the network to map for (default: the file's\n"
        "                      '#pragma hyperdo network(...)', else ecube):\n"
        "                        ecube      e-cube wormhole hypercube (Hou et al. 2001)\n"
        "                        omega      omega network, cost in passes D (Wu 1984)\n"
        "                        butterfly  indirect binary n-cube (Wu 1984, Chapter 5)\n"
        "                        all        the three side by side, each with its mapping\n"
        "                      (docs/omega.md)\n"
        "  --cost MODEL        the time model of messages on the hypercube:\n"
        "                        ncube2     one port, wormhole (default; Hou et al. 2001)\n"
        "                        linkbound  all ports, store-and-forward (Stout and\n"
        "                                   Wagar 1990)\n"
        "  --collectives W     on (default): each communication of a C file is priced\n"
        "                      as direct messages and as every collective that moves\n"
        "                      it, and the cheapest is chosen; off: direct messages\n"
        "                      (docs/collectives.md)\n"
        "  -h, --help          show this help and exit\n",
        usage_line);
}

/* FILE -- ARGS: the rest goes to clang, as in clang tools; "--" before
 * FILE ends the options. */
static const hd_command_line command_line = {
    "analyze", usage_line, print_help, "FILE",
    "missing FILE (an .lcc spec, or - for standard input)", true
};

/* analyze's options; --spec and --c say how FILE is read. */
static int take_kind(const hd_command_line *cl, options *opt, int kind)
{
    if (opt->kind && opt->kind != kind)
        return hd_option_error(cl, "'--spec' and '--c' exclude each other");
    opt->kind = kind;
    return -1;
}

static int take_spec(const hd_command_line *cl, void *dest, const char *value)
{
    (void)value;
    return take_kind(cl, dest, 1);
}

static int take_c(const hd_command_line *cl, void *dest, const char *value)
{
    (void)value;
    return take_kind(cl, dest, 2);
}

static int take_objective(const hd_command_line *cl, void *dest, const char *value)
{
    if (!value)
        return hd_option_error(cl, "option '--objective' needs a value: max, "
                               "maxsum or sum");
    if (!hd_objective_parse(value, &((options *)dest)->objective))
        return hd_option_error(cl, "unknown objective '%s': expected max, "
                               "maxsum or sum", value);
    return -1;
}

static int take_dim(const hd_command_line *cl, void *dest, const char *value)
{
    long v;
    if (!hd_option_long(value, 1, HD_DP_MAX_DIM, &v))
        return hd_option_error(cl, "option '--dim' needs an integer from 1 to "
                               "%d", HD_DP_MAX_DIM);
    ((options *)dest)->dim = (int)v;
    return -1;
}

static int take_network(const hd_command_line *cl, void *dest, const char *value)
{
    hd_target t;
    if (!value)
        return hd_option_error(cl, "option '--network' needs a value: ecube, omega, "
                               "butterfly or all");
    if (strcmp(value, "all") != 0 && !hd_target_parse(value, 1, &t))
        return hd_option_error(cl, "unknown network '%s': expected ecube, omega, "
                               "butterfly or all", value);
    ((options *)dest)->network = value;
    return -1;
}

static int take_cost(const hd_command_line *cl, void *dest, const char *value)
{
    hd_cost_model m;
    if (!value || !hd_cost_model_parse(value, &m))
        return hd_option_error(cl, "option '--cost' needs ncube2 or linkbound%s%s%s",
                               value ? " (not '" : "", value ? value : "", value ? "')" : "");
    ((options *)dest)->cost = value;
    return -1;
}

static int take_collectives(const hd_command_line *cl, void *dest, const char *value)
{
    if (!value || (strcmp(value, "on") != 0 && strcmp(value, "off") != 0))
        return hd_option_error(cl, "option '--collectives' needs on or off");
    ((options *)dest)->collectives_off = strcmp(value, "off") == 0;
    return -1;
}

static const hd_option analyze_options[] = {
    { "--cost", HD_OPT_VALUE, take_cost, 0, NULL, NULL },
    { "--collectives", HD_OPT_VALUE, take_collectives, 0, NULL, NULL },
    { "--network", HD_OPT_VALUE, take_network, 0, NULL, NULL },
    { "--json", HD_OPT_NO_VALUE, NULL, offsetof(options, json), NULL, NULL },
    { "--layouts", HD_OPT_NO_VALUE, NULL, offsetof(options, layouts), NULL, NULL },
    { "--spec", HD_OPT_NO_VALUE, take_spec, 0, NULL, NULL },
    { "--c", HD_OPT_NO_VALUE, take_c, 0, NULL, NULL },
    { "--objective", HD_OPT_VALUE, take_objective, 0, NULL, NULL },
    { "--dim", HD_OPT_VALUE, take_dim, 0, NULL, NULL },
    { "-p", HD_OPT_VALUE, NULL, offsetof(options, build_dir), "a build directory", NULL },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

/* Into *dest, which holds the defaults; returns -1 to go on, or the
 * exit status to leave with. */
static int parse_options(int argc, char **argv, void *dest)
{
    options *opt = dest;
    const hd_option_table tables[2] = { { analyze_options, opt }, { NULL, NULL } };
    return hd_parse_command_line(&command_line, tables,
                                 (hd_operands){ &opt->path, &opt->nclang, &opt->clang, NULL, NULL },
                                 argc, argv);
}

/* ------------------------------------------------------- reading */

/* Which reader understands a file, by its extension.  Standard input is
 * taken to be a spec. */
typedef struct {
    const char *extension;
    int (*read)(FILE *in, const char *path, hd_spec *out, hd_diag *err);
} reader;

static const reader readers[] = {
    { ".lcc", hd_spec_read },
};

/* The spec reader, or NULL for the C reader (every other file). */
static const reader *reader_for(const char *path)
{
    size_t len = strlen(path);
    if (strcmp(path, "-") == 0)
        return &readers[0];
    for (size_t k = 0; k < sizeof readers / sizeof readers[0]; k++) {
        size_t e = strlen(readers[k].extension);
        if (len > e && strcmp(path + len - e, readers[k].extension) == 0)
            return &readers[k];
    }
    return NULL;
}

/* --network, else the file's pragma, else the e-cube hypercube. */
static const char *network_word(const options *opt, const char *pragma_network)
{
    return opt->network ? opt->network : pragma_network ? pragma_network : "ecube";
}

/* Is the network analysed one omega-class network, for which the
 * program's section is made (Wu 1984)? */
static bool one_omega_class(const char *word, int n, hd_target *t)
{
    return strcmp(word, "all") != 0 && hd_target_parse(word, n, t) &&
           t->kind != HD_TARGET_ECUBE_HYPERCUBE;
}

/* The spec of a C file's communications, which points into *results. */
static int read_c(const options *opt, hd_spec *spec, hd_analysis *results,
                  hd_layout_advice *advice, const char **network, hd_wu_prog *wu)
{
    hd_program prog;
    hd_c_options copt = { opt->dim, opt->nclang, (const char *const *)opt->clang,
                          opt->build_dir, NULL, false };
    if (hd_read_c_program(opt->path, copt, &prog, results) != HD_EXIT_OK)
        return HD_EXIT_FAILURE;
    hd_program_spec(&prog, results, spec);
    hd_target t;
    if (prog.n >= 1 && one_omega_class(network_word(opt, prog.network), prog.n, &t))
        hd_wu_prog_from_c(&prog, results, wu);
    *network = prog.network;   /* a static string (hd_network_words) */
    if (opt->layouts && prog.n >= 1) {
        hd_target target = hd_target_ecube(prog.n);
        hd_advise_layouts(&prog, &target, opt->objective, advice);
    }
    hd_program_free(&prog);
    return HD_EXIT_OK;
}

/* How the kind of an input was decided, said when reading it failed and
 * the name did not make it plain (standard input is a spec, as the help
 * says, unless --c). */
static void say_kind(const options *opt)
{
    const char *path = opt->path;
    size_t len = strlen(path);
    bool plain = opt->kind || strcmp(path, "-") == 0 || (len > 4 && strcmp(path + len - 4, ".lcc") == 0) ||
                 (len > 2 && (strcmp(path + len - 2, ".c") == 0 || strcmp(path + len - 2, ".h") == 0));
    if (plain)
        return;
    fprintf(stderr, "hyperdo: note: '%s' was read as C because its name does not "
                        "end in .lcc; '--spec' reads it as an LCC spec\n", path);
}

/* The input's spec; a C file's points into *results (empty for a spec
 * file), released after it. */
static int read_input(const options *opt, hd_spec *spec, hd_analysis *results,
                      hd_layout_advice *advice, const char **network, hd_wu_prog *wu)
{
    const char *path = opt->path;
    const reader *rd = opt->kind == 2 ? NULL : opt->kind == 1 ? &readers[0] : reader_for(path);
    *network = NULL;
    if (!rd) {
        int status = read_c(opt, spec, results, advice, network, wu);
        if (status == HD_EXIT_FAILURE)
            say_kind(opt);
        return status;
    }
    if (opt->dim || opt->build_dir || opt->nclang || opt->layouts) {
        fprintf(stderr, "hyperdo: error: --dim, --layouts, -p and clang arguments apply "
                        "to C files, not to the spec '%s'\n", path);
        return HD_EXIT_USAGE;
    }
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    if (hd_read_spec_file(path, rd->read, spec) != HD_EXIT_OK)
        return HD_EXIT_FAILURE;
    /* The format allows n up to 64, but the set optimizer keeps a table
     * over all 2^n subsets of address bits (Theorem 5). */
    if (spec->n > HD_DP_MAX_DIM) {
        fprintf(stderr, "%s:%d: error: n = %d is too large: the set "
                "optimizer (Hou et al. 2001, Section 5) handles at most n = %d (its dynamic program "
                "keeps a table over all 2^n subsets of address bits)\n",
                name, spec->n_line, spec->n, HD_DP_MAX_DIM);
        hd_spec_free(spec);
        return HD_EXIT_FAILURE;
    }
    hd_target t;
    if (spec->nstmts > 0 && one_omega_class(network_word(opt, NULL), spec->n, &t))
        hd_wu_prog_from_spec(spec, wu);
    return HD_EXIT_OK;
}

/* ------------------------------------------------------- the command */

static int analyze(void *dest)
{
    const options *opt = dest;
    hd_analysis results = { .nrefs = 0 };   /* outlives spec, which may point into it */
    hd_spec spec;
    hd_layout_advice advice = { 0, NULL };
    const char *pragma_network;
    hd_wu_prog wu = { .nstmts = 0 };
    hd_wu_prog_result wu_result = { .nversions = 0 };
    int status = read_input(opt, &spec, &results, &advice, &pragma_network, &wu);
    if (status != HD_EXIT_OK)
        return status;

    hd_analyze_result res;
    res.name = strcmp(opt->path, "-") == 0 ? "<stdin>" : opt->path;
    res.spec = &spec;
    res.advice = opt->layouts ? &advice : NULL;
    res.networks = NULL;
    res.wu = NULL;
    res.wu_result = NULL;
    const char *word = network_word(opt, pragma_network);
    bool all = strcmp(word, "all") == 0;
    /* Wu 1984's programs on the one omega-class network analysed. */
    hd_target wt;
    if (wu.nstmts > 0 && one_omega_class(word, spec.n, &wt) &&
        hd_wu_prog_analyse(&wt, &wu, &wu_result) == HD_OK) {
        res.wu = &wu;
        res.wu_result = &wu_result;
    }
    hd_plan plans[HD_NETWORKS];
    int built = 0, rc = HD_OK;
    for (int k = 0; k < (all ? HD_NETWORKS : 1) && rc == HD_OK; k++) {
        hd_target target;
        hd_target_parse(all ? hd_target_word((hd_target_kind)k) : word, spec.n, &target);
        if (opt->cost)
            hd_cost_model_parse(opt->cost, &target.cost);
        rc = hd_plan_build(&spec, &target, opt->objective, HD_MAPPING_OPTIMAL, &plans[k]);
        built += rc == HD_OK;
        if (rc == HD_OK)
            hd_plan_choose_collectives(&plans[k], &spec, !opt->collectives_off);
    }
    if (rc != HD_OK) {
        fprintf(stderr, "hyperdo: error: the set optimizer failed (internal error)\n");
        status = HD_EXIT_FAILURE;
    } else {
        res.p = plans[0];
        res.networks = all ? plans : NULL;
        if (opt->json)
            hd_analyze_json(&res, stdout);   /* main checks stdout's errors */
        else
            status = hd_print_text(hd_analyze_report(&res));
    }
    for (int k = 0; k < built; k++)
        hd_plan_free(&plans[k]);
    hd_spec_free(&spec);
    hd_analysis_free(&results);
    hd_layout_advice_free(&advice);
    hd_wu_prog_result_free(&wu_result);
    hd_wu_prog_free(&wu);
    return status;
}

int hd_cmd_analyze(int argc, char **argv)
{
    options opt = { .objective = HD_OBJ_MAX };
    return hd_run_command(argc, argv, &opt, parse_options, analyze);
}
