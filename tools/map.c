/*
 * map.c — `hyperdo map` and `hyperdo cost`: a finite element mesh (or its
 * graph) mapped onto the n-cube by Chung and Ranka 1990's two algorithms
 * or by Scotch or METIS, and any mapping costed as the paper does
 * (analysis/fem_*.c; docs/meshes.md).
 *
 * MESH is a file (frontend/mesh_read.c: Gmsh, METIS mesh or graph, Chaco,
 * Matrix Market) or a generated quad mesh, grid:NXxNY, cylinder:NXxNY or
 * torus:NXxNY (the paper's kinds of sample).  A mapping file is METIS's
 * partition file: line v + 1 holds node v's processor.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis.h"
#include "commands.h"

typedef struct {
    const char *operand;       /* MESH */
    const char *mapfile;       /* cost: the second operand */
    const char *out;           /* -o */
    const char *algorithm;     /* stripes (default), greedy, scotch, metis, best */
    const char *cost;          /* bi (default) or uni */
    long dim;                  /* -1: not given */
    bool json, progress, reorder;
    hd_fem_times t;
} map_options;

static const char map_usage[] =
    "usage: hyperdo map MESH --dim N [--algorithm stripes|greedy|scotch|metis|best] "
    "[--cost bi|uni] [--reorder-bits] [-o MAPFILE] [--json] [--t-task US] [--t-setup US] "
    "[--t-c US] [--progress]";
static const char cost_usage[] =
    "usage: hyperdo cost MESH MAPFILE [--dim N] [--json] [--t-task US] [--t-setup US] "
    "[--t-c US]";

static void map_help(void)
{
    printf("%s\n"
        "\n"
        "Maps the nodes of a finite element mesh onto the processors of the\n"
        "N-cube (Chung and Ranka 1990) and reports what the mapping costs: the\n"
        "most nodes on one processor and whether the load-balance criterion\n"
        "holds, whether every pair of neighbour nodes is within two bits (a\n"
        "neighbour mapping), the distances of the neighbour pairs, the\n"
        "communication steps and their busiest channels under bidirectional\n"
        "and unidirectional store-and-forward channels, C, T_par, the speedup,\n"
        "and the paper's bounds EUBS and ELBS (Eqs. 8-9).\n"
        "\n"
        "MESH: a Gmsh MSH 2.2 or 4.1 ASCII file, a METIS mesh (.mesh) or graph\n"
        "(.graph), a Chaco graph (.chaco), a Matrix Market pattern (.mtx); or\n"
        "grid:NXxNY, cylinder:NXxNY, torus:NXxNY, a quad mesh of NX x NY nodes.\n"
        "The mapping runs on the NB graph (nodes that share an element).\n"
        "\n"
        "Options:\n"
        "  --dim N             the cube's dimension, 0 .. 20 (required)\n"
        "  --algorithm A       stripes   the 2-way stripes partition mapping\n"
        "                                (Section 3; the default)\n"
        "                      greedy    the greedy assignment (Section 4)\n"
        "                      scotch    Scotch's mapping onto its hypercube\n"
        "                      metis     METIS's partition, parts relabelled\n"
        "                      best      the cheapest of the four under --cost\n"
        "  --cost bi|uni       the channel model the choices minimise (bi)\n"
        "  --reorder-bits      then rename the address bits as Hou et al. 2001\n"
        "                      do for LCCs: the cheapest of the n! orders (n <= 7)\n"
        "  -o MAPFILE          write the mapping: line v + 1 holds node v's\n"
        "                      processor (METIS's partition file format)\n"
        "  --json              one JSON object instead of the report\n"
        "  --t-task US, --t-setup US, --t-c US\n"
        "                      the machine (defaults 1190, 1150 and 10 us)\n"
        "  --progress          a line per step of the work on stderr (the\n"
        "                      default on a terminal from 100000 nodes)\n"
        "  -h, --help          show this help and exit\n"
        "\n"
        "See docs/meshes.md.\n", map_usage);
}

static void cost_help(void)
{
    printf("%s\n"
        "\n"
        "Costs the mapping in MAPFILE (line v + 1: node v's processor) of MESH\n"
        "as `hyperdo map` reports its own (Chung and Ranka 1990, Section 2.3).\n"
        "--dim defaults to the least that holds every processor named.\n"
        "See `hyperdo map --help` and docs/meshes.md.\n", cost_usage);
}

static const hd_command_line map_line = { "map", map_usage, map_help, "MESH",
                                          "missing MESH: the mesh or graph to map", true };
static const hd_command_line cost_line = { "cost", cost_usage, cost_help, "MESH",
                                           "missing MESH: the mesh or graph the mapping is of",
                                           true };

static bool parse_dim(const char *value, void *field)
{
    return hd_option_long(value, 0, 20, field);
}

static const hd_option map_table[] = {
    { "--algorithm", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(map_options, algorithm),
      "stripes, greedy, scotch, metis or best", NULL },
    { "--cost", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(map_options, cost), "bi or uni", NULL },
    { "-o", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(map_options, out), "a file", NULL },
    { "--progress", HD_OPT_NO_VALUE, NULL, offsetof(map_options, progress), NULL, NULL },
    { "--reorder-bits", HD_OPT_NO_VALUE, NULL, offsetof(map_options, reorder), NULL, NULL },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

/* What map and cost share: --dim, --json and the machine. */
static const hd_option shared_table[] = {
    { "--dim", HD_OPT_VALUE, NULL, offsetof(map_options, dim), "an integer from 0 to 20",
      parse_dim },
    { "--json", HD_OPT_NO_VALUE, NULL, offsetof(map_options, json), NULL, NULL },
    { "--t-task", HD_OPT_VALUE, NULL, offsetof(map_options, t.task_us),
      "a time in microseconds, >= 0", hd_option_us },
    { "--t-setup", HD_OPT_VALUE, NULL, offsetof(map_options, t.setup_us),
      "a time in microseconds, >= 0", hd_option_us },
    { "--t-c", HD_OPT_VALUE, NULL, offsetof(map_options, t.word_us),
      "a time in microseconds, >= 0", hd_option_us },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

/* ------------------------------------------------------------ input */

/* grid:NXxNY and its kin into a mesh; 0 when spec is no generator, 1
 * done, -1 a bad one (reported). */
static int generated(const hd_command_line *cl, const char *spec, hd_mesh_input *in)
{
    static const char *const kinds[] = { "grid:", "cylinder:", "torus:" };
    for (int k = 0; k < 3; k++) {
        size_t len = strlen(kinds[k]);
        if (strncmp(spec, kinds[k], len) != 0)
            continue;
        int nx, ny, used = 0;
        if (sscanf(spec + len, "%dx%d%n", &nx, &ny, &used) != 2 || spec[len + used] ||
            nx < (k ? 3 : 2) || ny < (k == 2 ? 3 : 2) || (long long)nx * ny > 100000000) {
            hd_option_error(cl, "'%s' is no %sNXxNY with NX >= %d and NY >= %d (at most 10^8 "
                            "nodes)", spec, kinds[k], k ? 3 : 2, k == 2 ? 3 : 2);
            return -1;
        }
        memset(in, 0, sizeof *in);
        in->has_mesh = true;
        if (hd_mesh_quads(nx, ny, k >= 1, k == 2, &in->mesh) != HD_SPEC_OK ||
            hd_mesh_nb_graph(&in->mesh, &in->nb) != HD_SPEC_OK ||
            hd_mesh_adj_graph(&in->mesh, &in->adj) != HD_SPEC_OK) {
            fprintf(stderr, "hyperdo: error: out of memory for the mesh '%s'\n", spec);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* The mesh of an operand; HD_EXIT_OK or the status to leave with. */
static int read_mesh(const hd_command_line *cl, const char *spec, hd_mesh_input *in)
{
    int g = generated(cl, spec, in);
    if (g != 0)
        return g > 0 ? HD_EXIT_OK : HD_EXIT_USAGE;
    hd_diag err;
    if (hd_read_mesh_file(spec, in, &err) != HD_SPEC_OK) {
        if (err.line > 0)
            fprintf(stderr, "%s:%d: error: %s\n", err.path, err.line, err.message);
        else   /* I/O: the message names the file */
            fprintf(stderr, "hyperdo: error: %s\n", err.message);
        hd_mesh_input_free(in);
        return HD_EXIT_FAILURE;
    }
    return HD_EXIT_OK;
}

/* A mapping file (hd_read_partition): one processor per line for each of
 * the N nodes; *most the largest. */
static int read_mapping(const char *path, int N, int **proc, int *most)
{
    hd_diag err;
    int64_t count;
    if (hd_read_partition(path, N, (1 << 20) - 1, proc, &count, &err) != HD_SPEC_OK) {
        if (err.line > 0)
            fprintf(stderr, "%s:%d: error: %s\n", err.path, err.line, err.message);
        else
            fprintf(stderr, "hyperdo: error: %s\n", err.message);
        return HD_EXIT_FAILURE;
    }
    *most = 0;
    for (int v = 0; v < N; v++)
        if ((*proc)[v] > *most)
            *most = (*proc)[v];
    return HD_EXIT_OK;
}

/* ------------------------------------------------------------ output */

/* The mapping into path whole or not at all: a temporary file beside it,
 * renamed over it once written. */
static int write_mapping(const char *path, const int *proc, int N)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp)
        return HD_EXIT_FAILURE;
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    bool ok = f != NULL;
    for (int v = 0; ok && v < N; v++)
        ok = fprintf(f, "%d\n", proc[v]) > 0;
    if (f)
        ok = (fclose(f) == 0) && ok;
    else if (fd >= 0)
        close(fd);
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "hyperdo: error: cannot write the mapping to %s: %s\n", path,
                strerror(errno));
        if (fd >= 0)
            remove(tmp);
    }
    free(tmp);
    return ok ? HD_EXIT_OK : HD_EXIT_FAILURE;
}

static json_t *steps_json(const hd_fem_report *r, int model)
{
    json_t *a = json_array();
    for (int s = 0; s < r->steps[model]; s++)
        json_array_append_new(a, json_integer(r->step_max[model][s]));
    return a;
}

static void print_json(const char *algorithm, int shape_x, bool reordered,
                       const hd_fem_report *r, const hd_fem_times *t)
{
    json_t *j = json_object();
    if (algorithm) {
        json_object_set_new(j, "algorithm", json_string(algorithm));
        json_object_set_new(j, "reordered_bits", json_boolean(reordered));
    }
    if (shape_x >= 0) {
        json_object_set_new(j, "mesh_rows", json_integer(1 << shape_x));
        json_object_set_new(j, "mesh_cols", json_integer(1 << (r->n - shape_x)));
    }
    json_object_set_new(j, "dim", json_integer(r->n));
    json_object_set_new(j, "nodes", json_integer(r->N));
    json_object_set_new(j, "max_load", json_integer(r->max_load));
    json_object_set_new(j, "lbc", json_boolean(r->lbc));
    json_object_set_new(j, "neighbour_mapping", json_boolean(r->neighbour_mapping));
    json_t *d = json_array();
    int top = 0;
    for (int k = 0; k <= HD_FEM_MAX_DIST; k++)
        if (r->dilation[k])
            top = k;
    for (int k = 0; k <= top; k++)
        json_array_append_new(d, json_integer(r->dilation[k]));
    json_object_set_new(j, "dilation", d);
    json_object_set_new(j, "words", json_integer(r->words));
    json_object_set_new(j, "word_hops", json_integer(r->word_hops));
    json_object_set_new(j, "edge_cut", json_integer(r->edge_cut));
    json_object_set_new(j, "steps_bi", json_integer(r->steps[HD_FEM_BI]));
    json_object_set_new(j, "steps_uni", json_integer(r->steps[HD_FEM_UNI]));
    json_object_set_new(j, "step_max_bi", steps_json(r, HD_FEM_BI));
    json_object_set_new(j, "step_max_uni", steps_json(r, HD_FEM_UNI));
    json_object_set_new(j, "c_bi_us", json_real(r->c_us[HD_FEM_BI]));
    json_object_set_new(j, "c_uni_us", json_real(r->c_us[HD_FEM_UNI]));
    json_object_set_new(j, "tpar_bi_us", json_real(r->tpar_us[HD_FEM_BI]));
    json_object_set_new(j, "tpar_uni_us", json_real(r->tpar_us[HD_FEM_UNI]));
    json_object_set_new(j, "speedup_bi", json_real(r->speedup[HD_FEM_BI]));
    json_object_set_new(j, "speedup_uni", json_real(r->speedup[HD_FEM_UNI]));
    json_object_set_new(j, "eubs_bi", json_real(r->eubs[HD_FEM_BI]));
    json_object_set_new(j, "elbs_bi", json_real(r->elbs[HD_FEM_BI]));
    json_object_set_new(j, "elbs_bi_printed", json_real(r->elbs_bi_printed));
    json_object_set_new(j, "eubs_uni", json_real(r->eubs[HD_FEM_UNI]));
    json_object_set_new(j, "elbs_uni", json_real(r->elbs[HD_FEM_UNI]));
    json_object_set_new(j, "t_task_us", json_real(t->task_us));
    json_object_set_new(j, "t_setup_us", json_real(t->setup_us));
    json_object_set_new(j, "t_c_us", json_real(t->word_us));
    char *s = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
    if (s)
        puts(s);
    free(s);
    json_decref(j);
}

static void print_steps(const hd_fem_report *r, int model)
{
    for (int s = 0; s < r->steps[model]; s++)
        printf("%s%lld", s ? ", " : "", r->step_max[model][s]);
}

static void print_text(const char *algorithm, int shape_x, const hd_fem_report *r)
{
    int M = 1 << r->n;
    if (algorithm) {
        printf("Mapping: %s", algorithm);
        if (shape_x >= 0)
            printf(" (processor mesh %d x %d)", 1 << shape_x, 1 << (r->n - shape_x));
        printf(", %d nodes onto the %d-cube.\n", r->N, r->n);
    }
    printf("Max load %d (ceil(N/M) = %d): the load-balance criterion %s.\n", r->max_load,
           (r->N + M - 1) / M, r->lbc ? "holds" : "does not hold");
    printf("Neighbour mapping: %s; NB pairs by distance:", r->neighbour_mapping ? "yes" : "no");
    for (int k = 0; k <= HD_FEM_MAX_DIST; k++)
        if (r->dilation[k])
            printf(" %d: %lld", k, r->dilation[k]);
    printf(".\nWords sent (sum of c_kl): %lld, times their hops (sum of c_kl H): %lld; "
           "NB edges cut: %lld.\n", r->words, r->word_hops, r->edge_cut);
    static const char *const names[2] = { "bidirectional", "unidirectional" };
    for (int m = 0; m < 2; m++) {
        printf("%s: %d steps, busiest channels ", names[m], r->steps[m]);
        print_steps(r, m);
        printf("; C = %.0f us, T_par = %.0f us, speedup %.2f (EUBS %.2f, ELBS %.2f", r->c_us[m],
               r->tpar_us[m], r->speedup[m], r->eubs[m], r->elbs[m]);
        if (m == HD_FEM_BI)
            printf("; the tables' ELBS %.2f", r->elbs_bi_printed);
        printf(").\n");
    }
}

/* The report, as --json asks, and r freed. */
static void print_report(const map_options *o, const char *algorithm, int shape_x,
                         hd_fem_report *r)
{
    if (o->json)
        print_json(algorithm, shape_x, algorithm && o->reorder, r, &o->t);
    else
        print_text(algorithm, shape_x, r);
    hd_fem_report_free(r);
}

/* ------------------------------------------------------------ map */

static int parse_map(int argc, char **argv, void *dest)
{
    map_options *o = dest;
    const hd_option_table tables[2] = { { map_table, o }, { shared_table, o } };
    int rc = hd_parse_command_line(&map_line, tables, (hd_operands){ &o->operand, NULL, NULL, NULL, NULL },
                                   argc, argv);
    if (rc >= 0)
        return rc;
    if (!o->operand)
        return hd_option_error(&map_line, "missing MESH: the mesh or graph to map");
    if (o->dim < 0)
        return hd_option_error(&map_line, "missing '--dim N': the cube's dimension");
    static const char *const algs[] = { "stripes", "greedy", "scotch", "metis", "best" };
    bool known = false;
    for (int k = 0; k < 5; k++)
        known |= strcmp(o->algorithm, algs[k]) == 0;
    if (!known)
        return hd_option_error(&map_line, "option '--algorithm' needs stripes, greedy, scotch, "
                               "metis or best (not '%s')", o->algorithm);
    if (strcmp(o->cost, "bi") && strcmp(o->cost, "uni"))
        return hd_option_error(&map_line, "option '--cost' needs bi or uni (not '%s')", o->cost);
    return -1;
}

/* One algorithm into proc: HD_EXIT_OK, or HD_EXIT_FAILURE said as an
 * error, or as a note when `best` leaves it out (out of memory is always
 * an error: best stops there). */
static int run_one(const char *alg, const hd_mesh_input *in, const map_options *o,
                   hd_fem_channels ch, int *proc, int *shape_x, bool in_best)
{
    char err[256] = "";
    int n = (int)o->dim, rc;
    *shape_x = -1;
    /* Long runs say how they go on a terminal without being asked. */
    FILE *progress = o->progress || (isatty(STDERR_FILENO) && in->nb.n >= 100000) ? stderr : NULL;
    if (progress)
        fprintf(progress, "hyperdo map: %s on the %d-cube, %d nodes\n", alg, n, in->nb.n);
    if (strcmp(alg, "stripes") == 0) {
        rc = hd_fem_stripes(&in->nb, n, ch, &o->t, proc, shape_x, progress);
    } else if (strcmp(alg, "greedy") == 0) {
        rc = hd_fem_greedy(&in->nb, &in->adj, n, proc);
        if (rc == HD_EINVAL)
            snprintf(err, sizeof err, "the greedy assignment cannot keep every pair of "
                     "neighbour nodes within two bits (Chung and Ranka 1990, Section 4: "
                     "\"the neighbor mapping is impossible\")");
    } else if (strcmp(alg, "scotch") == 0) {
        rc = hd_fem_scotch(&in->nb, n, proc, err, sizeof err);
    } else {
        rc = hd_fem_metis(&in->nb, n, ch, &o->t, proc, err, sizeof err);
    }
    if (rc == HD_OK)
        return HD_EXIT_OK;
    bool note = in_best && rc != HD_ENOMEM;
    fprintf(stderr, "hyperdo: %s: %s: %s%s\n", note ? "note" : "error", alg,
            rc == HD_ENOMEM ? "out of memory" : err[0] ? err : "failed",
            note ? " (left out of best)" : "");
    return note ? HD_EXIT_USAGE : HD_EXIT_FAILURE;
}

static int run_map(void *opts)
{
    map_options *o = opts;
    hd_mesh_input in;
    int rc = read_mesh(&map_line, o->operand, &in);
    if (rc != HD_EXIT_OK)
        return rc;
    hd_fem_channels ch = strcmp(o->cost, "uni") == 0 ? HD_FEM_UNI : HD_FEM_BI;
    int N = in.nb.n, shape_x = -1;
    int *proc = malloc(((size_t)N + 1) * sizeof *proc);
    int *try = malloc(((size_t)N + 1) * sizeof *try);
    const char *chosen = o->algorithm;
    if (!proc || !try) {
        fprintf(stderr, "hyperdo: error: out of memory\n");
        rc = HD_EXIT_FAILURE;
    } else if (strcmp(o->algorithm, "best") != 0) {
        rc = run_one(o->algorithm, &in, o, ch, proc, &shape_x, false);
    } else {
        /* The cheapest of the four under --cost; one that fails (greedy
         * without a neighbour mapping) is left out. */
        static const char *const algs[] = { "stripes", "greedy", "scotch", "metis" };
        double best = -1;
        for (int k = 0; k < 4 && rc == HD_EXIT_OK; k++) {
            int sx;
            int one = run_one(algs[k], &in, o, ch, try, &sx, true);
            if (one == HD_EXIT_USAGE)
                continue;   /* said: left out */
            hd_fem_report r;
            if (one != HD_EXIT_OK || hd_fem_cost(&in.nb, (int)o->dim, try, &o->t, &r) != HD_OK) {
                if (one == HD_EXIT_OK)
                    fprintf(stderr, "hyperdo: error: out of memory\n");
                rc = HD_EXIT_FAILURE;
                break;
            }
            if (o->progress)
                fprintf(stderr, "hyperdo map: %s: C_%s %.0f us\n", algs[k], o->cost,
                        r.c_us[ch]);
            /* Least T_par first (a cheaper C with a worse load is no
             * better mapping), then least C. */
            double score = r.tpar_us[ch];
            if (best < 0 || score < best) {
                best = score;
                chosen = algs[k];
                shape_x = sx;
                memcpy(proc, try, (size_t)N * sizeof *proc);
            }
            hd_fem_report_free(&r);
        }
        if (rc == HD_EXIT_OK && best < 0) {
            fprintf(stderr, "hyperdo: error: best: none of the four algorithms gave a mapping\n");
            rc = HD_EXIT_FAILURE;
        }
    }
    if (rc == HD_EXIT_OK && o->reorder) {
        int e = hd_fem_reorder_bits(&in.nb, (int)o->dim, ch, &o->t, proc);
        if (e != HD_OK) {
            fprintf(stderr, "hyperdo: error: --reorder-bits: %s\n",
                    e == HD_ETOOBIG ? "tries the n! orders of the address bits, n <= 7"
                                    : "out of memory");
            rc = HD_EXIT_FAILURE;
        }
    }
    hd_fem_report r;
    if (rc == HD_EXIT_OK && hd_fem_cost(&in.nb, (int)o->dim, proc, &o->t, &r) != HD_OK) {
        fprintf(stderr, "hyperdo: error: out of memory\n");
        rc = HD_EXIT_FAILURE;
    }
    if (rc == HD_EXIT_OK && o->out)
        rc = write_mapping(o->out, proc, N);
    if (rc == HD_EXIT_OK)
        print_report(o, chosen, shape_x, &r);
    free(proc);
    free(try);
    hd_mesh_input_free(&in);
    return rc;
}

/* Both commands' defaults: the paper's machine, the stripes mapping. */
static const map_options defaults = { NULL, NULL, NULL, "stripes", "bi", -1, false, false, false,
                                      HD_FEM_TIMES_DEFAULT };

int hd_cmd_map(int argc, char **argv)
{
    map_options o = defaults;
    return hd_run_command(argc, argv, &o, parse_map, run_map);
}

/* ------------------------------------------------------------ cost */

/* Does the cost command's option arg take the next argument? */
static bool takes_value(const char *arg)
{
    for (const hd_option *t = shared_table; t->name; t++)
        if (strcmp(t->name, arg) == 0)
            return t->takes != HD_OPT_NO_VALUE;
    return false;
}

/* The index of the first operand of argv at or after `from` (argc: none). */
static int operand_at(int argc, char **argv, int from)
{
    int k = from;
    while (k < argc && argv[k][0] == '-' && argv[k][1])
        k += 1 + takes_value(argv[k]);
    return k;
}

static int parse_cost(int argc, char **argv, void *dest)
{
    map_options *o = dest;
    /* Two operands, MESH MAPFILE, where the parser takes one: the second
     * is taken out first. */
    int j = operand_at(argc, argv, operand_at(argc, argv, 1) + 1);
    char **rest = malloc((size_t)argc * sizeof *rest);
    if (!rest)
        return HD_EXIT_FAILURE;
    int m = 0;
    for (int i = 0; i < argc; i++)
        if (i != j)
            rest[m++] = argv[i];
    if (j < argc)
        o->mapfile = argv[j];
    const hd_option_table tables[2] = { { shared_table, o }, { NULL, NULL } };
    int rc = hd_parse_command_line(&cost_line, tables, (hd_operands){ &o->operand, NULL, NULL, NULL, NULL },
                                   m, rest);
    free(rest);
    if (rc >= 0)
        return rc;
    if (!o->operand)
        return hd_option_error(&cost_line, "missing MESH: the mesh or graph the mapping is of");
    if (!o->mapfile)
        return hd_option_error(&cost_line, "missing MAPFILE: the mapping to cost");
    return -1;
}

static int run_cost(void *opts)
{
    map_options *o = opts;
    hd_mesh_input in;
    int rc = read_mesh(&cost_line, o->operand, &in);
    if (rc != HD_EXIT_OK)
        return rc;
    int N = in.nb.n, most = 0;
    int *proc = NULL;
    rc = read_mapping(o->mapfile, N, &proc, &most);
    int n = 0;
    while ((1 << n) <= most)
        n++;
    if (rc == HD_EXIT_OK && o->dim >= 0) {
        if (n > o->dim) {
            fprintf(stderr, "%s: error: processor %d is not in the %ld-cube\n", o->mapfile, most,
                    o->dim);
            rc = HD_EXIT_FAILURE;
        }
        n = (int)o->dim;
    }
    hd_fem_report r;
    if (rc == HD_EXIT_OK && hd_fem_cost(&in.nb, n, proc, &o->t, &r) != HD_OK) {
        fprintf(stderr, "hyperdo: error: out of memory\n");
        rc = HD_EXIT_FAILURE;
    }
    if (rc == HD_EXIT_OK)
        print_report(o, NULL, -1, &r);
    free(proc);
    hd_mesh_input_free(&in);
    return rc;
}

int hd_cmd_cost(int argc, char **argv)
{
    map_options o = defaults;
    return hd_run_command(argc, argv, &o, parse_cost, run_cost);
}
