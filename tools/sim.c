/*
 * sim.c — `hyperdo sim`: run one LCC of a spec on the flit-level wormhole
 * n-cube simulator (runtime/sim/sim.h), the experiment of Hou et al. 2001,
 * Section 6.1: every processor sends 20-flit messages to its LCC
 * destination at exponentially distributed intervals, with or without a
 * reordering mapping; report accepted throughput and latency, or raise the
 * load to saturation (--sweep).
 *
 * As in analyze, nothing reaches stdout until the answer is complete.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis.h"
#include "commands.h"
#include "frontend.h"
#include "sim.h"

typedef enum { MAP_IDENTITY, MAP_OPTIMAL, MAP_SET } mapping_kind;

static const char *const mapping_names[] = { "identity", "optimal", "set" };

typedef struct {
    bool json;
    const char *path;
    const char *lcc;
    mapping_kind mapping;
    hd_objective objective;
    bool sweep;
    double rate;            /* < 0: not given */
    uint64_t seed;
    uint64_t cycles;
    uint32_t flits;
    hd_sim_routing routing;
} options;

static const char usage_line[] =
    "usage: hyperdo sim [--json] SPEC.lcc --lcc NAME "
    "[--mapping identity|optimal|set] (--rate R | --sweep) [--seed S] "
    "[--cycles C] [--routing ecube|pcube]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Simulates one LCC of SPEC on a wormhole-routed n-cube, flit by flit\n"
        "(Hou et al. 2001, Section 6): one-flit channel buffers, one cycle per flit\n"
        "per channel, first-come-first-served arbitration of headers.  Every\n"
        "processor sends messages to its LCC destination at exponentially\n"
        "distributed intervals (a scatter: every destination receives from its\n"
        "source, see docs/simulator.md); the virtual processors are placed on\n"
        "the physical ones by the chosen mapping.\n"
        "\n"
        "Options:\n"
        "  --lcc NAME          the LCC of SPEC to run (required)\n"
        "  --mapping M         identity  virtual processor x on physical x\n"
        "                      optimal   this LCC's own optimum (Hou et al.\n"
        "                                2001, Fig. 3, Theorem 4; their M-S)\n"
        "                      set       the mapping for every LCC of SPEC\n"
        "                                (Hou et al. 2001, Section 5; M-G)\n"
        "  --objective OBJ     for --mapping set: max (default), maxsum, sum\n"
        "  --rate R            offered load, flits per cycle per node (0 < R <= 1)\n"
        "  --sweep             raise the load until the network saturates and\n"
        "                      report the saturation throughput\n"
        "  --seed S            random seed (default 1); same seed, same result\n"
        "  --cycles C          cycles measured per run, after C/4 of warm-up\n"
        "                      (default 20000)\n"
        "  --routing R         ecube (default) or pcube (Glass and Ni's\n"
        "                      negative-first, partially adaptive)\n"
        "  --flits L           flits per message (default 20)\n"
        "  --json              print one JSON object instead of the report\n"
        "  -h, --help          show this help and exit\n",
        usage_line);
}

/* "--" ends the options; sim passes nothing on to clang. */
static const hd_command_line command_line = {
    "sim", usage_line, print_help, "SPEC",
    "missing SPEC (an .lcc file, or - for standard input)", true
};

#define usage_error(...) hd_option_error(&command_line, __VA_ARGS__)

static bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    char *end = NULL;
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

/* The options' values; a missing one (NULL) is reported as a bad one. */
static int take_mapping(const hd_command_line *cl, void *dest, const char *value)
{
    int k = 0;
    while (k < 3 && (!value || strcmp(value, mapping_names[k]) != 0))
        k++;
    if (k == 3)
        return hd_option_error(cl, "option '--mapping' needs identity, "
                               "optimal or set%s%s%s", value ? ", not '" : "",
                               value ? value : "", value ? "'" : "");
    ((options *)dest)->mapping = (mapping_kind)k;
    return -1;
}

static bool parse_rate(const char *value, void *rate)
{
    char *end = NULL;
    double r = strtod(value, &end);
    if (!*value || *end || !(r > 0 && r <= 1))
        return false;
    *(double *)rate = r;
    return true;
}

static bool parse_seed(const char *value, void *seed)
{
    return parse_u64(value, 0, UINT64_MAX, seed);
}

static bool parse_cycles(const char *value, void *cycles)
{
    return parse_u64(value, 100, 100000000, cycles);
}

static bool parse_flits(const char *value, void *flits)
{
    uint64_t f;
    if (!parse_u64(value, 1, 100000, &f))
        return false;
    *(uint32_t *)flits = (uint32_t)f;
    return true;
}

static bool parse_routing(const char *value, void *routing)
{
    return hd_sim_routing_parse(value, routing);
}

static const hd_option sim_options[] = {
    { "--json", HD_OPT_NO_VALUE, NULL, offsetof(options, json), NULL, NULL },
    { "--sweep", HD_OPT_NO_VALUE, NULL, offsetof(options, sweep), NULL, NULL },
    { "--lcc", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(options, lcc), "the name of an LCC of the spec", NULL },
    { "--mapping", HD_OPT_VALUE, take_mapping, 0, NULL, NULL },
    { "--objective", HD_OPT_VALUE, NULL, offsetof(options, objective),
      "max, maxsum or sum", hd_option_objective },
    { "--rate", HD_OPT_VALUE, NULL, offsetof(options, rate),
      "a load in flits per cycle per node, 0 < R <= 1", parse_rate },
    { "--seed", HD_OPT_VALUE, NULL, offsetof(options, seed), "a non-negative integer",
      parse_seed },
    { "--cycles", HD_OPT_VALUE, NULL, offsetof(options, cycles),
      "an integer from 100 to 100000000", parse_cycles },
    { "--flits", HD_OPT_VALUE, NULL, offsetof(options, flits), "an integer from 1 to 100000",
      parse_flits },
    { "--routing", HD_OPT_VALUE, NULL, offsetof(options, routing), "ecube or pcube",
      parse_routing },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

/* Into *dest, which holds the defaults; -1 to go on, else the exit
 * status (help, usage error). */
static int parse_options(int argc, char **argv, void *dest)
{
    options *opt = dest;
    const hd_option_table tables[2] = { { sim_options, opt }, { NULL, NULL } };
    int rc = hd_parse_command_line(&command_line, tables,
                                   (hd_operands){ &opt->path, NULL, NULL }, argc, argv);
    if (rc >= 0)
        return rc;
    if (!opt->lcc)
        return usage_error("missing '--lcc NAME': which LCC of the spec to "
                           "simulate");
    if (opt->sweep == (opt->rate > 0))
        return usage_error(opt->sweep ? "give either '--rate R' or '--sweep', "
                           "not both" : "give '--rate R' or '--sweep'");
    if (opt->objective != HD_OBJ_MAX && opt->mapping != MAP_SET)
        return usage_error("'--objective' applies to '--mapping set' only");
    return -1;
}

/* ------------------------------------------------------- input */

static int read_spec(const options *opt, hd_spec *spec, const char **name)
{
    const char *path = opt->path;
    size_t len = strlen(path);
    bool is_stdin = strcmp(path, "-") == 0;
    if (!is_stdin && (len < 5 || strcmp(path + len - 4, ".lcc") != 0))
        return usage_error("sim reads an LCC spec (.lcc, or - for standard "
                           "input), not '%s'", path);
    *name = is_stdin ? "<stdin>" : path;
    if (hd_read_spec_file(path, hd_spec_read, spec) != HD_EXIT_OK)
        return HD_EXIT_FAILURE;
    if (spec->n > HD_SIM_MAX_DIM) {
        fprintf(stderr, "%s:%d: error: n = %d is too large for the simulator "
                "(at most n = %d, %u routers)\n", *name, spec->n_line, spec->n,
                HD_SIM_MAX_DIM, 1u << HD_SIM_MAX_DIM);
        hd_spec_free(spec);
        return HD_EXIT_FAILURE;
    }
    return HD_EXIT_OK;
}

/* ------------------------------------------------------- progress */

/* A bar on stderr, once a run has taken two seconds, and only when stderr
 * is a terminal. */
typedef struct {
    bool tty, shown;
    struct timespec start;
    int last;
} progress;

static double elapsed(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) +
           (double)(now.tv_nsec - since->tv_nsec) * 1e-9;
}

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress *p = ctx;
    if (!p->tty || total == 0)
        return;
    if (!p->shown && elapsed(&p->start) < 2.0)
        return;
    int pct = (int)(100.0 * (double)done / (double)total);
    if (pct > 100)
        pct = 100;
    if (p->shown && pct == p->last)
        return;
    p->shown = true;
    p->last = pct;
    char bar[41];
    int fill = pct * 40 / 100;
    for (int k = 0; k < 40; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[40] = '\0';
    fprintf(stderr, "\rhyperdo sim: [%s] %3d%%", bar, pct);
    fflush(stderr);
}

static void end_progress(progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r%*s\r", 60, "");
}

/* ------------------------------------------------------- the run */

typedef struct {
    const char *spec_name;
    const hd_named_lcc *lcc;
    int n;
    hd_order order;
    hd_lcc mapped;                 /* between physical processors */
    uint64_t theorem[HD_MAX_DIM];  /* T_i of the mapped LCC (Theorem 1) */
    hd_sim_counts round;           /* one round, all messages at cycle 0 */
    double zero_load;              /* mean over messages of L + D + 1 */
    hd_sim_open_result *points;
    int npoints;
    int best;                      /* the point reported at top level */
    double saturation;
} outcome;

/* The mapping: the plan's for the whole set (analysis.h), or the LCC's
 * own optimum (Section 4). */
static int choose_order(const options *opt, const hd_spec *spec,
                        const hd_lcc *c, hd_order *order)
{
    hd_plan plan;
    hd_target target = hd_target_ecube(spec->n);   /* what the simulator models */
    if (opt->mapping == MAP_OPTIMAL) {
        if (hd_optimize_one(&target, c, order) == HD_OK)
            return HD_EXIT_OK;
        fprintf(stderr, "hyperdo: error: no optimizer for the LCC on the %s (internal error)\n",
                hd_target_name(&target));
        return HD_EXIT_FAILURE;
    }
    int rc = hd_plan_build(spec, &target, opt->objective,
                           opt->mapping == MAP_SET ? HD_MAPPING_OPTIMAL : HD_MAPPING_IDENTITY,
                           &plan);
    if (rc != HD_OK) {
        fprintf(stderr, "hyperdo: error: the set optimizer failed (internal error)\n");
        return HD_EXIT_FAILURE;
    }
    *order = plan.order;
    hd_plan_free(&plan);
    return HD_EXIT_OK;
}

static int simulate(const options *opt, outcome *out)
{
    int n = out->n;
    uint32_t nodes = UINT32_C(1) << n;
    uint32_t *src = hd_xmalloc(nodes * sizeof *src), *dst = hd_xmalloc(nodes * sizeof *dst);
    hd_sim_message *round = hd_xmalloc(nodes * sizeof *round);
    hd_sim *s = hd_sim_new(n, opt->routing);
    int status = HD_EXIT_FAILURE;
    if (!s) {
        fprintf(stderr, "hyperdo: error: out of memory\n");
        goto done;
    }
    /* Message t of the LCC round (a gather's from source t, a scatter's to
     * destination t), between physical processors. */
    double hops = 0;
    for (uint32_t t = 0; t < nodes; t++) {
        uint64_t a, b;
        hd_lcc_message(&out->mapped, t, &a, &b);
        src[t] = (uint32_t)a;
        dst[t] = (uint32_t)b;
        hops += __builtin_popcount(src[t] ^ dst[t]);
        round[t] = (hd_sim_message){ src[t], dst[t], opt->flits, 0, 0, 0 };
    }
    out->zero_load = (double)opt->flits + 1 + hops / nodes;
    if (hd_sim_phase(s, round, nodes, &out->round) != HD_SIM_OK) {
        fprintf(stderr, "hyperdo: error: the simulator failed on one round "
                "of the LCC\n");
        goto done;
    }

    progress bar = { isatty(STDERR_FILENO) == 1, false, { 0, 0 }, -1 };
    clock_gettime(CLOCK_MONOTONIC, &bar.start);
    hd_sim_traffic traffic = { nodes, src, dst };
    hd_sim_open_config cfg = { opt->rate, opt->flits, opt->cycles / 4,
                               opt->cycles, opt->seed, 0, false,
                               show_progress, &bar };
    int max_points = 40;
    out->points = hd_xcalloc((size_t)max_points, sizeof *out->points);
    int rc;
    if (opt->sweep) {
        rc = hd_sim_sweep(s, &traffic, &cfg, 4, out->points, max_points,
                          &out->npoints, &out->saturation);
    } else {
        rc = hd_sim_open(s, &traffic, &cfg, &out->points[0]);
        out->npoints = 1;
    }
    end_progress(&bar);
    if (rc != HD_SIM_OK) {
        fprintf(stderr, "hyperdo: error: the simulation failed (%s)\n",
                rc == HD_SIM_ENOMEM ? "out of memory" : "internal error");
        goto done;
    }
    /* The point reported at top level: the run itself, or for a sweep the
     * sustainable run of highest throughput (the lowest load if none). */
    out->best = 0;
    for (int k = 0; opt->sweep && k < out->npoints; k++)
        if (!out->points[k].saturated &&
            out->points[k].accepted >= out->points[out->best].accepted)
            out->best = k;
    status = HD_EXIT_OK;
done:
    hd_sim_free(s);
    free(src);
    free(dst);
    free(round);
    return status;
}

/* ------------------------------------------------------- output */

static json_t *json_u64s(const uint64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

/* Throughputs and latencies rounded to what a run can tell apart. */
static json_t *json_rounded(double v)
{
    return json_real(round(v * 1e6) / 1e6);
}

static void json_point(json_t *o, const hd_sim_open_result *p)
{
    json_object_set_new(o, "offered", json_rounded(p->offered));
    json_object_set_new(o, "accepted", json_rounded(p->accepted));
    json_object_set_new(o, "latency_mean", json_rounded(p->latency_mean));
    json_object_set_new(o, "latency_p99", json_integer((json_int_t)p->latency_p99));
    json_object_set_new(o, "saturated", json_boolean(p->saturated));
}

static char *render_json(const options *opt, const outcome *out)
{
    json_t *o = json_object();
    int n = out->n;
    json_object_set_new(o, "lcc", json_string(out->lcc->name));
    json_object_set_new(o, "n", json_integer(n));
    json_object_set_new(o, "routing", json_string(hd_sim_routing_name(opt->routing)));
    json_object_set_new(o, "mapping", json_string(mapping_names[opt->mapping]));
    json_t *ord = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(ord, json_integer(out->order.r[k]));
    json_object_set_new(o, "order", ord);
    json_object_set_new(o, "flits", json_integer(opt->flits));
    json_object_set_new(o, "seed", json_integer((json_int_t)opt->seed));
    json_object_set_new(o, "cycles", json_integer((json_int_t)opt->cycles));
    json_object_set_new(o, "warmup", json_integer((json_int_t)(opt->cycles / 4)));
    json_point(o, &out->points[out->best]);
    if (opt->sweep)
        json_object_set_new(o, "saturation", json_rounded(out->saturation));
    json_object_set_new(o, "max_channel_load",
                        json_integer((json_int_t)out->round.max_load));
    json_object_set_new(o, "channel_load", json_u64s(out->round.load, n));
    json_object_set_new(o, "contention", json_u64s(out->theorem, n));
    json_object_set_new(o, "round_cycles", json_integer((json_int_t)out->round.cycles));
    json_object_set_new(o, "zero_load_latency", json_rounded(out->zero_load));
    if (opt->sweep) {
        json_t *pts = json_array();
        for (int k = 0; k < out->npoints; k++) {
            json_t *p = json_object();
            json_point(p, &out->points[k]);
            json_array_append_new(pts, p);
        }
        json_object_set_new(o, "points", pts);
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (!text)
        return NULL;
    size_t len = strlen(text);
    char *line = hd_xrealloc(text, len + 2);
    line[len] = '\n';
    line[len + 1] = '\0';
    return line;
}

static void print_counts(FILE *f, const uint64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? " " : "", (unsigned long long)v[i]);
}

static char *render_report(const options *opt, const outcome *out)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    int n = out->n;
    fprintf(f, "Hyperdo simulation of %s from %s\n", out->lcc->name,
            out->spec_name);
    fprintf(f, "%d-cube (%u routers), %s wormhole routing, %u-flit messages, "
            "one-flit buffers.\n", n, 1u << n,
            opt->routing == HD_SIM_ECUBE ? "e-cube" : "P-cube (negative-first)",
            opt->flits);
    fprintf(f, "Mapping %s: R(L_%d) = (", mapping_names[opt->mapping], n);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%d", k ? ", " : "", out->order.r[k]);
    fprintf(f, ").\n\n");
    fprintf(f, "One round (every message once, all at cycle 0): %llu cycles.\n",
            (unsigned long long)out->round.cycles);
    fprintf(f, "  paths on the busiest channel of each dimension: ");
    print_counts(f, out->round.load, n);
    fprintf(f, "  (max %llu)\n", (unsigned long long)out->round.max_load);
    if (opt->routing == HD_SIM_ECUBE) {
        fprintf(f, "  Theorem 1 after the mapping:                    ");
        print_counts(f, out->theorem, n);
        fprintf(f, "\n");
    }
    fprintf(f, "Zero-load latency (L + D + 1, mean over messages): %.2f cycles.\n\n",
            out->zero_load);
    fprintf(f, "Open loop, seed %llu, %llu cycles measured after %llu of warm-up:\n",
            (unsigned long long)opt->seed, (unsigned long long)opt->cycles,
            (unsigned long long)(opt->cycles / 4));
    fprintf(f, "  %8s  %8s  %12s  %11s\n", "offered", "accepted",
            "latency mean", "latency p99");
    for (int k = 0; k < out->npoints; k++) {
        const hd_sim_open_result *p = &out->points[k];
        fprintf(f, "  %8.4f  %8.4f  %12.1f  %11llu%s\n", p->offered,
                p->accepted, p->latency_mean,
                (unsigned long long)p->latency_p99,
                p->saturated ? "  saturated" : "");
    }
    fprintf(f, "  (flits per cycle per node; latencies in cycles)\n");
    if (opt->sweep)
        fprintf(f, "\nSaturation throughput: %.4f flits per cycle per node.\n",
                out->saturation);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* ------------------------------------------------------- the command */

static int simulate_lcc(void *dest)
{
    const options *opt = dest;
    hd_spec spec;
    outcome out;
    memset(&out, 0, sizeof out);
    int status = read_spec(opt, &spec, &out.spec_name);
    if (status != HD_EXIT_OK)
        return status;
    for (int r = 0; r < spec.m; r++)
        if (strcmp(spec.lccs[r].name, opt->lcc) == 0)
            out.lcc = &spec.lccs[r];
    if (!out.lcc) {
        fprintf(stderr, "hyperdo: error: no LCC named '%s' in %s; it has:",
                opt->lcc, out.spec_name);
        for (int r = 0; r < spec.m; r++)
            fprintf(stderr, " %s", spec.lccs[r].name);
        fprintf(stderr, "\n%s (see 'hyperdo sim --help')\n", usage_line);
        hd_spec_free(&spec);
        return HD_EXIT_USAGE;
    }
    out.n = spec.n;
    status = choose_order(opt, &spec, out.lcc->comm.lcc, &out.order);
    if (status == HD_EXIT_OK) {
        out.mapped = hd_lcc_reorder(out.lcc->comm.lcc, &out.order);
        hd_target target = hd_target_ecube(spec.n);   /* what the simulator models */
        if (hd_contention(&target, &out.mapped, out.theorem) != HD_OK) {
            fprintf(stderr, "hyperdo: error: no contention formula for the LCC (internal error)\n");
            status = HD_EXIT_FAILURE;
        } else {
            status = simulate(opt, &out);
        }
    }
    if (status == HD_EXIT_OK) {
        status = hd_print_text(opt->json ? render_json(opt, &out)
                                        : render_report(opt, &out));
    }
    free(out.points);
    hd_spec_free(&spec);
    return status;
}

int hd_cmd_sim(int argc, char **argv)
{
    options opt = { .mapping = MAP_IDENTITY, .objective = HD_OBJ_MAX, .rate = -1, .seed = 1,
                    .cycles = 20000, .flits = 20, .routing = HD_SIM_ECUBE };
    return hd_run_command(argc, argv, &opt, parse_options, simulate_lcc);
}
