/*
 * check.c — `hyperdo check`: translation validation for one program and
 * one configuration.  It translates prog.c as `hyperdo translate` would,
 * builds the original as a sequential C program and the translation as
 * an SPMD program linked with a back end of the run-time library, runs
 * both under a time limit, and says whether the translated program printed
 * exactly what the sequential one printed (standard output, byte for byte)
 * and exited with the same status (docs/codegen.md).
 *
 * tests/e2e/validate.sh does the same for the test suite; this is the
 * version a user runs on a program of their own.  Everything it writes
 * goes into a fresh temporary directory, removed at the end unless --keep
 * is given: never anything beside prog.c.
 */
#define _XOPEN_SOURCE 700   /* mkdtemp, nftw, realpath, strsignal */

#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "commands.h"
#include "process.h"

#ifndef HYPERDO_BUILD_EXE
#error "HYPERDO_BUILD_EXE and HYPERDO_BUILD_LIB* must be defined by the build"
#endif

typedef enum { BACKEND_THREADS, BACKEND_MPI, BACKEND_SIM } backend;

static const char *const backend_names[] = { "threads", "mpi", "sim" };
/* The pkg-config package of each back end (runtime/CMakeLists.txt). */
static const char *const backend_packages[] = { "hyperdo", "hyperdo-mpi",
                                                "hyperdo-sim" };

typedef struct {
    hd_translate_input in;    /* prog.c, --dim..., clang's arguments */
    backend be;
    double timeout;           /* seconds per run */
    const char *include_dir;  /* --include */
    const char *lib;          /* --lib */
    bool keep;
    bool verbose;
} options;

static bool from_build_tree(void);

static const char usage_line[] =
    "usage: hyperdo check [--dim n] [--mapping M] [--objective OBJ] "
    "[--network ecube|omega|butterfly] [--maps program|wu] "
    "[--cost ncube2|linkbound] [--collectives on|off] [--backend threads|mpi|sim] "
    "[--timeout SECONDS] [--include DIR] [--lib ARCHIVE] [--keep] [-v] "
    "prog.c [more.c...] [-- clang args...]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Checks the translation of prog.c: translates it as 'hyperdo translate'\n"
        "does, builds it as a sequential C program and the translation as an\n"
        "SPMD program, runs both, and compares what they print on standard\n"
        "output (byte for byte) and their exit statuses.  Prints one line\n"
        "when they agree; otherwise the first line that differs, the two exit\n"
        "statuses, or which program timed out or crashed.  Both programs run\n"
        "with no arguments and standard input from /dev/null.\n"
        "\n"
        "  sequential:  $CC -std=c11 -Wno-unknown-pragmas prog.c -lm\n"
        "  translated:  $CC (mpi: $MPICC) -std=c11 prog.spmd.c LIBRARY -pthread -lm,\n"
        "               run directly (mpi: $MPIEXEC -n 2^n)\n"
        "\n"
        "Both builds get $CFLAGS, the run-time library's include directory, and\n"
        "the preprocessor flags among the clang arguments (-I, -D, -U,\n"
        "-include, -imacros, -isystem, -iquote, -idirafter).\n"
        "\n"
        "Options:\n"
        "  --dim n             the cube has 2^n processors (wins over\n"
        "                      '#pragma hyperdo cube(n)')\n"
        "  --mapping M         optimal (default) or identity, as for translate\n"
        "  --objective OBJ     max (default), maxsum or sum, as for translate\n"
        "  --network NET       ecube, omega or butterfly, as for translate\n"
        "  --maps M            program (default) or wu, as for translate\n"
        "  --cost MODEL        ncube2 (default) or linkbound, as for translate\n"
        "  --collectives W     on (default) or off, as for translate\n"
        "  --backend B         the run-time library's back end: threads\n"
        "                      (default), mpi or sim\n"
        "  --timeout SECONDS   time limit of each program's run (default 60)\n"
        "  --include DIR       the directory holding hyperdo.h and\n"
        "                      hyperdo/bits.h\n"
        "  --lib ARCHIVE       the run-time library to link, e.g.\n"
        "                      build/runtime/libhyperdo.a\n"
        "  --keep              keep the work directory and print its name\n"
        "  -v, --verbose       print each step and command on stderr\n"
        "  -- ARGS             after prog.c: extra arguments for clang\n"
        "  -h, --help          show this help and exit\n"
        "\n"
        "The run-time library: --include and --lib when given; otherwise, when\n"
        "this hyperdo is the one in its build tree, that tree's libraries and\n"
        "the source tree's headers; otherwise the installed copy, from\n"
        "'pkg-config --cflags --libs hyperdo' (hyperdo-mpi, hyperdo-sim), with\n"
        "PREFIX/lib/pkgconfig beside PREFIX/bin/hyperdo searched first.\n"
        "This hyperdo %s.\n"
        "\n"
        "Environment: CC (cc), MPICC (mpicc), MPIEXEC (mpiexec; add flags\n"
        "such as --oversubscribe there), CFLAGS, PKG_CONFIG (pkg-config),\n"
        "TMPDIR (/tmp: where the work directory goes).\n"
        "\n"
        "A program of several files (prog.c more.c ...) is translated together,\n"
        "as 'hyperdo translate prog.c more.c ... -o DIR' does, and each program\n"
        "is built from all its files.\n"
        "\n"
        "Exit status: 0 when the programs agree, 1 when they do not or when\n"
        "either cannot be translated, built or run, 2 on a usage error.\n",
        usage_line, from_build_tree()
            ? "runs from its build tree: --lib defaults to\n  "
              HYPERDO_BUILD_LIB " (-mpi, -sim beside it)"
            : "does not run from its build tree: it asks pkg-config");
}

/* ------------------------------------------------------- command line */

/* The values of --backend and --timeout (the parser reports a missing or
 * bad one with the table's message). */
static bool parse_backend(const char *s, void *be)
{
    for (int k = 0; k < 3; k++)
        if (strcmp(s, backend_names[k]) == 0) {
            *(backend *)be = (backend)k;
            return true;
        }
    return false;
}

static bool parse_timeout(const char *s, void *seconds)
{
    char *end = NULL;
    double v = *s ? strtod(s, &end) : 0;
    if (!*s || *end || !(v > 0) || v > 1e6)
        return false;
    *(double *)seconds = v;
    return true;
}

static const hd_option own_options[] = {
    { "--keep", HD_OPT_NO_VALUE, NULL, offsetof(options, keep), NULL, NULL },
    { "-v", HD_OPT_NO_VALUE, NULL, offsetof(options, verbose), NULL, NULL },
    { "--verbose", HD_OPT_NO_VALUE, NULL, offsetof(options, verbose), NULL, NULL },
    { "--backend", HD_OPT_VALUE, NULL, offsetof(options, be), "threads, mpi or sim",
      parse_backend },
    { "--timeout", HD_OPT_VALUE, NULL, offsetof(options, timeout),
      "a number of seconds above 0", parse_timeout },
    { "--include", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(options, include_dir), "a directory", NULL },
    { "--lib", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(options, lib), "a library file", NULL },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

/* -1 to go on, else the exit status (help, usage error). */
static int parse_options(int argc, char **argv, void *dest)
{
    options *opt = dest;
    return hd_translate_command_line(argc, argv, usage_line, "check", print_help,
                                     own_options, opt, &opt->in);
}

/* ------------------------------------------------------- the work area */

typedef struct {
    const options *opt;
    int nfiles;               /* the program's files: prog.c, then more */
    const char **inputs;
    char **spmd;              /* their translations in the work directory */
    char *dir;                /* the temporary directory */
    char *name;               /* prog.c's base name without .c */
    hd_args cflags;           /* for both builds: $CFLAGS, the headers, -D... */
    hd_args libs;             /* the run-time library, for the SPMD link */
    int dim;                  /* the cube the translation is for */
} work;

/* DIR/NAME.suffix: a file of the work directory (malloc'ed). */
static char *work_path(const work *w, const char *suffix)
{
    size_t n = strlen(w->dir) + strlen(w->name) + strlen(suffix) + 3;
    char *p = hd_xmalloc(n);
    snprintf(p, n, "%s/%s%s", w->dir, w->name, suffix);
    return p;
}

static char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *b = slash ? slash + 1 : path;
    size_t n = strlen(b);
    if (n > 2 && strcmp(b + n - 2, ".c") == 0)
        n -= 2;
    return n ? hd_xstrndup(b, n) : hd_xstrdup("prog");
}

static bool make_work_dir(work *w)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    size_t n = strlen(tmp) + 32;
    w->dir = hd_xmalloc(n);
    w->name = base_name(w->opt->in.path);
    snprintf(w->dir, n, "%s/hyperdo-check-XXXXXX", tmp);
    if (!mkdtemp(w->dir)) {
        fprintf(stderr, "hyperdo: error: cannot create a work directory in "
                "'%s': %s\n", tmp, strerror(errno));
        free(w->dir);
        w->dir = NULL;
        return false;
    }
    return true;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* The work directory goes (or is announced with --keep). */
static void leave_work_dir(const work *w)
{
    if (w->dir && w->opt->keep)
        fprintf(stderr, "hyperdo: note: the work files are in %s\n", w->dir);
    else if (w->dir)
        nftw(w->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The work area of the check under way, left as it would have been when
 * memory runs out (hd_on_fatal). */
static const work *current_work;

static void leave_current_work_dir(void)
{
    if (current_work)
        leave_work_dir(current_work);
}

/* The work directory goes (or is announced with --keep); then the rest. */
static void close_work(work *w)
{
    leave_work_dir(w);
    free(w->dir);
    free(w->name);
    hd_args_free(&w->cflags);
    hd_args_free(&w->libs);
}

static void step(const work *w, const char *what, const char *detail)
{
    if (w->opt->verbose)
        fprintf(stderr, "hyperdo check: %s%s\n", what, detail ? detail : "");
}

/* ---------------------------------------------------------- commands */

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

/* A command of the environment ($CC may be "gcc -m32") plus args. */
static void command(hd_args *a, const char *var, const char *fallback)
{
    hd_args_split(a, env_or(var, fallback));
}

/* Runs a build step (compiler, pkg-config) with its output in the file
 * `log` (and `err`); reports a failure to start it. */
static hd_run_status run_step(const work *w, const hd_args *a, const char *log,
                              const char *err)
{
    if (w->opt->verbose) {
        fputs("hyperdo check: ", stderr);
        hd_args_print(stderr, a);
    }
    /* No limit a program could trip: a compiler is not what is checked. */
    hd_run_status st = hd_run(a->v, NULL, log, err, 0);
    if (st.how == HD_RUN_NOT_STARTED)
        fprintf(stderr, "hyperdo: error: cannot run '%s': %s\n", a->v[0],
                strerror(st.code));
    return st;
}

static bool succeeded(hd_run_status st)
{
    return st.how == HD_RUN_EXITED && st.code == 0;
}

/* Prints a file (a compiler's messages, a program's stderr) on stderr;
 * at most max_lines lines, each after `indent`. */
static void show_file(const char *path, const char *indent, int max_lines)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    int n = 0;
    while (getline(&line, &cap, f) >= 0) {
        if (max_lines && n == max_lines) {
            fprintf(stderr, "%s...\n", indent);
            break;
        }
        fprintf(stderr, "%s%s", indent, line);
        if (line[0] && line[strlen(line) - 1] != '\n')
            fputc('\n', stderr);
        n++;
    }
    free(line);
    fclose(f);
}

static bool file_is_empty(const char *path)
{
    struct stat st;
    return stat(path, &st) != 0 || st.st_size == 0;
}

/* --------------------------------------------------- the run-time library */

/* Is this process the hyperdo of the build tree it was compiled in? */
static bool from_build_tree(void)
{
    char *self = realpath("/proc/self/exe", NULL);
    char *built = realpath(HYPERDO_BUILD_EXE, NULL);
    bool same = self && built && strcmp(self, built) == 0;
    free(self);
    free(built);
    return same;
}

/* PREFIX/lib/pkgconfig when this is PREFIX/bin/hyperdo and it holds the
 * package: an install under a prefix pkg-config does not search. */
static void pkg_config_beside(const char *package)
{
    char *self = realpath("/proc/self/exe", NULL);
    char *slash = self ? strrchr(self, '/') : NULL;
    if (!slash) {
        free(self);
        return;
    }
    *slash = '\0';
    size_t n = strlen(self) + strlen(package) + 40;
    char *dir = hd_xmalloc(n), *pc = hd_xmalloc(n);
    snprintf(dir, n, "%s/../lib/pkgconfig", self);
    snprintf(pc, n, "%s/%s.pc", dir, package);
    const char *old = getenv("PKG_CONFIG_PATH");
    /* PREFIX/lib/pkgconfig rather than PREFIX/bin/..: the .pc files
     * name their prefix from it, and it ends up in the commands. */
    char *real = access(pc, R_OK) == 0 ? realpath(dir, NULL) : NULL;
    if (real) {
        size_t m = strlen(real) + (old ? strlen(old) : 0) + 2;
        char *path = hd_xmalloc(m);
        snprintf(path, m, "%s%s%s", real, old && *old ? ":" : "",
                 old ? old : "");
        setenv("PKG_CONFIG_PATH", path, 1);
        free(path);
    }
    free(real);
    free(dir);
    free(pc);
    free(self);
}

/* `pkg-config WHAT package`, its words added to out. */
static bool pkg_config(const work *w, const char *what, hd_args *out)
{
    const char *package = backend_packages[w->opt->be];
    hd_args a = { 0 };
    command(&a, "PKG_CONFIG", "pkg-config");
    hd_args_add(&a, what);
    hd_args_add(&a, package);
    char *log = work_path(w, ".pkg-config"), *err = work_path(w, ".pkg-config.err");
    bool ok = succeeded(run_step(w, &a, log, err));
    if (ok) {
        FILE *f = fopen(log, "r");
        char *line = NULL;
        size_t cap = 0;
        while (f && getline(&line, &cap, f) >= 0)
            hd_args_split(out, line);
        free(line);
        if (f)
            fclose(f);
        ok = f != NULL;
    } else {
        show_file(err, "", 20);
        fprintf(stderr, "hyperdo: error: cannot find the run-time library: "
                "'pkg-config %s %s' failed (install hyperdo, or give "
                "--include and --lib)\n", what, package);
    }
    free(log);
    free(err);
    hd_args_free(&a);
    return ok;
}

static const char *build_tree_lib(backend be)
{
    static const char *const libs[] = { HYPERDO_BUILD_LIB, HYPERDO_BUILD_LIB_MPI,
                                        HYPERDO_BUILD_LIB_SIM };
    return libs[be];
}

/* The include flags and the library of the back end: from the options,
 * else the build tree, else pkg-config; into w->cflags and w->libs. */
static bool find_runtime(work *w)
{
    const options *opt = w->opt;
    bool build_tree = from_build_tree();
    const char *where = opt->include_dir && opt->lib ? "--include and --lib"
                        : build_tree ? "the build tree" : "pkg-config";
    step(w, "run-time library from ", where);
    if (!build_tree && !(opt->include_dir && opt->lib))
        pkg_config_beside(backend_packages[opt->be]);
    if (opt->include_dir) {
        hd_args_add(&w->cflags, "-I");
        hd_args_add(&w->cflags, opt->include_dir);
    } else if (build_tree) {
        hd_args_add(&w->cflags, "-I");
        hd_args_add(&w->cflags, HYPERDO_SOURCE_INCLUDE_DIR);
    } else if (!pkg_config(w, "--cflags", &w->cflags)) {
        return false;
    }
    const char *lib = opt->lib ? opt->lib : build_tree ? build_tree_lib(opt->be)
                                                       : NULL;
    if (build_tree && !opt->lib && !*lib) {
        fprintf(stderr, "hyperdo: error: this build tree has no %s back end "
                "(MPI was not found when it was configured); give --lib\n",
                backend_names[opt->be]);
        return false;
    }
    if (lib && access(lib, R_OK) != 0) {
        fprintf(stderr, "hyperdo: error: the run-time library '%s': %s%s\n",
                lib, strerror(errno), opt->lib ? "" : " (build it first)");
        return false;
    }
    if (lib)
        hd_args_add(&w->libs, lib);
    else if (!pkg_config(w, "--libs", &w->libs))
        return false;
    return true;
}

/* ------------------------------------------------------------- building */

/* The clang arguments that are preprocessor flags: the C compiler needs
 * them too, to see the program clang saw. */
static void preprocessor_flags(const options *opt, hd_args *out)
{
    static const char *const with_value[] = { "-I", "-D", "-U", "-include",
        "-imacros", "-isystem", "-iquote", "-idirafter" };
    for (int k = 0; k < opt->in.nclang; k++) {
        const char *a = opt->in.clang[k];
        for (size_t j = 0; j < sizeof with_value / sizeof with_value[0]; j++) {
            const char *f = with_value[j];
            if (strcmp(a, f) == 0 && k + 1 < opt->in.nclang) {
                hd_args_add(out, a);
                hd_args_add(out, opt->in.clang[++k]);
                break;
            }
            if (strncmp(a, f, strlen(f)) == 0 && a[strlen(f)]) {
                hd_args_add(out, a);
                break;
            }
        }
    }
}

/* The flags both builds share: $CFLAGS, the library's headers, the
 * program's preprocessor flags.  -Wno-unknown-pragmas after $CFLAGS: a
 * -Wall there must not turn every '#pragma hyperdo' into a warning. */
static void common_flags(const work *w, hd_args *a)
{
    hd_args_add(a, "-std=c11");
    hd_args_split(a, env_or("CFLAGS", ""));
    hd_args_add(a, "-Wno-unknown-pragmas");
    hd_args_append(a, &w->cflags);
    preprocessor_flags(w->opt, a);
}

/* Builds one program.  When the compiler ran and failed, shows its
 * messages, says which program it was and sets *refused. */
static bool build(const work *w, const hd_args *a, const char *which,
                  const char *log, bool *refused)
{
    *refused = false;
    hd_run_status st = run_step(w, a, log, NULL);
    if (succeeded(st))
        return true;
    if (st.how == HD_RUN_NOT_STARTED || st.how == HD_RUN_INTERRUPTED)
        return false;
    *refused = true;
    show_file(log, "", 0);
    fprintf(stderr, "%s: error: the %s program does not build with '%s'\n",
            w->opt->in.path, which, a->v[0]);
    return false;
}

static bool build_sequential(const work *w, const char *exe, const char *log)
{
    hd_args a = { 0 };
    command(&a, "CC", "cc");
    common_flags(w, &a);
    for (int k = 0; k < w->nfiles; k++)
        hd_args_add(&a, w->inputs[k]);
    hd_args_add(&a, "-o");
    hd_args_add(&a, exe);
    hd_args_add(&a, "-lm");
    step(w, "building the sequential program", NULL);
    bool refused;
    bool ok = build(w, &a, "sequential", log, &refused);
    hd_args_free(&a);
    return ok;
}

/* The directory of prog.c, where its #include "..." files are: the
 * translation lives elsewhere. */
static char *source_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return hd_xstrdup(".");
    return slash == path ? hd_xstrdup("/") : hd_xstrndup(path, (size_t)(slash - path));
}

static bool build_spmd(const work *w, const char *exe, const char *log)
{
    hd_args a = { 0 };
    if (w->opt->be == BACKEND_MPI)
        command(&a, "MPICC", "mpicc");
    else
        command(&a, "CC", "cc");
    common_flags(w, &a);
    for (int k = 0; k < w->nfiles; k++) {
        char *dir = source_dir(w->inputs[k]);
        bool seen = false;
        for (int j = 0; j < k && !seen; j++) {
            char *other = source_dir(w->inputs[j]);
            seen = strcmp(dir, other) == 0;
            free(other);
        }
        if (!seen) {
            hd_args_add(&a, "-iquote");
            hd_args_add(&a, dir);
        }
        free(dir);
    }
    for (int k = 0; k < w->nfiles; k++)
        hd_args_add(&a, w->spmd[k]);
    hd_args_append(&a, &w->libs);
    hd_args_add(&a, "-pthread");
    hd_args_add(&a, "-lm");
    hd_args_add(&a, "-o");
    hd_args_add(&a, exe);
    step(w, "building the translated program", NULL);
    bool refused;
    bool ok = build(w, &a, "translated", log, &refused);
    if (refused)
        fprintf(stderr, "%s: note: the sequential program builds: most "
                "likely a bug of hyperdo translate (--keep keeps the "
                "translated program)\n", w->opt->in.path);
    hd_args_free(&a);
    return ok;
}

/* -------------------------------------------------------------- running */

typedef struct {
    const char *label;        /* "the sequential program", ... */
    char *out, *err;          /* its stdout and stderr files */
    hd_run_status st;
} outcome;

/* Runs exe, under the name the other program runs under too (a program
 * may print argv[0]): each is linked to DIR/run/NAME in turn. */
static bool run_program(const work *w, const char *exe, outcome *o,
                        bool spmd)
{
    size_t n = strlen(w->dir) + strlen(w->name) + 8;
    char *run_dir = hd_xmalloc(n), *as = hd_xmalloc(n);
    snprintf(run_dir, n, "%s/run", w->dir);
    snprintf(as, n, "%s/run/%s", w->dir, w->name);
    mkdir(run_dir, 0700);
    unlink(as);
    /* No hard link (another file system?): run it under its own name. */
    const char *name = link(exe, as) == 0 ? as : exe;

    hd_args a = { 0 };
    char count[16];
    if (spmd && w->opt->be == BACKEND_MPI) {
        command(&a, "MPIEXEC", "mpiexec");
        snprintf(count, sizeof count, "%d", 1 << w->dim);
        hd_args_add(&a, "-n");
        hd_args_add(&a, count);
    }
    hd_args_add(&a, name);
    if (w->opt->verbose) {
        fprintf(stderr, "hyperdo check: running %s: ", o->label);
        hd_args_print(stderr, &a);
    }
    o->st = hd_run(a.v, NULL, o->out, o->err, w->opt->timeout);
    if (o->st.how == HD_RUN_NOT_STARTED)
        fprintf(stderr, "hyperdo: error: cannot run '%s': %s\n", a.v[0],
                strerror(o->st.code));
    bool ok = o->st.how != HD_RUN_NOT_STARTED && o->st.how != HD_RUN_INTERRUPTED;
    if (name == as)
        unlink(as);
    hd_args_free(&a);
    free(run_dir);
    free(as);
    return ok;
}

/* ----------------------------------------------------------- comparing */

/* "dim 3, mapping optimal, threads": the configuration checked. */
static void describe(const work *w, char *buf, size_t n)
{
    const hd_translate_options *t = &w->opt->in.t;
    bool identity = t->gen.mapping == HD_MAPPING_IDENTITY;
    char objective[32] = "";
    if (!identity && t->gen.objective != HD_OBJ_MAX)
        snprintf(objective, sizeof objective, ", objective %s",
                 hd_objective_name(t->gen.objective));
    snprintf(buf, n, "dim %d, mapping %s%s%s%s%s%s%s%s, %s", w->dim,
             identity ? "identity" : "optimal", objective,
             t->network ? ", network " : "",
             t->network ? hd_target_word((hd_target_kind)(t->network - 1)) : "",
             t->maps == HD_MAPS_WU ? ", maps wu" : "", t->cost ? ", cost " : "",
             t->cost ? t->cost : "", t->collectives_off ? ", collectives off" : "",
             backend_names[w->opt->be]);
}

/* A run that did not end by itself: said in the compilers' format, of
 * `who` (the program and, for the translation, its configuration). */
static bool ended_normally(const work *w, const outcome *o, const char *who)
{
    char sig[32];
    switch (o->st.how) {
    case HD_RUN_EXITED:
        return true;
    case HD_RUN_TIMED_OUT:
        fprintf(stderr, "%s: error: %s did not finish within %g second%s "
                "(--timeout)\n", w->opt->in.path, who, w->opt->timeout,
                w->opt->timeout == 1 ? "" : "s");
        break;
    case HD_RUN_SIGNALED:
        fprintf(stderr, "%s: error: %s was killed by %s (%s)\n",
                w->opt->in.path, who, hd_signal_name(o->st.code, sig),
                strsignal(o->st.code));
        break;
    default:
        return false;
    }
    return false;
}

/* Shows a program's stderr after a problem, when it said anything. */
static void show_stderr(const work *w, const outcome *o)
{
    if (file_is_empty(o->err))
        return;
    fprintf(stderr, "%s: note: the standard error of %s:\n", w->opt->in.path,
            o->label);
    show_file(o->err, "    ", 20);
}

/* One line of output for a note: quoted, with C escapes, and around
 * column `col` when it is long. */
static void put_line(const char *s, ssize_t len, size_t col)
{
    size_t begin = col > 100 ? col - 60 : 0, end = (size_t)len;
    bool newline = len > 0 && s[len - 1] == '\n';
    if (newline)
        end--;
    bool cut = end - begin > 160;
    if (cut)
        end = begin + 160;
    fputs(begin ? "...\"" : "\"", stderr);
    for (size_t k = begin; k < end; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"' || c == '\\')
            fprintf(stderr, "\\%c", c);
        else if (c == '\t')
            fputs("\\t", stderr);
        else if (c == '\r')
            fputs("\\r", stderr);
        else if (c < 32 || c == 127)
            fprintf(stderr, "\\x%02x", c);
        else
            fputc(c, stderr);
    }
    fputs(cut ? "\"..." : "\"", stderr);
    if (!newline && !cut)
        fputs(" (with no newline at the end)", stderr);
}

static void note_line(const work *w, const outcome *o, const char *s,
                      ssize_t len, size_t col, long line)
{
    if (len < 0) {
        fprintf(stderr, "%s: note: the output of %s ended after line %ld\n",
                w->opt->in.path, o->label, line - 1);
        return;
    }
    fprintf(stderr, "%s: note: %s printed ", w->opt->in.path, o->label);
    put_line(s, len, col);
    fputc('\n', stderr);
}

/* Compares the two outputs line by line; reports the first difference.
 * *lines: how many lines they have when they agree.  -1 when a file
 * cannot be read. */
static int compare_outputs(const work *w, const outcome *seq,
                           const outcome *spmd, const char *config, long *lines)
{
    FILE *fa = fopen(seq->out, "rb"), *fb = fopen(spmd->out, "rb");
    char *a = NULL, *b = NULL;
    size_t ca = 0, cb = 0;
    int result = fa && fb ? 0 : -1;
    long line = 0;
    while (result == 0) {
        ssize_t la = getline(&a, &ca, fa), lb = getline(&b, &cb, fb);
        if (la < 0 && lb < 0)
            break;
        line++;
        if (la == lb && memcmp(a, b, (size_t)la) == 0)
            continue;
        size_t col = 0;
        while (la >= 0 && lb >= 0 && col < (size_t)la && col < (size_t)lb &&
               a[col] == b[col])
            col++;
        fprintf(stderr, "%s: error: the translated program (%s) printed "
                "something else at line %ld of its output\n", w->opt->in.path,
                config, line);
        note_line(w, seq, a, la, col, line);
        note_line(w, spmd, b, lb, col, line);
        result = 1;
    }
    if (result < 0)
        fprintf(stderr, "hyperdo: error: cannot read the programs' output in "
                "'%s': %s\n", w->dir, strerror(errno));
    *lines = line;
    free(a);
    free(b);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return result;
}

/* The verdict: HD_EXIT_OK when the programs agree. */
static int verdict(const work *w, const outcome *seq, const outcome *spmd)
{
    char config[128], who[160];
    describe(w, config, sizeof config);
    snprintf(who, sizeof who, "%s (%s)", spmd->label, config);
    bool seq_ok = ended_normally(w, seq, seq->label),
         spmd_ok = ended_normally(w, spmd, who);
    if (!seq_ok)
        show_stderr(w, seq);
    if (!spmd_ok)
        show_stderr(w, spmd);
    if (!seq_ok || !spmd_ok)
        return HD_EXIT_FAILURE;
    long lines = 0;
    int differ = compare_outputs(w, seq, spmd, config, &lines);
    if (differ < 0)
        return HD_EXIT_FAILURE;
    if (spmd->st.code != seq->st.code) {
        fprintf(stderr, "%s: error: the translated program (%s) exited with "
                "status %d, the sequential program with status %d\n",
                w->opt->in.path, config, spmd->st.code, seq->st.code);
        differ = 1;
    }
    if (differ) {
        show_stderr(w, spmd);
        return HD_EXIT_FAILURE;
    }
    printf("%s: the translated program (%s) printed what the sequential "
           "program printed (%ld line%s, exit status %d)\n", w->opt->in.path,
           config, lines, lines == 1 ? "" : "s", seq->st.code);
    return HD_EXIT_OK;
}

/* --------------------------------------------------------------- steps */

static bool write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "hyperdo: error: cannot write '%s': %s\n", path, strerror(errno));
    return ok;
}

/* Translates into the work directory (a program of several files into
 * its directory spmd/, each file under its own name); w->dim is the
 * cube's dimension. */
static bool translate(work *w)
{
    const options *opt = w->opt;
    step(w, "translating ", opt->in.path);
    hd_program *progs = hd_xcalloc((size_t)w->nfiles, sizeof *progs);
    char **texts = hd_xcalloc((size_t)w->nfiles, sizeof *texts);
    size_t *lens = hd_xcalloc((size_t)w->nfiles, sizeof *lens);
    bool ok = w->nfiles == 1
              ? hd_translate_file(&opt->in, NULL, w->spmd[0], &texts[0], &lens[0], &progs[0]) ==
                    HD_EXIT_OK
              : hd_translate_files(&opt->in, NULL, (const char *const *)w->spmd, texts, lens,
                                   progs) == HD_EXIT_OK;
    if (ok)
        w->dim = progs[0].n;
    for (int k = 0; k < w->nfiles; k++) {
        if (ok)
            hd_program_free(&progs[k]);
        ok = ok && write_file(w->spmd[k], texts[k], lens[k]);
        free(texts[k]);
    }
    free(progs);
    free(texts);
    free(lens);
    return ok;
}

static int check_in(work *w)
{
    char *seq_exe = work_path(w, ".seq"), *spmd_exe = work_path(w, ".spmd"),
         *log = work_path(w, ".build.log");
    outcome seq = { "the sequential program", work_path(w, ".seq.out"),
                    work_path(w, ".seq.err"), { HD_RUN_NOT_STARTED, 0 } };
    outcome spmd = { "the translated program", work_path(w, ".spmd.out"),
                     work_path(w, ".spmd.err"), { HD_RUN_NOT_STARTED, 0 } };
    w->spmd = hd_xcalloc((size_t)w->nfiles, sizeof *w->spmd);
    if (w->nfiles == 1) {
        w->spmd[0] = work_path(w, ".spmd.c");
    } else {
        size_t n = strlen(w->dir) + 8;
        char *dir = hd_xmalloc(n);
        snprintf(dir, n, "%s/spmd", w->dir);
        mkdir(dir, 0700);
        for (int k = 0; k < w->nfiles; k++) {
            const char *slash = strrchr(w->inputs[k], '/');
            const char *base = slash ? slash + 1 : w->inputs[k];
            w->spmd[k] = hd_xmalloc(n + strlen(base) + 1);
            snprintf(w->spmd[k], n + strlen(base) + 1, "%s/%s", dir, base);
        }
        free(dir);
    }
    int rc = HD_EXIT_FAILURE;
    if (translate(w) && find_runtime(w) &&
        build_sequential(w, seq_exe, log) &&
        build_spmd(w, spmd_exe, log) &&
        run_program(w, seq_exe, &seq, false) &&
        run_program(w, spmd_exe, &spmd, true))
        rc = verdict(w, &seq, &spmd);
    for (int k = 0; k < w->nfiles; k++)
        free(w->spmd[k]);
    free(w->spmd);
    w->spmd = NULL;
    free(seq_exe);
    free(spmd_exe);
    free(log);
    free(seq.out);
    free(seq.err);
    free(spmd.out);
    free(spmd.err);
    return rc;
}

static int check(void *dest)
{
    const options *opt = dest;
    /* The sequential build compiles the file itself (a usage error, found
     * before anything is done). */
    int nfiles = 1 + opt->in.nmore;
    const char **inputs = hd_xmalloc((size_t)nfiles * sizeof *inputs);
    inputs[0] = opt->in.path;
    for (int k = 1; k < nfiles; k++)
        inputs[k] = opt->in.more[k - 1];
    for (int k = 0; k < nfiles; k++) {
        const char *slash = strrchr(inputs[k], '/');
        const char *base = slash ? slash + 1 : inputs[k];
        for (int j = 0; j < k; j++) {
            const char *other = strrchr(inputs[j], '/');
            if (strcmp(other ? other + 1 : inputs[j], base) == 0) {
                int status = hd_usage_error(usage_line, "check", "two files named '%s' ('%s' "
                                            "and '%s'): their translations would have one "
                                            "name", base, inputs[j], inputs[k]);
                free(inputs);
                return status;
            }
        }
        if (strcmp(inputs[k], "-") == 0) {
            free(inputs);
            return hd_usage_error(usage_line, "check", "check needs a file, not standard "
                                  "input: it also compiles the program as it is");
        }
    }
    int rc;
    work w = { opt, nfiles, inputs, NULL, NULL, NULL, { 0 }, { 0 }, 0 };
    hd_run_catch_signals();
    current_work = &w;
    hd_on_fatal(leave_current_work_dir);
    if (make_work_dir(&w))
        rc = check_in(&w);
    else
        rc = HD_EXIT_FAILURE;
    hd_on_fatal(NULL);
    close_work(&w);
    free(inputs);
    fflush(stdout);
    hd_run_reraise();
    return rc;
}

int hd_cmd_check(int argc, char **argv)
{
    options opt = { .timeout = 60 };
    int status = hd_run_command(argc, argv, &opt, parse_options, check);
    free(opt.in.more);
    return status;
}
