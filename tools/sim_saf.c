/*
 * sim_saf.c — `hyperdo sim --model saf-bi|saf-uni`: one LCC of a spec
 * run on Chung and Ranka 1990's synchronous store-and-forward n-cube
 * (Section 2.3; runtime/sim/saf.c): every processor sends W words to its
 * LCC partner, every step forwards what each holds one e-cube hop and
 * costs T_setup + (the most words on one directed channel) T_c, over
 * channels that carry both directions in a step (saf-bi) or one
 * (saf-uni).  The same engine prices `hyperdo cost` and times the sim
 * back end's phases (HYPERDO_SIM_MODEL=saf-bi|saf-uni).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis.h"
#include "commands.h"
#include "sim.h"
#include "sim_saf.h"

typedef struct {
    const char *model, *operand, *lcc, *mapping;
    long words;
    double setup_us, word_us;
    bool json;
} saf_options;

static const char usage_line[] =
    "usage: hyperdo sim --model saf-bi|saf-uni SPEC.lcc --lcc NAME "
    "[--mapping identity|optimal] [--words W] [--t-setup US] [--t-c US] [--json]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Runs one LCC of SPEC on the synchronous store-and-forward n-cube of\n"
        "Chung and Ranka 1990 (Section 2.3): every processor sends W words to\n"
        "its partner; in each step every processor forwards what it holds one\n"
        "e-cube hop (lowest bit first), and the step costs T_setup plus the most\n"
        "words on one directed channel times T_c.  saf-bi: a link carries both\n"
        "directions in a step; saf-uni: one, the end whose bit of the link's\n"
        "dimension equals the step's parity first.  Prints the steps, each\n"
        "step's busiest channel and C (Eq. 3).\n"
        "\n"
        "Options:\n"
        "  --lcc NAME          the LCC of SPEC (required)\n"
        "  --mapping M         identity (default) or optimal: the LCC's own\n"
        "                      optimum (Hou et al. 2001, Theorem 4)\n"
        "  --words W           words per message, 1 .. 10^9 (default 1)\n"
        "  --t-setup US, --t-c US\n"
        "                      the machine (defaults 1150 and 10 us per word)\n"
        "  --json              one JSON object instead of the report\n"
        "See docs/meshes.md.\n", usage_line);
}

static const hd_command_line command_line = { "sim", usage_line, print_help, "SPEC",
                                              "missing SPEC: the LCC file to read", true };

static bool parse_words(const char *value, void *field)
{
    return hd_option_long(value, 1, 1000000000, field);
}

static const hd_option table[] = {
    { "--model", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(saf_options, model), "a model", NULL },
    { "--lcc", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(saf_options, lcc), "an LCC name", NULL },
    { "--mapping", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(saf_options, mapping),
      "identity or optimal", NULL },
    { "--words", HD_OPT_VALUE, NULL, offsetof(saf_options, words), "an integer from 1 to 10^9",
      parse_words },
    { "--t-setup", HD_OPT_VALUE, NULL, offsetof(saf_options, setup_us),
      "a time in microseconds, >= 0", hd_option_us },
    { "--t-c", HD_OPT_VALUE, NULL, offsetof(saf_options, word_us),
      "a time in microseconds, >= 0", hd_option_us },
    { "--json", HD_OPT_NO_VALUE, NULL, offsetof(saf_options, json), NULL, NULL },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

static int parse(int argc, char **argv, void *dest)
{
    saf_options *o = dest;
    const hd_option_table tables[2] = { { table, o }, { NULL, NULL } };
    int rc = hd_parse_command_line(&command_line, tables, (hd_operands){ &o->operand, NULL, NULL, NULL, NULL },
                                   argc, argv);
    if (rc >= 0)
        return rc;
    if (!o->operand)
        return hd_option_error(&command_line, "missing SPEC: the LCC file to read");
    if (!o->lcc)
        return hd_option_error(&command_line, "missing '--lcc NAME': which LCC to run");
    if (strcmp(o->mapping, "identity") && strcmp(o->mapping, "optimal"))
        return hd_option_error(&command_line, "option '--mapping' needs identity or optimal "
                               "(not '%s')", o->mapping);
    return -1;
}

static int run(void *dest)
{
    const saf_options *o = dest;
    hd_spec spec;
    int status = hd_read_spec_file(o->operand, hd_spec_read, &spec);
    if (status != HD_EXIT_OK)
        return status;
    const hd_named_lcc *e = NULL;
    for (int k = 0; k < spec.m && !e; k++)
        if (strcmp(spec.lccs[k].name, o->lcc) == 0)
            e = &spec.lccs[k];
    if (!e) {
        hd_spec_free(&spec);
        return hd_option_error(&command_line, "no LCC named '%s' in %s", o->lcc, o->operand);
    }
    int n = spec.n;
    hd_order order = hd_order_identity(n);
    hd_target target = hd_target_ecube(n);
    if (strcmp(o->mapping, "optimal") == 0 && hd_optimize_one(&target, e->comm.lcc, &order) != HD_OK) {
        fprintf(stderr, "hyperdo: error: no optimizer for the LCC (internal error)\n");
        hd_spec_free(&spec);
        return HD_EXIT_FAILURE;
    }
    hd_lcc mapped = hd_lcc_reorder(e->comm.lcc, &order);
    uint32_t P = UINT32_C(1) << n;
    hd_saf_parcel *p = malloc((size_t)P * sizeof *p);
    size_t m = 0;
    for (uint32_t t = 0; p && t < P; t++) {
        uint64_t a, b;
        hd_lcc_message(&mapped, t, &a, &b);
        if (a != b)
            p[m++] = (hd_saf_parcel){ (uint32_t)a, (uint32_t)b, o->words };
    }
    int steps = 0;
    long long *most = NULL;
    hd_saf_model model = strcmp(o->model, "saf-uni") == 0 ? HD_SAF_UNI : HD_SAF_BI;
    if (!p || hd_saf_run(p, m, model, &steps, &most) != HD_SIM_OK) {
        fprintf(stderr, "hyperdo: error: out of memory\n");
        free(p);
        hd_spec_free(&spec);
        return HD_EXIT_FAILURE;
    }
    double c = 0;
    for (int s = 0; s < steps; s++)
        c += o->setup_us + (double)most[s] * o->word_us;
    if (o->json) {
        json_t *j = json_object(), *a = json_array();
        json_object_set_new(j, "model", json_string(o->model));
        json_object_set_new(j, "lcc", json_string(e->name));
        json_object_set_new(j, "dim", json_integer(n));
        json_object_set_new(j, "mapping", json_string(o->mapping));
        json_object_set_new(j, "words", json_integer(o->words));
        json_object_set_new(j, "messages", json_integer((json_int_t)m));
        json_object_set_new(j, "steps", json_integer(steps));
        for (int s = 0; s < steps; s++)
            json_array_append_new(a, json_integer(most[s]));
        json_object_set_new(j, "step_max", a);
        json_object_set_new(j, "c_us", json_real(c));
        char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
        if (text)
            puts(text);
        free(text);
        json_decref(j);
    } else {
        printf("LCC %s on the store-and-forward %d-cube (%s channels, Chung and Ranka 1990), "
               "%s mapping: %zu messages of %ld words\n%d steps, busiest channels", e->name, n,
               model == HD_SAF_BI ? "bidirectional" : "unidirectional", o->mapping, m, o->words,
               steps);
        for (int s = 0; s < steps; s++)
            printf("%s%lld", s ? ", " : " ", most[s]);
        printf("; C = %.2f us (T_setup %g us, T_c %g us per word)\n", c, o->setup_us,
               o->word_us);
    }
    free(most);
    free(p);
    hd_spec_free(&spec);
    return HD_EXIT_OK;
}

int hd_sim_saf(int argc, char **argv)
{
    saf_options o = { NULL, NULL, NULL, "identity", 1, 1150, 10, false };
    return hd_run_command(argc, argv, &o, parse, run);
}
