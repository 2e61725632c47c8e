/*
 * sim.c — `hyperdo sim`: run one LCC of a spec on the flit-level wormhole
 * n-cube simulator (runtime/sim/sim.h), the experiment of Hou et al. 2001,
 * Section 6.1: every processor sends 20-flit messages to its LCC
 * destination at exponentially distributed intervals, with or without a
 * reordering mapping; report accepted throughput and latency, or raise the
 * load to saturation (--sweep).
 *
 * With --network omega or butterfly it runs the pass-level simulator of
 * the omega network and the butterfly instead (runtime/sim/omega.c, Wu
 * 1984): per LCC, D by the algebra (analysis/omega.c), the messages
 * routed in one pass with the conflicts of each stage, the algebra's two
 * factors routed for D = 2, the greedy partition into conflict-free
 * passes for a communication that is no permutation.  The wormhole
 * options mean nothing there and are refused.
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
#include "sim_linkbound.h"
#include "sim_saf.h"

typedef enum { MAP_IDENTITY, MAP_OPTIMAL, MAP_SET } mapping_kind;

static const char *const mapping_names[] = { "identity", "optimal", "set" };

/* The wormhole n-cube (the default), or one of Wu 1984's multistage
 * networks, simulated pass by pass. */
typedef enum { NET_ECUBE, NET_OMEGA, NET_BUTTERFLY } network_kind;

static const char *const network_names[] = { "ecube", "omega", "butterfly" };

/* The wormhole simulator's options, as given on the command line: the
 * pass-level simulator refuses them rather than ignore them. */
enum {
    GIVEN_MAPPING = 1 << 0,
    GIVEN_OBJECTIVE = 1 << 1,
    GIVEN_RATE = 1 << 2,
    GIVEN_SEED = 1 << 3,
    GIVEN_CYCLES = 1 << 4,
    GIVEN_FLITS = 1 << 5,
    GIVEN_ROUTING = 1 << 6,
};

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
    network_kind network;
    unsigned given;         /* GIVEN_* */
} options;

static const char usage_line[] =
    "usage: hyperdo sim [--json] SPEC.lcc --lcc NAME "
    "[--mapping identity|optimal|set] (--rate R | --sweep) [--seed S] "
    "[--cycles C] [--routing ecube|pcube]; "
    "hyperdo sim [--json] SPEC.lcc --network omega|butterfly [--lcc NAME]; "
    "hyperdo sim --model linkbound --coll ALG --dim D --m M --tau T --beta B; "
    "hyperdo sim --model saf-bi|saf-uni SPEC.lcc --lcc NAME [--words W]";

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
        "  -h, --help          show this help and exit\n"
        "\n"
        "  --network N         ecube (default): the wormhole n-cube above;\n"
        "                      omega or butterfly: the pass-level simulator of\n"
        "                      Wu 1984's multistage networks, below\n"
        "\n"
        "With --network omega (Lawrie's omega network: n stages, each a perfect\n"
        "shuffle and 2^(n-1) two-state switches) or --network butterfly (Pease's\n"
        "indirect binary n-cube, Wu 1984, Chapter 5), every LCC of SPEC, or the\n"
        "one --lcc names, is routed pass by pass with destination-tag routing;\n"
        "no switch broadcasts or combines (Wu 1984, Section 2.1).  For each it\n"
        "prints D, the passes of the algebra (Wu 1984, Theorem 2.1, Corollary 2.1;\n"
        "for an LCG or LCS, Hyperdo's schedule and its lower bound), the\n"
        "conflicts of each stage when all its messages go in one pass, the\n"
        "algebra's two factors routed when D = 2, the greedy partition into\n"
        "conflict-free passes of an LCC that is no permutation, and the passes\n"
        "the simulator needs; --json adds the switch settings of each pass.\n"
        "--mapping, --objective, --rate, --sweep, --seed, --cycles, --routing\n"
        "and --flits belong to the wormhole simulator and are refused there.\n"
        "\n"
        "With --model linkbound (no SPEC), one collective of Stout and Wagar\n"
        "1990 (--coll ALG: bcast1 .. histogram) runs on the link-bound d-cube:\n"
        "full duplex, every link at once, store-and-forward, a packet of m items\n"
        "costing tau m + beta per link, in exact rational time; `hyperdo sim\n"
        "--model linkbound --help` lists its options.  With --model saf-bi or\n"
        "saf-uni, one LCC runs on Chung and Ranka 1990's synchronous\n"
        "store-and-forward cube (`hyperdo sim --model saf-bi --help`).\n"
        "See docs/simulator.md and docs/collectives.md.\n",
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
    ((options *)dest)->given |= GIVEN_MAPPING;
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

static bool parse_network(const char *value, void *network)
{
    for (int k = 0; k < 3; k++)
        if (strcmp(value, network_names[k]) == 0) {
            *(network_kind *)network = (network_kind)k;
            return true;
        }
    return false;
}

/* A wormhole option's value, stored as the option table would store it
 * (the same message when it is missing or bad), and the option marked
 * given. */
static int take_given(const hd_command_line *cl, options *o, unsigned bit, const char *name,
                      const char *needs, bool (*parse)(const char *, void *), void *field,
                      const char *value)
{
    o->given |= bit;
    if (!value || !parse(value, field))
        return hd_option_error(cl, "option '%s' needs %s", name, needs);
    return -1;
}

static int take_objective(const hd_command_line *cl, void *dest, const char *value)
{
    options *o = dest;
    return take_given(cl, o, GIVEN_OBJECTIVE, "--objective", "max, maxsum or sum",
                      hd_option_objective, &o->objective, value);
}

static int take_rate(const hd_command_line *cl, void *dest, const char *value)
{
    options *o = dest;
    return take_given(cl, o, GIVEN_RATE, "--rate",
                      "a load in flits per cycle per node, 0 < R <= 1", parse_rate, &o->rate,
                      value);
}

static int take_seed(const hd_command_line *cl, void *dest, const char *value)
{
    options *o = dest;
    return take_given(cl, o, GIVEN_SEED, "--seed", "a non-negative integer", parse_seed,
                      &o->seed, value);
}

static int take_cycles(const hd_command_line *cl, void *dest, const char *value)
{
    options *o = dest;
    return take_given(cl, o, GIVEN_CYCLES, "--cycles", "an integer from 100 to 100000000",
                      parse_cycles, &o->cycles, value);
}

static int take_flits(const hd_command_line *cl, void *dest, const char *value)
{
    options *o = dest;
    return take_given(cl, o, GIVEN_FLITS, "--flits", "an integer from 1 to 100000",
                      parse_flits, &o->flits, value);
}

static int take_routing(const hd_command_line *cl, void *dest, const char *value)
{
    options *o = dest;
    return take_given(cl, o, GIVEN_ROUTING, "--routing", "ecube or pcube", parse_routing,
                      &o->routing, value);
}

static const hd_option sim_options[] = {
    { "--json", HD_OPT_NO_VALUE, NULL, offsetof(options, json), NULL, NULL },
    { "--sweep", HD_OPT_NO_VALUE, NULL, offsetof(options, sweep), NULL, NULL },
    { "--lcc", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(options, lcc), "the name of an LCC of the spec", NULL },
    { "--mapping", HD_OPT_VALUE, take_mapping, 0, NULL, NULL },
    { "--objective", HD_OPT_VALUE, take_objective, 0, NULL, NULL },
    { "--rate", HD_OPT_VALUE, take_rate, 0, NULL, NULL },
    { "--seed", HD_OPT_VALUE, take_seed, 0, NULL, NULL },
    { "--cycles", HD_OPT_VALUE, take_cycles, 0, NULL, NULL },
    { "--flits", HD_OPT_VALUE, take_flits, 0, NULL, NULL },
    { "--routing", HD_OPT_VALUE, take_routing, 0, NULL, NULL },
    { "--network", HD_OPT_VALUE, NULL, offsetof(options, network),
      "ecube, omega or butterfly", parse_network },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

/* The pass-level simulator takes none of the wormhole simulator's
 * options: each is named in the error, the first in this order. */
static int refuse_wormhole_options(const options *opt)
{
    static const struct { unsigned bit; const char *name; } wormhole[] = {
        { GIVEN_MAPPING, "--mapping" }, { GIVEN_OBJECTIVE, "--objective" },
        { GIVEN_RATE, "--rate" },       { 0, "--sweep" },
        { GIVEN_SEED, "--seed" },       { GIVEN_CYCLES, "--cycles" },
        { GIVEN_ROUTING, "--routing" }, { GIVEN_FLITS, "--flits" },
    };
    for (size_t k = 0; k < sizeof wormhole / sizeof wormhole[0]; k++)
        if (wormhole[k].bit ? opt->given & wormhole[k].bit : opt->sweep)
            return usage_error("'%s' belongs to the wormhole simulator (--network ecube); "
                               "the %s network is simulated pass by pass, without a "
                               "mapping, a load, a time or a routing to choose",
                               wormhole[k].name, network_names[opt->network]);
    return -1;
}

/* Into *dest, which holds the defaults; -1 to go on, else the exit
 * status (help, usage error). */
static int parse_options(int argc, char **argv, void *dest)
{
    options *opt = dest;
    const hd_option_table tables[2] = { { sim_options, opt }, { NULL, NULL } };
    int rc = hd_parse_command_line(&command_line, tables,
                                   (hd_operands){ &opt->path, NULL, NULL, NULL, NULL }, argc, argv);
    if (rc >= 0)
        return rc;
    if (opt->network != NET_ECUBE)
        return refuse_wormhole_options(opt);
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
    if (opt->network == NET_ECUBE && spec->n > HD_SIM_MAX_DIM) {
        fprintf(stderr, "%s:%d: error: n = %d is too large for the simulator "
                "(at most n = %d, %u routers)\n", *name, spec->n_line, spec->n,
                HD_SIM_MAX_DIM, 1u << HD_SIM_MAX_DIM);
        hd_spec_free(spec);
        return HD_EXIT_FAILURE;
    }
    if (opt->network != NET_ECUBE && spec->n > HD_OMEGA_MAX_DIM) {
        fprintf(stderr, "%s:%d: error: n = %d is too large for the pass-level simulator "
                "(at most n = %d, %u lines; runtime/sim/sim.h says why)\n", *name,
                spec->n_line, spec->n, HD_OMEGA_MAX_DIM, 1u << HD_OMEGA_MAX_DIM);
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

/* The LCC --lcc names, or NULL after saying which there are. */
static const hd_named_lcc *find_lcc(const options *opt, const hd_spec *spec,
                                    const char *spec_name)
{
    const hd_named_lcc *found = NULL;
    for (int r = 0; r < spec->m; r++)
        if (strcmp(spec->lccs[r].name, opt->lcc) == 0)
            found = &spec->lccs[r];
    if (!found) {
        fprintf(stderr, "hyperdo: error: no LCC named '%s' in %s; it has:",
                opt->lcc, spec_name);
        for (int r = 0; r < spec->m; r++)
            fprintf(stderr, " %s", spec->lccs[r].name);
        fprintf(stderr, "\n%s (see 'hyperdo sim --help')\n", usage_line);
    }
    return found;
}

/* ------------------------------------ the pass-level simulator (Wu 1984) */

/* The JSON's switch settings, one character per switch, stop here: a
 * communication that is no permutation may need thousands of passes of
 * n 2^(n-1) switches each.  Beyond it the command fails and says so. */
#define MAX_SETTINGS_CHARS (UINT64_C(1) << 26)

/* What the algebra and the simulator say of one LCC. */
typedef struct {
    const hd_named_lcc *lcc;
    int rank;
    hd_omega_price price;       /* the algebra (analysis/omega.c) */
    hd_omega_msg *msg;          /* message t: hd_lcc_message's */
    size_t count, local;        /* messages; those to their own processor */
    hd_omega_pass whole;        /* every message in one pass */
    bool factored;              /* D = 2: the algebra's factors routed */
    hd_omega_factors factors;
    uint32_t *pass, npasses;    /* no permutation: the greedy partition */
    hd_omega_pass *routed;      /* --json: each greedy pass routed again */
    int simulated;              /* the passes the simulator needs, or -1 */
} pass_outcome;

static void pass_outcome_free(pass_outcome *o)
{
    free(o->msg);
    hd_omega_pass_free(&o->whole);
    hd_omega_factors_free(&o->factors);
    for (uint32_t p = 0; o->routed && p < o->npasses; p++)
        hd_omega_pass_free(&o->routed[p]);
    free(o->routed);
    free(o->pass);
}

static hd_omega_network omega_network(network_kind k)
{
    return k == NET_BUTTERFLY ? HD_OMEGA_NET_BUTTERFLY : HD_OMEGA_NET_OMEGA;
}

static hd_target omega_target(network_kind k, int n)
{
    return k == NET_BUTTERFLY ? hd_target_butterfly(n) : hd_target_omega(n);
}

static bool sim_failed(int rc)
{
    if (rc == HD_SIM_OK)
        return false;
    if (rc == HD_SIM_ENOMEM)
        hd_out_of_memory();
    fprintf(stderr, "hyperdo: error: the pass-level simulator refused the messages "
            "(internal error)\n");
    return true;
}

/* A permutation: D = 0 when nothing moves, 1 when the simulator routes
 * every message in one pass, 2 when it routes the algebra's two factors
 * (Wu 1984, Section 2.3: every element of Delta in at most two) without
 * conflict and their composition delivers every line. */
static int simulate_permutation(network_kind net, int n, pass_outcome *o)
{
    if (o->local == o->count) {
        o->simulated = 0;
        return HD_EXIT_OK;
    }
    if (o->whole.nconflicts == 0) {
        o->simulated = 1;
        return HD_EXIT_OK;
    }
    size_t lines = (size_t)1 << n;
    uint32_t *first = hd_xmalloc(lines * sizeof *first);
    uint32_t *second = hd_xmalloc(lines * sizeof *second);
    uint32_t *target = hd_xmalloc(lines * sizeof *target);
    for (size_t x = 0; x < lines; x++) {
        first[x] = (uint32_t)hd_agl_apply(&o->price.first, x);
        second[x] = (uint32_t)hd_agl_apply(&o->price.second, x);
        target[x] = (uint32_t)hd_agl_apply(&o->price.moves, x);
    }
    int rc = hd_omega_run_factors(omega_network(net), n, first, second, target, &o->factors);
    free(first);
    free(second);
    free(target);
    if (sim_failed(rc))
        return HD_EXIT_FAILURE;
    o->factored = true;
    o->simulated = o->factors.ok ? 2 : -1;
    return HD_EXIT_OK;
}

/* No permutation: the greedy partition (runtime/sim/sim.h), and for the
 * JSON each of its passes routed again for its settings. */
static int simulate_partition(const options *opt, int n, pass_outcome *o)
{
    hd_omega_network net = omega_network(opt->network);
    o->pass = hd_xmalloc(o->count * sizeof *o->pass);
    if (sim_failed(hd_omega_partition(net, n, o->msg, o->count, o->pass, &o->npasses)))
        return HD_EXIT_FAILURE;
    o->simulated = (int)o->npasses;
    if (!opt->json)
        return HD_EXIT_OK;
    uint64_t chars = (uint64_t)o->npasses * (uint64_t)n << (n - 1);
    if (chars > MAX_SETTINGS_CHARS) {
        fprintf(stderr, "hyperdo: error: %s: the switch settings of its %u passes would take "
                "%llu characters of JSON, more than the limit of %llu (run without --json "
                "for the counts)\n", o->lcc->name, o->npasses, (unsigned long long)chars,
                (unsigned long long)MAX_SETTINGS_CHARS);
        return HD_EXIT_FAILURE;
    }
    o->routed = hd_xcalloc(o->npasses ? o->npasses : 1, sizeof *o->routed);
    hd_omega_msg *sub = hd_xmalloc(o->count * sizeof *sub);
    int status = HD_EXIT_OK;
    for (uint32_t p = 0; p < o->npasses && status == HD_EXIT_OK; p++) {
        size_t len = 0;
        for (size_t i = 0; i < o->count; i++)
            if (o->pass[i] == p)
                sub[len++] = o->msg[i];
        if (sim_failed(hd_omega_route(net, n, sub, len, &o->routed[p])))
            status = HD_EXIT_FAILURE;
        else if (o->routed[p].nconflicts) {
            fprintf(stderr, "hyperdo: error: %s: pass %u of the greedy partition has a "
                    "conflict (internal error)\n", o->lcc->name, p + 1);
            status = HD_EXIT_FAILURE;
        }
    }
    free(sub);
    return status;
}

static int simulate_one(const options *opt, int n, const hd_named_lcc *lcc, pass_outcome *o)
{
    const hd_lcc *c = lcc->comm.lcc;
    hd_target t = omega_target(opt->network, n);
    o->lcc = lcc;
    o->rank = hd_rank(&c->A);
    if (hd_omega_price_lcc(&t, c, &o->price) != HD_OK) {
        fprintf(stderr, "hyperdo: error: %s: no price on the %s network (internal error)\n",
                lcc->name, network_names[opt->network]);
        return HD_EXIT_FAILURE;
    }
    o->count = (size_t)1 << n;
    o->msg = hd_xmalloc(o->count * sizeof *o->msg);
    for (size_t m = 0; m < o->count; m++) {
        uint64_t src, dst;
        hd_lcc_message(c, m, &src, &dst);
        o->msg[m] = (hd_omega_msg){ (uint32_t)src, (uint32_t)dst };
        o->local += src == dst;
    }
    if (sim_failed(hd_omega_route(omega_network(opt->network), n, o->msg, o->count, &o->whole)))
        return HD_EXIT_FAILURE;
    if (!o->price.permutation)
        return simulate_partition(opt, n, o);
    int status = simulate_permutation(opt->network, n, o);
    if (status == HD_EXIT_OK && (o->simulated < 0 || (uint64_t)o->simulated != o->price.passes)) {
        /* The simulator is the algebra's oracle: they must agree. */
        fprintf(stderr, "hyperdo: error: %s: the algebra says D = %llu, the simulator %s "
                "(internal error)\n", lcc->name, (unsigned long long)o->price.passes,
                o->simulated < 0 ? "cannot route its two factors" : "disagrees");
        status = HD_EXIT_FAILURE;
    }
    return status;
}

/* ------------------------------------------ the pass-level output */

static const char *direction_name(const hd_lcc *c)
{
    return c->dir == HD_SCATTER ? "scatter" : "gather";
}

static json_t *json_sizes(const size_t *v, int count)
{
    json_t *a = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

/* A pass's switches: one string per stage, one character per switch:
 * 0 direct, 1 crossed, - idle (a conflict-free pass has no other). */
static json_t *json_settings(const hd_omega_pass *p)
{
    static const char mark[] = { '-', '0', '1', 'X' };
    size_t half = (size_t)1 << (p->n - 1);
    char *line = hd_xmalloc(half + 1);
    json_t *stages = json_array();
    for (int s = 0; s < p->n; s++) {
        for (size_t j = 0; j < half; j++)
            line[j] = mark[p->setting[(size_t)s * half + j] & 3];
        line[half] = '\0';
        json_array_append_new(stages, json_string(line));
    }
    free(line);
    return stages;
}

static json_t *json_pass(const hd_omega_pass *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "messages", json_integer((json_int_t)p->messages));
    json_object_set_new(o, "settings", json_settings(p));
    return o;
}

static json_t *json_pass_outcome(const pass_outcome *o, int n)
{
    const hd_lcc *c = o->lcc->comm.lcc;
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(o->lcc->name));
    json_object_set_new(j, "class", json_string(hd_lcc_class_name(hd_lcc_classify(c))));
    json_object_set_new(j, "kind", json_string(direction_name(c)));
    json_object_set_new(j, "rank", json_integer(o->rank));
    json_object_set_new(j, "messages", json_integer((json_int_t)o->count));
    json_object_set_new(j, "local", json_integer((json_int_t)o->local));
    json_object_set_new(j, "passes", json_integer((json_int_t)o->price.passes));
    json_object_set_new(j, "lower", json_integer((json_int_t)o->price.lower));
    json_t *whole = json_object();
    json_object_set_new(whole, "conflict_free", json_boolean(o->whole.nconflicts == 0));
    json_object_set_new(whole, "shared_lines", json_sizes(o->whole.outputs, n + 1));
    json_object_set_new(whole, "both_settings", json_sizes(o->whole.settings, n + 1));
    json_object_set_new(j, "one_pass", whole);
    if (o->factored) {
        json_t *f = json_object();
        json_t *free_of = json_array();
        for (int k = 0; k < 2; k++)
            json_array_append_new(free_of, json_boolean(o->factors.pass[k].nconflicts == 0));
        json_object_set_new(f, "conflict_free", free_of);
        json_object_set_new(f, "delivered", json_integer((json_int_t)o->factors.delivered));
        json_object_set_new(j, "factors", f);
    }
    if (!o->price.permutation)
        json_object_set_new(j, "greedy_passes", json_integer(o->npasses));
    json_object_set_new(j, "simulated_passes", json_integer(o->simulated));
    json_t *passes = json_array();
    if (o->factored) {
        for (int k = 0; k < 2; k++)
            json_array_append_new(passes, json_pass(&o->factors.pass[k]));
    } else if (o->price.permutation && o->simulated == 1) {
        json_array_append_new(passes, json_pass(&o->whole));
    } else {
        for (uint32_t p = 0; o->routed && p < o->npasses; p++)
            json_array_append_new(passes, json_pass(&o->routed[p]));
    }
    json_object_set_new(j, "pass_settings", passes);
    return j;
}

static char *render_passes_json(const options *opt, int n, const pass_outcome *o, int count)
{
    json_t *top = json_object();
    json_object_set_new(top, "network", json_string(network_names[opt->network]));
    json_object_set_new(top, "n", json_integer(n));
    json_t *lccs = json_array();
    for (int k = 0; k < count; k++)
        json_array_append_new(lccs, json_pass_outcome(&o[k], n));
    json_object_set_new(top, "lccs", lccs);
    char *text = json_dumps(top, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(top);
    if (!text)
        return NULL;
    size_t len = strlen(text);
    char *line = hd_xrealloc(text, len + 2);
    line[len] = '\n';
    line[len + 1] = '\0';
    return line;
}

static void print_stage_counts(FILE *f, const char *what, const size_t *v, int from, int n)
{
    fprintf(f, "    %-34s", what);
    for (int s = 0; s <= n; s++) {
        if (s < from)
            fprintf(f, " %5s", "-");
        else
            fprintf(f, " %5zu", v[s]);
    }
    fprintf(f, "\n");
}

static void report_one(FILE *f, const pass_outcome *o, int n)
{
    const hd_lcc *c = o->lcc->comm.lcc;
    fprintf(f, "%s: %s %s, rank %d, %zu messages (%zu to their own processor)\n",
            o->lcc->name, hd_lcc_class_name(hd_lcc_classify(c)), direction_name(c), o->rank,
            o->count, o->local);
    if (o->price.permutation)
        fprintf(f, "  D by the algebra (Wu 1984, Theorem 2.1, Corollary 2.1): %llu\n",
                (unsigned long long)o->price.passes);
    else
        fprintf(f, "  no permutation: Hyperdo's schedule %llu passes, none can do with fewer "
                "than %llu\n", (unsigned long long)o->price.passes,
                (unsigned long long)o->price.lower);
    fprintf(f, "  every message in one pass: %s\n",
            o->whole.nconflicts ? "conflicts" : "no conflict");
    if (o->whole.nconflicts) {
        fprintf(f, "    %-34s", "stage");
        for (int s = 0; s <= n; s++)
            fprintf(f, " %5d", s);
        fprintf(f, "\n");
        print_stage_counts(f, "lines wanted by two or more", o->whole.outputs, 0, n);
        print_stage_counts(f, "switches asked both ways", o->whole.settings, 1, n);
    }
    if (o->factored)
        fprintf(f, "  the algebra's two factors: pass 1 %s, pass 2 %s, %zu of %zu lines "
                "delivered\n", o->factors.pass[0].nconflicts ? "conflicts" : "conflict-free",
                o->factors.pass[1].nconflicts ? "conflicts" : "conflict-free",
                o->factors.delivered, o->count);
    if (!o->price.permutation)
        fprintf(f, "  greedy partition (first fit in message order, direct routes): %u passes\n",
                o->npasses);
    fprintf(f, "  passes by the simulator: %d\n", o->simulated);
}

static char *render_passes_report(const options *opt, const char *spec_name, int n,
                                  const pass_outcome *o, int count)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    unsigned lines = 1u << n;
    fprintf(f, "Hyperdo pass-level simulation of %s\n", spec_name);
    if (opt->network == NET_OMEGA)
        fprintf(f, "Omega network (Lawrie; Wu 1984, Section 2.1): %u lines, %d stages, each a "
                "perfect shuffle and %u two-state switches; destination-tag routing, the most "
                "significant destination bit first.\n", lines, n, lines / 2);
    else
        fprintf(f, "Butterfly (Pease's indirect binary n-cube; Wu 1984, Chapter 5): %u lines, "
                "%d stages, stage s switching the lines that differ in bit s - 1 with %u "
                "two-state switches; destination-tag routing, bit 0 first.\n", lines, n,
                lines / 2);
    fprintf(f, "No switch broadcasts or combines; a message to its own processor stays "
            "there in the greedy partition.\n\n");
    for (int k = 0; k < count; k++) {
        fprintf(f, k ? "\n" : "");
        report_one(f, &o[k], n);
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* `hyperdo sim --network omega|butterfly`: every LCC of the spec, or the
 * one --lcc names. */
static int simulate_passes(const options *opt)
{
    hd_spec spec;
    const char *spec_name;
    int status = read_spec(opt, &spec, &spec_name);
    if (status != HD_EXIT_OK)
        return status;
    const hd_named_lcc *only = NULL;
    if (opt->lcc && !(only = find_lcc(opt, &spec, spec_name))) {
        hd_spec_free(&spec);
        return HD_EXIT_USAGE;
    }
    int count = only ? 1 : spec.m;
    pass_outcome *out = hd_xcalloc((size_t)count, sizeof *out);
    for (int k = 0; k < count && status == HD_EXIT_OK; k++)
        status = simulate_one(opt, spec.n, only ? only : &spec.lccs[k], &out[k]);
    if (status == HD_EXIT_OK)
        status = hd_print_text(opt->json ? render_passes_json(opt, spec.n, out, count)
                                         : render_passes_report(opt, spec_name, spec.n, out,
                                                                count));
    for (int k = 0; k < count; k++)
        pass_outcome_free(&out[k]);
    free(out);
    hd_spec_free(&spec);
    return status;
}

/* ------------------------------------------------------- the command */

static int simulate_lcc(void *dest)
{
    const options *opt = dest;
    if (opt->network != NET_ECUBE)
        return simulate_passes(opt);
    hd_spec spec;
    outcome out;
    memset(&out, 0, sizeof out);
    int status = read_spec(opt, &spec, &out.spec_name);
    if (status != HD_EXIT_OK)
        return status;
    out.lcc = find_lcc(opt, &spec, out.spec_name);
    if (!out.lcc) {
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

/* The model --model names: "linkbound" hands the whole command line to
 * sim_linkbound.c; "wormhole" (the default) is this file's. */
static const char *model_of(int argc, char **argv, int *at, int *width)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--model") == 0) {
            *at = i;
            *width = 2;
            return i + 1 < argc ? argv[i + 1] : "";
        }
        if (strncmp(argv[i], "--model=", 8) == 0) {
            *at = i;
            *width = 1;
            return argv[i] + 8;
        }
    }
    return NULL;
}

int hd_cmd_sim(int argc, char **argv)
{
    int at = 0, width = 0;
    const char *model = model_of(argc, argv, &at, &width);
    if (model && strcmp(model, "linkbound") == 0)
        return hd_sim_linkbound(argc, argv);
    if (model && (strcmp(model, "saf-bi") == 0 || strcmp(model, "saf-uni") == 0))
        return hd_sim_saf(argc, argv);
    if (model && strcmp(model, "wormhole") != 0)
        return usage_error("option '--model' needs wormhole (the default), linkbound, saf-bi "
                           "or saf-uni%s%s%s", *model ? " (not '" : "", model, *model ? "')" : "");
    if (model) {
        for (int i = at; i + width < argc; i++)
            argv[i] = argv[i + width];
        argc -= width;
    }
    options opt = { .mapping = MAP_IDENTITY, .objective = HD_OBJ_MAX, .rate = -1, .seed = 1,
                    .cycles = 20000, .flits = 20, .routing = HD_SIM_ECUBE };
    return hd_run_command(argc, argv, &opt, parse_options, simulate_lcc);
}
