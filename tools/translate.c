/*
 * translate.c — `hyperdo translate`: an annotated C program in, the SPMD
 * program that runs it on 2^n processors out (codegen.h).
 *
 * The output is written to a temporary file beside it and renamed into
 * place only when everything succeeded, so a failed run never leaves a
 * partial file and never touches an existing one; the same goes for the
 * dependency file of -MD.
 *
 * The command line of a translation (the input, the options that shape
 * the program: --dim, --mapping, --objective, clang's arguments) and the
 * translation itself are shared with `hyperdo check` (commands.h), which
 * translates into a directory of its own.
 */
#define _XOPEN_SOURCE 700   /* mkstemp, fsync */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "codegen.h"
#include "commands.h"
#include "frontend.h"

typedef struct {
    hd_translate_input in;    /* in.c, --dim..., clang's arguments */
    const char *out;
    const char *depfile;      /* -MF */
    bool md;                  /* -MD */
    const char *build_dir;
    bool to_dir;              /* -o DIR: DIR/<each input's name> */
    int nfiles;               /* the inputs: in.path, then in.more */
    const char **inputs;
    char **outputs;           /* their outputs (to_dir) */
} options;

static const char usage_line[] =
    "usage: hyperdo translate [--dim n] [--mapping optimal|identity] "
    "[--objective max|maxsum|sum] [--network ecube|omega|butterfly] [--maps program|wu] "
    "[--cost ncube2|linkbound] [--collectives on|off] [-MD [-MF depfile]] "
    "[-p builddir] in.c -o out.c | a.c b.c ... -o DIR [-- clang args...]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Writes the SPMD C program that runs the '#pragma hyperdo doall' loops\n"
        "of in.c on the 2^n processors of a hypercube, with the processor\n"
        "mapping that minimises channel contention (Hou et al. 2001, Fig. 1d).  Build\n"
        "the result with  cc out.c $(pkg-config --cflags --libs hyperdo)  or\n"
        "mpicc out.c $(pkg-config --cflags --libs hyperdo-mpi); it prints what\n"
        "in.c prints and exits with its status.  See docs/codegen.md.\n"
        "\n"
        "Options:\n"
        "  -o out.c            where to write the program (required; - for\n"
        "                      standard output)\n"
        "  --dim n             the cube has 2^n processors (wins over\n"
        "                      '#pragma hyperdo cube(n)')\n"
        "  --mapping M         optimal (default): the mapping for all the file's\n"
        "                      LCCs (Hou et al. 2001, Section 5); identity: no\n"
        "                      reordering\n"
        "  --objective OBJ     what the optimal mapping minimises: max\n"
        "                      (default), maxsum or sum (see hyperdo analyze)\n"
        "  --network NET       map for ecube (default: e-cube routed hypercube),\n"
        "                      omega or butterfly (Wu 1984: the linear mapping\n"
        "                      with the fewest passes, docs/omega.md); wins over\n"
        "                      '#pragma hyperdo network(...)'\n"
        "  --maps M            program (default): the data mappings of the\n"
        "                      program's '#pragma hyperdo map'; wu: those Wu 1984's\n"
        "                      Algorithm II (VI) chooses, one per array and doall,\n"
        "                      where they make the program cheaper (omega and\n"
        "                      butterfly only; the header says what was decided)\n"
        "  --cost MODEL        the time model the choice of collectives uses: ncube2\n"
        "                      (default: one port, wormhole) or linkbound (all\n"
        "                      ports, store-and-forward; Stout and Wagar 1990)\n"
        "  --collectives W     on (default): a doall whose communication a collective\n"
        "                      moves faster on that model uses it (docs/\n"
        "                      collectives.md); off: direct messages always\n"
        "  -MD                 also write a make rule listing the files out.c\n"
        "                      depends on, to out.d (out.c without .c) or -MF\n"
        "  -MF depfile         where -MD writes it\n"
        "  -p builddir         take compiler flags from\n"
        "                      builddir/compile_commands.json\n"
        "  -- ARGS             after in.c: extra arguments for clang\n"
        "  -h, --help          show this help and exit\n"
        "\n"
        "in.c may be - for standard input (read as C, named <stdin>).\n"
        "\n"
        "A program of several files is translated together, with one mapping for\n"
        "the doalls of all its files: hyperdo translate a.c b.c -o DIR writes\n"
        "DIR/a.c and DIR/b.c (DIR is made if missing), to be compiled together;\n"
        "-MD then writes DIR.d.  See docs/annotations.md, \"Programs of several\n"
        "files\".\n",
        usage_line);
}

#define usage_error(...) hd_usage_error(usage_line, "translate", __VA_ARGS__)

/* Do two names denote one file (the same string, or the same inode)? */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;      /* standard input or output */
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* ------------------------------------------------------ command line */

/* The defaults: the file's dimension, the optimal mapping, objective max. */
static void translate_defaults(hd_translate_options *t)
{
    memset(t, 0, sizeof *t);
    t->gen.mapping = HD_MAPPING_OPTIMAL;
    t->gen.objective = HD_OBJ_MAX;
}

/* --dim, --mapping and --objective, into an hd_translate_options; a bad
 * or missing value is reported with the command's usage line. */
static int take_dim(const hd_command_line *cl, void *dest, const char *value)
{
    long v;
    if (!hd_option_long(value, 1, HD_CODEGEN_MAX_DIM, &v))
        return hd_option_error(cl, "option '--dim' needs an integer from 1 to %d",
                               HD_CODEGEN_MAX_DIM);
    ((hd_translate_options *)dest)->dim = (int)v;
    return -1;
}

static bool parse_mapping(const char *value, void *mapping)
{
    if (strcmp(value, "optimal") == 0)
        *(hd_mapping_choice *)mapping = HD_MAPPING_OPTIMAL;
    else if (strcmp(value, "identity") == 0)
        *(hd_mapping_choice *)mapping = HD_MAPPING_IDENTITY;
    else
        return false;
    return true;
}

static bool parse_maps(const char *value, void *maps)
{
    if (strcmp(value, "program") == 0)
        *(int *)maps = HD_MAPS_PROGRAM;
    else if (strcmp(value, "wu") == 0)
        *(int *)maps = HD_MAPS_WU;
    else
        return false;
    return true;
}

static bool parse_cost(const char *value, void *cost)
{
    hd_cost_model m;
    if (!hd_cost_model_parse(value, &m))
        return false;
    *(const char **)cost = value;
    return true;
}

static bool parse_collectives(const char *value, void *off)
{
    if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
        return false;
    *(bool *)off = strcmp(value, "off") == 0;
    return true;
}

static const hd_option translate_options[] = {
    { "--cost", HD_OPT_VALUE, NULL, offsetof(hd_translate_options, cost),
      "ncube2 or linkbound", parse_cost },
    { "--collectives", HD_OPT_VALUE, NULL, offsetof(hd_translate_options, collectives_off),
      "on or off", parse_collectives },
    { "--dim", HD_OPT_VALUE, take_dim, 0, NULL, NULL },
    { "--mapping", HD_OPT_VALUE, NULL, offsetof(hd_translate_options, gen.mapping),
      "'optimal' or 'identity'", parse_mapping },
    { "--objective", HD_OPT_VALUE, NULL, offsetof(hd_translate_options, gen.objective),
      "max, maxsum or sum", hd_option_objective },
    { "--network", HD_OPT_VALUE, NULL, offsetof(hd_translate_options, network),
      "ecube, omega or butterfly", hd_option_network },
    { "--maps", HD_OPT_VALUE, NULL, offsetof(hd_translate_options, maps),
      "'program' or 'wu'", parse_maps },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

int hd_translate_command_line(int argc, char **argv, const char *usage,
                              const char *command, void (*help)(void),
                              const hd_option *own, void *opts,
                              hd_translate_input *in)
{
    memset(in, 0, sizeof *in);
    translate_defaults(&in->t);
    /* "--" before the input file is no option of these commands. */
    const hd_command_line cl = {
        .command = command, .usage_line = usage, .help = help,
        .operand = "input file", .missing = "missing the input file",
        .dashdash_ends_options = false,
    };
    const hd_option_table tables[2] = { { translate_options, &in->t }, { own, opts } };
    return hd_parse_command_line(&cl, tables, (hd_operands){ &in->path, &in->nclang, &in->clang,
                                                             &in->more, &in->nmore },
                                 argc, argv);
}

/* translate's own options: -o, -MD, -MF, -p, each value in the next
 * argument only. */
static const hd_option own_options[] = {
    { "-o", HD_OPT_VALUE, NULL, offsetof(options, out), "a file name", NULL },
    { "-MD", HD_OPT_NO_VALUE, NULL, offsetof(options, md), NULL, NULL },
    { "-MF", HD_OPT_VALUE, NULL, offsetof(options, depfile), "a file name", NULL },
    { "-p", HD_OPT_VALUE, NULL, offsetof(options, build_dir), "a build directory", NULL },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* DIR/NAME (malloc'ed). */
static char *in_directory(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    bool slash = n > 0 && dir[n - 1] == '/';
    char *p = hd_xmalloc(n + strlen(name) + 2);
    sprintf(p, "%s%s%s", dir, slash ? "" : "/", name);
    return p;
}

/* -o DIR: each input's output is DIR/<its name>; nothing may collide with
 * an input or another output. */
static int parse_directory_options(options *opt)
{
    if (strcmp(opt->out, "-") == 0)
        return usage_error("several files cannot go to standard output: '-o DIR' "
                           "names the directory of their outputs");
    opt->outputs = hd_xcalloc((size_t)opt->nfiles, sizeof *opt->outputs);
    for (int k = 0; k < opt->nfiles; k++) {
        if (strcmp(opt->inputs[k], "-") == 0)
            return usage_error("standard input has no name for its output in '%s': "
                               "give the program's files by name", opt->out);
        for (int j = 0; j < k; j++)
            if (strcmp(base_of(opt->inputs[j]), base_of(opt->inputs[k])) == 0)
                return usage_error("two inputs named '%s' ('%s' and '%s'): their outputs "
                                   "in '%s' would have one name", base_of(opt->inputs[k]),
                                   opt->inputs[j], opt->inputs[k], opt->out);
        opt->outputs[k] = in_directory(opt->out, base_of(opt->inputs[k]));
    }
    for (int k = 0; k < opt->nfiles; k++)
        for (int j = 0; j < opt->nfiles; j++)
            if (same_file(opt->inputs[j], opt->outputs[k]))
                return usage_error("the output '%s' would overwrite the input",
                                   opt->outputs[k]);
    if (opt->depfile && !opt->md)
        return usage_error("'-MF' goes with '-MD'");
    for (int k = 0; opt->depfile && k < opt->nfiles; k++) {
        if (same_file(opt->depfile, opt->inputs[k]))
            return usage_error("the dependency file '%s' would overwrite the input",
                               opt->depfile);
        if (same_file(opt->depfile, opt->outputs[k]))
            return usage_error("the dependency file '%s' is also an output", opt->depfile);
    }
    return -1;
}

/* -1 to go on, else the exit status (help, usage error). */
static int parse_options(int argc, char **argv, void *dest)
{
    options *opt = dest;
    int rc = hd_translate_command_line(argc, argv, usage_line, "translate",
                                       print_help, own_options, opt, &opt->in);
    if (rc >= 0)
        return rc;
    opt->nfiles = 1 + opt->in.nmore;
    opt->inputs = hd_xmalloc((size_t)opt->nfiles * sizeof *opt->inputs);
    opt->inputs[0] = opt->in.path;
    for (int k = 1; k < opt->nfiles; k++)
        opt->inputs[k] = opt->in.more[k - 1];
    if (!opt->out)
        return usage_error(opt->nfiles > 1 ? "missing '-o DIR'" : "missing '-o out.c'");
    opt->to_dir = opt->nfiles > 1;
    if (opt->to_dir)
        return parse_directory_options(opt);
    if (opt->depfile && !opt->md)
        return usage_error("'-MF' goes with '-MD'");
    if (opt->md && strcmp(opt->out, "-") == 0)
        return usage_error("'-MD' writes a rule for the output file: not with '-o -'");
    if (same_file(opt->in.path, opt->out))
        return usage_error("the output '%s' would overwrite the input", opt->out);
    if (opt->depfile && same_file(opt->depfile, opt->in.path))
        return usage_error("the dependency file '%s' would overwrite the input",
                           opt->depfile);
    if (opt->depfile && same_file(opt->depfile, opt->out))
        return usage_error("the dependency file '%s' is also the output",
                           opt->depfile);
    return -1;
}

/* ------------------------------------------------------------ files */

/* A file being written: the data goes to a temporary file in the same
 * directory, renamed over the real name only when every output is ready,
 * so that readers see the old files or all the new ones. */
typedef struct {
    const char *path;
    char *tmp;
} pending;

/* Removes w's temporary file, if it has one: nothing of w is written. */
static void drop_pending(pending *w)
{
    if (w->tmp) {
        unlink(w->tmp);
        free(w->tmp);
        w->tmp = NULL;
    }
}

/* Reports that `path` cannot be written (errno err) and drops w. */
static bool cannot_write(pending *w, const char *path, int err)
{
    fprintf(stderr, "hyperdo: error: cannot write '%s': %s\n", path, strerror(err));
    drop_pending(w);
    return false;
}

static bool write_pending(pending *w, const char *path, const char *data, size_t len)
{
    size_t n = strlen(path);
    w->path = path;
    w->tmp = hd_xmalloc(n + 16);
    snprintf(w->tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(w->tmp);
    if (fd < 0) {
        int err = errno;
        free(w->tmp);
        w->tmp = NULL;        /* mkstemp made no file: nothing to unlink */
        return cannot_write(w, path, err);
    }
    FILE *f = fdopen(fd, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len && fflush(f) == 0 &&
              fsync(fileno(f)) == 0;
    int saved = errno;
    /* mkstemp makes the file 0600; give it what a compiler's output gets. */
    mode_t mask = umask(0);
    umask(mask);
    if (f && fchmod(fileno(f), 0666 & ~mask) != 0 && ok) {
        saved = errno;
        ok = false;
    }
    if (f ? fclose(f) != 0 : (close(fd), true))
        ok = false;
    if (!ok)
        return cannot_write(w, path, saved);
    return true;
}

static bool commit_pending(pending *w)
{
    if (rename(w->tmp, w->path) != 0)
        return cannot_write(w, w->path, errno);
    free(w->tmp);
    w->tmp = NULL;
    return true;
}

/* The files being written, whose temporary files go if memory runs out
 * meanwhile (hd_on_fatal). */
static pending *being_written;
static int nbeing_written;

static void unlink_being_written(void)
{
    for (int k = 0; k < nbeing_written; k++)
        if (being_written[k].tmp)
            unlink(being_written[k].tmp);
}

/* Text for a make rule; `escape` escapes a file name as GCC does. */
static void put_make(char **s, size_t *len, size_t *cap, const char *text,
                     bool escape)
{
    for (const char *c = text; *c; c++) {
        if (*len + 4 > *cap) {
            *cap = (*cap + 64) * 2;
            *s = hd_xrealloc(*s, *cap);
        }
        if (escape && (*c == ' ' || *c == '#'))
            (*s)[(*len)++] = '\\';
        else if (escape && *c == '$')
            (*s)[(*len)++] = '$';
        (*s)[(*len)++] = *c;
    }
    if (*s)
        (*s)[*len] = '\0';
}

/* A header included more than once, by one file or by several, is
 * listed once. */
static bool listed_before(const hd_program *progs, int p, int k)
{
    for (int q = 0; q <= p; q++)
        for (int j = 0; j < (q < p ? progs[q].nincludes : k); j++)
            if (strcmp(progs[q].includes[j], progs[p].includes[k]) == 0)
                return true;
    return false;
}

/* Each header once, between before and after. */
static void put_headers(char **s, size_t *len, size_t *cap, const hd_program *progs,
                        int nprogs, const char *before, const char *after)
{
    for (int p = 0; p < nprogs; p++)
        for (int k = 0; k < progs[p].nincludes; k++) {
            if (listed_before(progs, p, k))
                continue;
            put_make(s, len, cap, before, false);
            put_make(s, len, cap, progs[p].includes[k], true);
            put_make(s, len, cap, after, false);
        }
    /* (A program of several files has no table distribution.) */
    const hd_program *prog = &progs[0];
    /* The mapping files of table("FILE"): their owners are written into
     * out.c, so a new mapping must translate again. */
    for (int k = 0; k < prog->ntables; k++) {
        if (!prog->tables[k].from_file || !prog->tables[k].path)
            continue;
        put_make(s, len, cap, before, false);
        put_make(s, len, cap, prog->tables[k].path, true);
        put_make(s, len, cap, after, false);
    }
}

/* out.c: in.c headers...  and an empty rule per header (like -MP), so that
 * a deleted header does not stop make.  For a program of several files,
 * every output depends on every input and every header: the mapping and
 * the arrays' distributions are the whole program's. */
static char *dependencies(const options *opt, const char *const *outs, const hd_program *progs,
                          size_t *len)
{
    char *s = NULL;
    size_t cap = 0;
    *len = 0;
    for (int k = 0; k < opt->nfiles; k++) {
        if (k)
            put_make(&s, len, &cap, " ", false);
        put_make(&s, len, &cap, outs[k], true);
    }
    put_make(&s, len, &cap, ":", false);
    /* Standard input is no file make could check. */
    for (int k = 0; k < opt->nfiles; k++)
        if (strcmp(opt->inputs[k], "-") != 0) {
            put_make(&s, len, &cap, " ", false);
            put_make(&s, len, &cap, opt->inputs[k], true);
        }
    put_headers(&s, len, &cap, progs, opt->nfiles, " \\\n  ", "");
    put_make(&s, len, &cap, "\n", false);
    put_headers(&s, len, &cap, progs, opt->nfiles, "\n", ":\n");
    return s;
}

/* out.d for out.c; DIR.d for a directory. */
static char *default_depfile(const char *out, bool to_dir)
{
    size_t n = strlen(out);
    char *d = hd_xmalloc(n + 3);
    memcpy(d, out, n + 1);
    while (to_dir && n > 1 && d[n - 1] == '/')
        d[--n] = '\0';
    if (!to_dir && n > 2 && strcmp(d + n - 2, ".c") == 0)
        d[n - 2] = '\0';
    strcat(d, ".d");
    return d;
}

/* --------------------------------------------- --maps wu (Wu 1984) */

/* The passes of the whole program under the program's data mappings now:
 * its plan's (the communications, under the processor mapping the plan
 * chooses) and, given Wu's view w and its mappings at, the remaps. */
static int program_passes(const hd_program *prog, const hd_analysis *results,
                          const hd_target *t, const hd_codegen_options *gen,
                          const hd_wu_prog *w, const hd_agl *at, uint64_t *passes)
{
    hd_spec comms;
    hd_plan plan;
    hd_program_spec(prog, results, &comms);
    int rc = hd_plan_build(&comms, t, gen->objective, gen->mapping, &plan);
    if (rc == HD_OK) {
        *passes = plan.passes_after;
        if (at)
            *passes += (uint64_t)hd_wu_prog_remaps(t, w, at, &plan.mapping);
        hd_plan_free(&plan);
    } else {
        fprintf(stderr, "hyperdo: error: the set optimizer failed (internal error)\n");
    }
    hd_spec_free(&comms);
    return rc;
}

/* The analysis again, after the model's mappings changed. */
static int reanalyse(const char *path, hd_program *prog, hd_analysis *results)
{
    hd_diags d;
    hd_diags_init(&d, path);
    hd_diags_set_source(&d, prog->source, prog->source_len);
    hd_analysis_free(results);
    int errors = hd_analyse_program(prog, &d, results);
    char *text = hd_diags_text(&d);
    hd_diags_free(&d);
    if (errors) {
        fprintf(stderr, "hyperdo: error: the program does not analyse under the data mappings "
                        "--maps wu chose (internal error):\n%s", text ? text : "");
    }
    free(text);
    return errors ? HD_EXIT_FAILURE : HD_EXIT_OK;
}

/*
 * --maps wu: the data mappings of Wu 1984's Algorithm II (VI on the
 * butterfly) for the doalls in the order of the text, one per array and
 * doall (wu_program.c), put into the model as if map pragmas had stood
 * before the doalls, then the whole program priced with and without
 * them (its plan's passes under the processor mapping chosen for each,
 * and the remaps): kept only when cheaper.  What was decided goes into
 * the header as a note.  Correctness does not rest on the choice: the
 * runtime remaps before each doall whatever the path (docs/omega.md).
 */
static int choose_wu_maps(const char *path, hd_program *prog, hd_analysis *results,
                          const hd_target *t, const hd_codegen_options *gen, char *note,
                          size_t size)
{
    if (t->kind != HD_TARGET_OMEGA && t->kind != HD_TARGET_BUTTERFLY) {
        fprintf(stderr, "hyperdo: error: '--maps wu' needs an omega-class network (--network "
                        "omega or butterfly, or '#pragma hyperdo network(...)'): Wu 1984 "
                        "prices data mappings in passes\n");
        return HD_EXIT_FAILURE;
    }
    if (prog->nmaps) {
        hd_diags d;
        hd_diags_init(&d, path);
        hd_diags_set_source(&d, prog->source, prog->source_len);
        hd_report(&d, HD_ERROR, prog->maps[0].offset, prog->maps[0].line,
                  "'--maps wu' chooses the data mappings itself, and the program has map "
                  "pragmas of its own: remove them, or translate without '--maps wu'");
        char *text = hd_diags_text(&d);
        hd_diags_free(&d);
        fputs(text ? text : "", stderr);
        free(text);
        return HD_EXIT_FAILURE;
    }
    const char *alg = t->kind == HD_TARGET_OMEGA ? "II" : "VI";
    hd_wu_prog w;
    hd_wu_prog_result r;
    memset(&r, 0, sizeof r);
    hd_wu_prog_from_c(prog, results, &w);
    int status = HD_EXIT_OK;
    uint64_t before = 0, after = 0;
    if (w.nstmts == 0 || hd_wu_prog_analyse(t, &w, &r) != HD_OK) {
        snprintf(note, size, "--maps wu: no doall writes a distributed array: no data mapping.");
    } else if (r.map_status != HD_OK) {
        snprintf(note, size, "--maps wu: Algorithm %s (Wu 1984) was not run (%d versions, "
                 "more than %d): no data mapping.", alg, r.nversions, HD_WU_PROGRAM_MAX_VERSIONS);
    } else if (!r.improves) {
        snprintf(note, size, "--maps wu: the data mappings from Algorithm %s (Wu 1984), one per "
                 "array and doall, would cost\n%d passes against %d without (Wu's transfers and "
                 "remaps): none applied.", alg, r.realized, r.map_identity);
    } else if (program_passes(prog, results, t, gen, &w, NULL, &before) != HD_OK) {
        status = HD_EXIT_FAILURE;
    } else {
        hd_wu_map *m;
        int count = hd_wu_prog_maps(&w, &r, &m);
        for (int k = 0; k < count; k++) {
            hd_affine F = hd_agl_affine(&m[k].F);
            hd_program_add_map(prog, w.array[m[k].vector], &prog->loops[w.stmts[m[k].stmt].loop],
                               &F);
        }
        free(m);
        status = reanalyse(path, prog, results);
        if (status == HD_EXIT_OK &&
            program_passes(prog, results, t, gen, &w, r.at, &after) != HD_OK)
            status = HD_EXIT_FAILURE;
        if (status == HD_EXIT_OK && after >= before) {
            prog->nmaps = 0;
            status = reanalyse(path, prog, results);
            snprintf(note, size, "--maps wu: the data mappings from Algorithm %s (Wu 1984; %d map "
                     "pragmas) would cost %llu passes\nwith the remaps, against %llu without: none "
                     "applied.",
                     alg, count, (unsigned long long)after, (unsigned long long)before);
        } else if (status == HD_EXIT_OK) {
            snprintf(note, size, "--maps wu: the data mappings below come from Algorithm %s (Wu "
                     "1984), one per array and doall,\nimproved by Hyperdo's descent "
                     "(docs/omega.md): %llu passes with the remaps, against %llu\nwithout "
                     "them (each under its plan's processor mapping).",
                     alg, (unsigned long long)after, (unsigned long long)before);
        }
    }
    hd_wu_prog_result_free(&r);
    hd_wu_prog_free(&w);
    return status;
}

int hd_translate_file(const hd_translate_input *in, const char *build_dir,
                      const char *out_path, char **out, size_t *out_len,
                      hd_program *prog)
{
    *out = NULL;
    *out_len = 0;
    hd_c_options copt = { in->t.dim, in->nclang,
                          (const char *const *)in->clang, build_dir, NULL,
                          true };
    hd_analysis results;
    if (hd_read_c_program(in->path, copt, prog, &results) != HD_EXIT_OK)
        return HD_EXIT_FAILURE;

    if (!prog->source) {
        fprintf(stderr, "hyperdo: error: clang gave no text for '%s'\n", in->path);
        hd_program_free(prog);
        hd_analysis_free(&results);
        return HD_EXIT_FAILURE;
    }
    hd_codegen_options gen = in->t.gen;
    gen.out_path = out_path;
    char note[512] = "";
    if (in->t.maps == HD_MAPS_WU && prog->n >= 1 && prog->n <= HD_CODEGEN_MAX_DIM) {
        hd_target target;
        hd_target_parse(in->t.network ? hd_target_word((hd_target_kind)(in->t.network - 1))
                        : prog->network ? prog->network : "ecube", prog->n, &target);
        if (choose_wu_maps(in->path, prog, &results, &target, &gen, note, sizeof note) !=
            HD_EXIT_OK) {
            hd_program_free(prog);
            hd_analysis_free(&results);
            return HD_EXIT_FAILURE;
        }
        gen.maps_note = note;
    }
    /* The plan of the program's communications: the mapping, once
     * (codegen reports a cube it cannot translate without one). */
    hd_spec comms;
    hd_plan plan;
    bool planned = false;
    memset(&comms, 0, sizeof comms);
    if (prog->n >= 1 && prog->n <= HD_CODEGEN_MAX_DIM) {
        hd_program_spec(prog, &results, &comms);
        /* --network, else the file's pragma, else the e-cube hypercube. */
        hd_target target;
        hd_target_parse(in->t.network ? hd_target_word((hd_target_kind)(in->t.network - 1))
                        : prog->network ? prog->network : "ecube", prog->n, &target);
        if (in->t.cost)
            hd_cost_model_parse(in->t.cost, &target.cost);
        if (hd_plan_build(&comms, &target, gen.objective, gen.mapping, &plan) != HD_OK) {
            fprintf(stderr, "hyperdo: error: the set optimizer failed (internal error)\n");
            hd_spec_free(&comms);
            hd_program_free(prog);
            hd_analysis_free(&results);
            return HD_EXIT_FAILURE;
        }
        planned = true;
        /* Direct messages or a collective (Stout and Wagar 1990), per
         * communication, on the target's cost model (docs/collectives.md). */
        hd_plan_choose_collectives(&plan, &comms, !in->t.collectives_off);
    }
    /* The text clang parsed, not the file read again: the offsets are
     * into that text, and the file may have changed since. */
    char *diagnostics = NULL;
    int errors = hd_codegen(prog, &results, planned ? &plan : NULL, prog->source,
                            prog->source_len, &gen, out, out_len, &diagnostics);
    if (planned)
        hd_plan_free(&plan);
    hd_spec_free(&comms);
    hd_analysis_free(&results);
    if (diagnostics) {
        fputs(diagnostics, stderr);
        free(diagnostics);
    }
    if (errors == 0)
        return HD_EXIT_OK;
    free(*out);
    *out = NULL;
    hd_program_free(prog);
    return HD_EXIT_FAILURE;
}

/* The hyperdo_files of a program of several files: the runtime's arrays
 * numbered for the whole program (an array without static that several
 * files declare is one), the doalls in the order of the files, and the
 * file with main. */
static void number_program(const hd_program *progs, int nfiles, hd_codegen_files *f)
{
    int **ids = hd_xcalloc((size_t)nfiles, sizeof *ids);
    int *base = hd_xcalloc((size_t)nfiles, sizeof *base);
    memset(f, 0, sizeof *f);
    f->nunits = nfiles;
    f->progs = progs;
    for (int u = 0; u < nfiles; u++) {
        const hd_program *p = &progs[u];
        base[u] = f->nloops;
        f->nloops += p->nloops;
        if (p->has_main)
            f->main_unit = u;
        ids[u] = hd_xmalloc((size_t)(p->narrays ? p->narrays : 1) * sizeof *ids[u]);
        for (int a = 0; a < p->narrays; a++) {
            const hd_array *x = &p->arrays[a];
            ids[u][a] = -1;
            if (x->dist == HD_DIST_NONE)
                continue;
            for (int v = 0; v < u && ids[u][a] < 0 && x->external; v++)
                for (int b = 0; b < progs[v].narrays; b++)
                    if (progs[v].arrays[b].external && ids[v][b] >= 0 &&
                        strcmp(progs[v].arrays[b].name, x->name) == 0) {
                        ids[u][a] = ids[v][b];
                        break;
                    }
            if (ids[u][a] < 0)
                ids[u][a] = f->ndist++;
        }
    }
    f->array_id = (const int *const *)ids;
    f->loop_base = base;
}

static void free_numbering(hd_codegen_files *f)
{
    for (int u = 0; u < f->nunits; u++)
        free((int *)f->array_id[u]);
    free((int **)f->array_id);
    free((int *)f->loop_base);
}

int hd_translate_files(const hd_translate_input *in, const char *build_dir,
                       const char *const *out_paths, char **outs, size_t *out_lens,
                       hd_program *progs)
{
    int nfiles = 1 + in->nmore;
    for (int k = 0; k < nfiles; k++) {
        outs[k] = NULL;
        out_lens[k] = 0;
    }
    if (in->t.maps == HD_MAPS_WU) {
        fprintf(stderr, "hyperdo: error: '--maps wu' is not supported yet for a program of "
                        "several files: Wu 1984's data mappings are chosen and kept file by "
                        "file\n");
        return HD_EXIT_FAILURE;
    }
    const char **paths = hd_xmalloc((size_t)nfiles * sizeof *paths);
    paths[0] = in->path;
    for (int k = 1; k < nfiles; k++)
        paths[k] = in->more[k - 1];
    hd_c_options copt = { in->t.dim, in->nclang, (const char *const *)in->clang, build_dir,
                          NULL, true };
    hd_analysis *results = hd_xcalloc((size_t)nfiles, sizeof *results);
    int status = hd_read_c_files(paths, nfiles, copt, progs, results);
    free(paths);
    if (status != HD_EXIT_OK) {
        free(results);
        return HD_EXIT_FAILURE;
    }
    /* The plan of the communications of all the files: one mapping for
     * every doall of the program (codegen reports a cube it cannot
     * translate without one).  Each file's entries follow those of the
     * files before it, as hd_program_spec lists them file by file. */
    int n = progs[0].n;
    hd_spec *parts = hd_xcalloc((size_t)nfiles, sizeof *parts);
    int *first = hd_xcalloc((size_t)nfiles + 1, sizeof *first);
    hd_spec comms;
    memset(&comms, 0, sizeof comms);
    hd_plan plan;
    bool planned = false;
    if (n >= 1 && n <= HD_CODEGEN_MAX_DIM) {
        for (int u = 0; u < nfiles; u++) {
            hd_program_spec(&progs[u], &results[u], &parts[u]);
            first[u + 1] = first[u] + parts[u].m;
        }
        comms.n = n;
        comms.m = first[nfiles];
        comms.lccs = hd_xcalloc((size_t)(comms.m ? comms.m : 1), sizeof *comms.lccs);
        for (int u = 0; u < nfiles; u++) {
            /* Moved: the parts keep nothing hd_spec_free would free twice. */
            if (parts[u].m)
                memcpy(comms.lccs + first[u], parts[u].lccs,
                       (size_t)parts[u].m * sizeof *comms.lccs);
            parts[u].m = 0;
        }
        hd_target target;
        hd_target_parse(in->t.network ? hd_target_word((hd_target_kind)(in->t.network - 1))
                        : progs[0].network ? progs[0].network : "ecube", n, &target);
        if (in->t.cost)
            hd_cost_model_parse(in->t.cost, &target.cost);
        if (hd_plan_build(&comms, &target, in->t.gen.objective, in->t.gen.mapping, &plan) !=
            HD_OK) {
            fprintf(stderr, "hyperdo: error: the set optimizer failed (internal error)\n");
            status = HD_EXIT_FAILURE;
        } else {
            planned = true;
            hd_plan_choose_collectives(&plan, &comms, !in->t.collectives_off);
        }
    }
    hd_codegen_files files;
    number_program(progs, nfiles, &files);
    for (int u = 0; u < nfiles && status == HD_EXIT_OK; u++) {
        /* Each file sees its own entries of the plan. */
        hd_plan view;
        if (planned) {
            view = plan;
            view.comm = plan.comm + first[u];
            view.m = first[u + 1] - first[u];
        }
        hd_codegen_options gen = in->t.gen;
        gen.out_path = out_paths[u];
        gen.files = &files;
        files.unit = u;
        char *diagnostics = NULL;
        int errors = hd_codegen(&progs[u], &results[u], planned ? &view : NULL, progs[u].source,
                                progs[u].source_len, &gen, &outs[u], &out_lens[u], &diagnostics);
        if (diagnostics) {
            fputs(diagnostics, stderr);
            free(diagnostics);
        }
        if (errors)
            status = HD_EXIT_FAILURE;
    }
    free_numbering(&files);
    if (planned)
        hd_plan_free(&plan);
    hd_spec_free(&comms);
    for (int u = 0; u < nfiles; u++) {
        hd_spec_free(&parts[u]);
        hd_analysis_free(&results[u]);
    }
    free(parts);
    free(first);
    free(results);
    if (status == HD_EXIT_OK)
        return HD_EXIT_OK;
    for (int u = 0; u < nfiles; u++) {
        free(outs[u]);
        outs[u] = NULL;
        hd_program_free(&progs[u]);
    }
    return HD_EXIT_FAILURE;
}

/* Makes directory `dir` and its parents where missing. */
static bool make_directory(const char *dir)
{
    char *p = hd_xstrdup(dir);
    bool ok = true;
    for (char *c = p + 1; ok; c++) {
        bool end = *c == '\0';
        if (*c != '/' && !end)
            continue;
        char saved = *c;
        *c = '\0';
        struct stat st;
        if (stat(p, &st) != 0 && mkdir(p, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "hyperdo: error: cannot create the directory '%s': %s\n", p,
                    strerror(errno));
            ok = false;
        }
        *c = saved;
        if (end)
            break;
    }
    free(p);
    return ok;
}

static int translate(void *dest)
{
    options *opt = dest;
    int nfiles = opt->nfiles;
    bool to_stdout = !opt->to_dir && strcmp(opt->out, "-") == 0;
    const char **names = hd_xmalloc((size_t)nfiles * sizeof *names);
    for (int k = 0; k < nfiles; k++)
        names[k] = opt->to_dir ? opt->outputs[k] : opt->out;
    hd_program *progs = hd_xcalloc((size_t)nfiles, sizeof *progs);
    char **outs = hd_xcalloc((size_t)nfiles, sizeof *outs);
    size_t *out_lens = hd_xcalloc((size_t)nfiles, sizeof *out_lens);
    int status;
    if (nfiles == 1)
        status = hd_translate_file(&opt->in, opt->build_dir, to_stdout ? NULL : names[0],
                                   &outs[0], &out_lens[0], &progs[0]);
    else
        status = hd_translate_files(&opt->in, opt->build_dir, names, outs, out_lens, progs);
    bool ok = status == HD_EXIT_OK;
    char *deps = NULL, *depfile = NULL;
    size_t deps_len = 0;
    if (ok && opt->md) {
        deps = dependencies(opt, names, progs, &deps_len);
        depfile = opt->depfile ? hd_xstrdup(opt->depfile) : default_depfile(opt->out, opt->to_dir);
    }
    if (ok && opt->to_dir)
        ok = make_directory(opt->out);
    /* Every file is written in full before any replaces anything; the
     * dependency file goes first, so that a failure leaves the outputs
     * as they were. */
    being_written = hd_xcalloc((size_t)nfiles + 1, sizeof *being_written);
    nbeing_written = nfiles + 1;
    pending *wdep = &being_written[nfiles];
    hd_on_fatal(unlink_being_written);
    for (int k = 0; ok && !to_stdout && k < nfiles; k++)
        ok = write_pending(&being_written[k], names[k], outs[k], out_lens[k]);
    if (ok && opt->md)
        ok = write_pending(wdep, depfile, deps, deps_len);
    if (ok && opt->md)
        ok = commit_pending(wdep);
    for (int k = 0; ok && !to_stdout && k < nfiles; k++)
        ok = commit_pending(&being_written[k]);
    if (ok && to_stdout)
        ok = fwrite(outs[0], 1, out_lens[0], stdout) == out_lens[0];
    for (int k = 0; k <= nfiles; k++)
        drop_pending(&being_written[k]);
    hd_on_fatal(NULL);
    free(being_written);
    being_written = NULL;
    nbeing_written = 0;
    for (int k = 0; k < nfiles; k++) {
        free(outs[k]);
        if (status == HD_EXIT_OK)
            hd_program_free(&progs[k]);
    }
    free(outs);
    free(out_lens);
    free(progs);
    free(names);
    free(deps);
    free(depfile);
    return ok ? HD_EXIT_OK : HD_EXIT_FAILURE;
}

int hd_cmd_translate(int argc, char **argv)
{
    options opt = { 0 };
    int status = hd_run_command(argc, argv, &opt, parse_options, translate);
    for (int k = 0; opt.outputs && k < opt.nfiles; k++)
        free(opt.outputs[k]);
    free(opt.outputs);
    free(opt.inputs);
    free(opt.in.more);
    return status;
}
