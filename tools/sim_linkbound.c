/*
 * sim_linkbound.c — `hyperdo sim --model linkbound`: one collective of
 * Stout and Wagar 1990 on the link-bound hypercube, simulated exactly
 * (runtime/coll/linkbound.h): its time as an exact rational, the load of
 * every stage, any link used twice in one stage, what was not delivered
 * or delivered twice, and the ratio to Section 9's lower bound.  The
 * schedule is the one the run-time library executes (runtime/coll/
 * schedule.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "linkbound.h"
#include "sim_linkbound.h"

typedef struct {
    bool json;
    bool lower_bound_only;
    const char *model;
    const char *operand;
    int alg;               /* -1: not given */
    long dim;              /* -1: not given */
    long root, g, q, n;    /* -1: not given */
    bool has_m, has_tau, has_beta;
    hd_q m, tau, beta;
} lb_options;

static const char usage_line[] =
    "usage: hyperdo sim --model linkbound --coll ALG --dim D --m M --tau T --beta B "
    "[--root R] [--g G] [--q Q] [--n N] [--lower-bound] [--json]";

static void print_help(void)
{
    printf("%s\n"
        "\n"
        "Simulates one collective algorithm of Stout and Wagar 1990 on the\n"
        "link-bound D-cube (their Section 1.2): every node sends and receives on\n"
        "all its links at once, both directions of a link at once; a node\n"
        "forwards nothing before it has received all of it (store-and-forward);\n"
        "a packet of s items costs T s + B on its link.  The time is exact (a\n"
        "rational), and so is every closed form of the paper it reproduces\n"
        "(docs/collectives.md lists them, with the paper's misprints).\n"
        "\n"
        "ALG (the paper's sections):\n"
        "  bcast1 bcast2 bcast3a bcast3b bcast4           BROADCAST 1-4 (Sec. 2)\n"
        "  ocsend1 ocsend2 ocsend3 ocsend4                O.C. SEND 1-4 (Sec. 3)\n"
        "  arbsend1 arbsend2 arbsend3 xocsend1 xocsend2   ARBITRARY, X.O.C. SEND (Sec. 4)\n"
        "  distribute1 distribute2 collect                DISTRIBUTE, COLLECT (Sec. 5)\n"
        "  allgather inversion alltoall permuted          COMPLETE BROADCAST, INVERSION,\n"
        "                                                 COMPLETE EXCHANGE, PERMUTED SEND (Sec. 6)\n"
        "  transpose-rows transpose-blocks transpose-lc   MATRIX TRANSPOSITION (Sec. 7)\n"
        "  histogram                                      HISTOGRAM (Sec. 8)\n"
        "\n"
        "Options:\n"
        "  --m M          items per message (per node for permuted and the\n"
        "                 transpositions, bins in all for histogram); M, T and B\n"
        "                 are non-negative: 120, 0.57 or 3/7\n"
        "  --tau T        time per item on a link\n"
        "  --beta B       start-up time of a packet\n"
        "  --root R       the broadcasting, sending or distributing node (default 0)\n"
        "  --g G          groups of bcast4, ocsend4, arbsend1-3, xocsend2 (default:\n"
        "                 the paper's optimum for M, T, B, rounded; at most 256)\n"
        "  --q Q          packets per physical link of transpose-lc, a multiple of\n"
        "                 lcm(1..D/2) and at least D (default: the paper's optimum\n"
        "                 sqrt(T M / 2B), rounded to such a multiple)\n"
        "  --n N          the distance of an arbitrary send (default D), the\n"
        "                 subcube of an x.o.c. send (default D - 1)\n"
        "  --lower-bound  print Section 9's lower bound alone\n"
        "  --json         print one JSON object instead of the report\n"
        "\n"
        "permuted sends node x to x + 1 mod 2^D (the paper's rotation).  The exit\n"
        "status is 2 for a command line the algorithm cannot take (n, D, q), 1 if\n"
        "the times do not fit in 64-bit rationals or the schedule leaves a message\n"
        "undelivered (an internal error).  See docs/collectives.md.\n",
        usage_line);
}

static const hd_command_line command_line = {
    "sim", usage_line, print_help, "SPEC", NULL, true
};

#define usage_error(...) hd_option_error(&command_line, __VA_ARGS__)

/* A non-negative rational: 120, 0.57, 3/7. */
static bool parse_q(const char *s, hd_q *out)
{
    int ov = 0;
    if (!s || !*s)
        return false;
    const char *slash = strchr(s, '/');
    if (slash) {
        char *end;
        errno = 0;
        long long a = strtoll(s, &end, 10);
        if (end != slash || a < 0 || errno || !isdigit((unsigned char)s[0]))
            return false;
        long long b = strtoll(slash + 1, &end, 10);
        if (*end || b <= 0 || errno || !isdigit((unsigned char)slash[1]))
            return false;
        *out = hd_q_frac(a, b);
        return true;
    }
    __int128 num = 0, den = 1;
    bool digits = false, dot = false;
    for (const char *p = s; *p; p++) {
        if (*p == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!isdigit((unsigned char)*p))
            return false;
        digits = true;
        num = num * 10 + (*p - '0');
        if (dot)
            den *= 10;
        if (num > INT64_MAX || den > INT64_MAX)
            return false;
    }
    if (!digits)
        return false;
    *out = hd_q_make128(num, den, &ov);
    return !ov;
}

static int take_q(const char *name, const char *value, hd_q *q, bool *has)
{
    if (!value || !parse_q(value, q))
        return usage_error("option '%s' needs a non-negative number in digits (120, 0.57, "
                           "3/7; no sign or exponent) whose numerator and denominator fit in "
                           "64 bits, not '%s'", name, value ? value : "");
    *has = true;
    return -1;
}

static int take_m(const hd_command_line *cl, void *dest, const char *value)
{
    lb_options *o = dest;
    (void)cl;
    return take_q("--m", value, &o->m, &o->has_m);
}

static int take_tau(const hd_command_line *cl, void *dest, const char *value)
{
    lb_options *o = dest;
    (void)cl;
    return take_q("--tau", value, &o->tau, &o->has_tau);
}

static int take_beta(const hd_command_line *cl, void *dest, const char *value)
{
    lb_options *o = dest;
    (void)cl;
    return take_q("--beta", value, &o->beta, &o->has_beta);
}

static int take_long(const char *name, const char *value, long lo, long hi, long *v)
{
    if (!value || !hd_option_long(value, lo, hi, v))
        return usage_error("option '%s' needs an integer from %ld to %ld", name, lo, hi);
    return -1;
}

static int take_dim(const hd_command_line *cl, void *dest, const char *value)
{
    (void)cl;
    return take_long("--dim", value, 0, 12, &((lb_options *)dest)->dim);
}

static int take_root(const hd_command_line *cl, void *dest, const char *value)
{
    (void)cl;
    return take_long("--root", value, 0, 4095, &((lb_options *)dest)->root);
}

static int take_g(const hd_command_line *cl, void *dest, const char *value)
{
    (void)cl;
    return take_long("--g", value, 1, HD_COLL_MAX_G, &((lb_options *)dest)->g);
}

static int take_qq(const hd_command_line *cl, void *dest, const char *value)
{
    (void)cl;
    return take_long("--q", value, 1, HD_COLL_MAX_G, &((lb_options *)dest)->q);
}

static int take_n(const hd_command_line *cl, void *dest, const char *value)
{
    (void)cl;
    return take_long("--n", value, 1, 12, &((lb_options *)dest)->n);
}

static int take_coll(const hd_command_line *cl, void *dest, const char *value)
{
    lb_options *o = dest;
    (void)cl;
    if (!value || (o->alg = hd_coll_alg_from_name(value)) < 0)
        return usage_error("option '--coll' needs one of bcast1 bcast2 bcast3a bcast3b bcast4 "
                           "ocsend1 ocsend2 ocsend3 ocsend4 arbsend1 arbsend2 arbsend3 "
                           "xocsend1 xocsend2 distribute1 distribute2 collect allgather "
                           "inversion alltoall permuted transpose-rows transpose-blocks "
                           "transpose-lc histogram%s%s%s",
                           value ? " (not '" : "", value ? value : "", value ? "')" : "");
    return -1;
}

static const hd_option lb_table[] = {
    { "--json", HD_OPT_NO_VALUE, NULL, offsetof(lb_options, json), NULL, NULL },
    { "--lower-bound", HD_OPT_NO_VALUE, NULL, offsetof(lb_options, lower_bound_only), NULL, NULL },
    { "--model", HD_OPT_NONEMPTY_VALUE, NULL, offsetof(lb_options, model), "a model", NULL },
    { "--coll", HD_OPT_VALUE, take_coll, 0, NULL, NULL },
    { "--dim", HD_OPT_VALUE, take_dim, 0, NULL, NULL },
    { "--m", HD_OPT_VALUE, take_m, 0, NULL, NULL },
    { "--tau", HD_OPT_VALUE, take_tau, 0, NULL, NULL },
    { "--beta", HD_OPT_VALUE, take_beta, 0, NULL, NULL },
    { "--root", HD_OPT_VALUE, take_root, 0, NULL, NULL },
    { "--g", HD_OPT_VALUE, take_g, 0, NULL, NULL },
    { "--q", HD_OPT_VALUE, take_qq, 0, NULL, NULL },
    { "--n", HD_OPT_VALUE, take_n, 0, NULL, NULL },
    { NULL, HD_OPT_NO_VALUE, NULL, 0, NULL, NULL },
};

static int uses_root(int alg)
{
    return alg <= HD_COLL_COLLECT || alg == HD_COLL_HISTOGRAM;
}

static int parse(int argc, char **argv, void *dest)
{
    lb_options *o = dest;
    const hd_option_table tables[2] = { { lb_table, o }, { NULL, NULL } };
    int rc = hd_parse_command_line(&command_line, tables,
                                   (hd_operands){ &o->operand, NULL, NULL, NULL, NULL }, argc, argv);
    if (rc >= 0)
        return rc;
    if (o->operand)
        return usage_error("'--model linkbound' simulates a collective and reads no SPEC "
                           "(not '%s')", o->operand);
    if (o->alg < 0)
        return usage_error("missing '--coll ALG': which collective to simulate");
    if (o->dim < 0)
        return usage_error("missing '--dim D': the cube's dimension");
    if (!o->has_m || !o->has_tau || !o->has_beta)
        return usage_error("missing '%s': the link-bound model needs --m, --tau and --beta",
                           !o->has_m ? "--m M" : !o->has_tau ? "--tau T" : "--beta B");
    if (o->root >= (1L << o->dim))
        return usage_error("--root %ld is not a node of the %ld-cube", o->root, o->dim);
    if (o->root > 0 && !uses_root(o->alg))
        return usage_error("%s has no root: every node takes part alike",
                           hd_coll_alg_name(o->alg));
    int piped = o->alg == HD_COLL_BCAST4 || o->alg == HD_COLL_OCSEND4 ||
                (o->alg >= HD_COLL_ARBSEND1 && o->alg <= HD_COLL_ARBSEND3) ||
                o->alg == HD_COLL_XOCSEND2;
    if (o->g > 0 && !piped)
        return usage_error("--g applies to bcast4, ocsend4, arbsend1-3 and xocsend2, not %s",
                           hd_coll_alg_name(o->alg));
    if (o->q > 0 && o->alg != HD_COLL_TRANSPOSE_LC)
        return usage_error("--q applies to transpose-lc only");
    if (o->n > 0 && !(o->alg >= HD_COLL_ARBSEND1 && o->alg <= HD_COLL_XOCSEND2))
        return usage_error("--n applies to arbsend1-3 and xocsend1-2 only");
    return -1;
}

/* ------------------------------------------------------ output */

/* "n" or "n/d", malloc'd. */
static char *qstr(hd_q q)
{
    char *s = malloc(48);
    if (s) {
        if (q.d == 1)
            snprintf(s, 48, "%lld", (long long)q.n);
        else
            snprintf(s, 48, "%lld/%lld", (long long)q.n, (long long)q.d);
    }
    return s;
}

static json_t *jq(hd_q q)
{
    char *s = qstr(q);
    json_t *j = json_string(s ? s : "?");
    free(s);
    return j;
}

typedef struct {
    hd_coll_sched *s;
    hd_lb_result r;
    hd_q bound, formula, ratio;
    int has_ratio;
} lb_outcome;

static char *render_json(const lb_options *o, const lb_outcome *out)
{
    json_t *j = json_object();
    const hd_coll_shape *sh = &out->s->shape;
    json_object_set_new(j, "model", json_string("linkbound"));
    json_object_set_new(j, "coll", json_string(hd_coll_alg_name(sh->alg)));
    json_object_set_new(j, "dim", json_integer(sh->d));
    json_object_set_new(j, "root", json_integer(sh->root));
    json_object_set_new(j, "g", json_integer(sh->g));
    if (sh->alg == HD_COLL_TRANSPOSE_LC)
        json_object_set_new(j, "q", json_integer(sh->q));
    if (sh->alg >= HD_COLL_ARBSEND1 && sh->alg <= HD_COLL_XOCSEND2)
        json_object_set_new(j, "n", json_integer(sh->n));
    json_object_set_new(j, "m", jq(o->m));
    json_object_set_new(j, "tau", jq(o->tau));
    json_object_set_new(j, "beta", jq(o->beta));
    json_object_set_new(j, "lower_bound", jq(out->bound));
    if (!o->lower_bound_only) {
        json_object_set_new(j, "time", jq(out->r.time));
        json_object_set_new(j, "time_value", json_real(hd_q_double(out->r.time)));
        json_object_set_new(j, "formula", jq(out->formula));
        json_object_set_new(j, "ratio", out->has_ratio ? jq(out->ratio) : json_null());
        json_object_set_new(j, "transfers", json_integer((json_int_t)out->r.transfers));
        json_t *st = json_array();
        for (int k = 0; k < out->r.nstages; k++) {
            const hd_lb_stage *x = &out->r.stages[k];
            json_t *e = json_object();
            json_object_set_new(e, "stage", json_integer(k));
            json_object_set_new(e, "transfers", json_integer((json_int_t)x->xfers));
            json_object_set_new(e, "links", json_integer((json_int_t)x->links));
            json_object_set_new(e, "max_load", jq(x->max_load));
            json_object_set_new(e, "conflicts", json_integer((json_int_t)x->conflicts));
            json_object_set_new(e, "end", jq(x->end));
            json_array_append_new(st, e);
        }
        json_object_set_new(j, "stages", st);
        json_object_set_new(j, "link_conflicts", json_integer((json_int_t)out->r.conflicts));
        json_object_set_new(j, "undelivered", json_integer((json_int_t)out->r.undelivered));
        json_object_set_new(j, "duplicated", json_integer((json_int_t)out->r.duplicated));
        json_object_set_new(j, "wrong_sums", json_integer((json_int_t)out->r.wrong_sums));
    }
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(j);
    char *withnl = text ? malloc(strlen(text) + 2) : NULL;
    if (withnl)
        sprintf(withnl, "%s\n", text);
    free(text);
    return withnl;
}

static char *render_report(const lb_options *o, const lb_outcome *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    const hd_coll_shape *sh = &out->s->shape;
    char *m = qstr(o->m), *tau = qstr(o->tau), *beta = qstr(o->beta), *lb = qstr(out->bound);
    fprintf(f, "link-bound %d-cube (Stout and Wagar 1990): %s", sh->d, hd_coll_alg_name(sh->alg));
    if (uses_root(sh->alg))
        fprintf(f, ", root %d", sh->root);
    if (sh->alg >= HD_COLL_ARBSEND1 && sh->alg <= HD_COLL_XOCSEND2)
        fprintf(f, ", n = %d", sh->n);
    if (sh->g > 1 || o->g > 0)
        fprintf(f, ", g = %d", sh->g);
    if (sh->alg == HD_COLL_TRANSPOSE_LC)
        fprintf(f, ", q = %d", sh->q);
    fprintf(f, "\nm = %s, tau = %s, beta = %s\n", m, tau, beta);
    char *t = qstr(out->r.time), *fm = qstr(out->formula), *ra = out->has_ratio ? qstr(out->ratio) : NULL;
    fprintf(f, "time          %s (%.6g)\n", t, hd_q_double(out->r.time));
    fprintf(f, "closed form   %s%s\n", fm,
            hd_q_eq(out->formula, out->r.time) ? " (equal)" : " (differs)");
    fprintf(f, "lower bound   %s (Section 9)", lb);
    if (ra)
        fprintf(f, ", time / bound = %s (%.4f)", ra, hd_q_double(out->ratio));
    fprintf(f, "\n\nstage  transfers  links  max load  conflicts  ends at\n");
    for (int k = 0; k < out->r.nstages; k++) {
        const hd_lb_stage *x = &out->r.stages[k];
        char *ml = qstr(x->max_load), *en = qstr(x->end);
        fprintf(f, "%5d  %9zu  %5zu  %8s  %9zu  %s\n", k, x->xfers, x->links, ml, x->conflicts, en);
        free(ml);
        free(en);
    }
    fprintf(f, "\nlinks used twice in one stage: %zu\n", out->r.conflicts);
    fprintf(f, "undelivered: %zu, delivered twice: %zu", out->r.undelivered, out->r.duplicated);
    if (out->s->kind == HD_MSG_REDUCE)
        fprintf(f, ", wrong sums: %zu", out->r.wrong_sums);
    fprintf(f, "\n");
    free(m), free(tau), free(beta), free(lb), free(t), free(fm), free(ra);
    if (fclose(f))
        return NULL;
    return buf;
}

static int run(void *dest)
{
    const lb_options *o = dest;
    hd_coll_shape sh = { (hd_coll_alg)o->alg, (int)o->dim, o->root > 0 ? (int)o->root : 0,
                         o->g > 0 ? (int)o->g : 0, o->q > 0 ? (int)o->q : 0,
                         o->n > 0 ? (int)o->n : 0, NULL, HD_RED_SCATTER };
    char err[256];
    lb_outcome out;
    memset(&out, 0, sizeof out);
    out.s = hd_coll_schedule(&sh, hd_q_double(o->m), hd_q_double(o->tau), hd_q_double(o->beta),
                             err, sizeof err);
    if (!out.s) {
        /* A shape the algorithm has not (n, d, q): the command line's. */
        return usage_error("%s", err);
    }
    int ov = 0, status = HD_EXIT_OK;
    out.bound = hd_lb_lower_bound(out.s, o->tau, o->beta, o->m, &ov);
    if (!o->lower_bound_only) {
        if (hd_lb_simulate(out.s, o->tau, o->beta, o->m, &out.r)) {
            bool ovf = strstr(out.r.error, "64-bit") != NULL;
            fprintf(stderr, "hyperdo: error: %s%s\n", out.r.error,
                    ovf ? "; use smaller numbers (or simpler fractions) for --m, --tau, --beta"
                        : " (internal error)");
            status = HD_EXIT_FAILURE;
        } else {
            out.formula = hd_lb_formula(&out.s->shape, o->tau, o->beta, o->m, &ov);
            if (out.bound.n > 0) {
                out.ratio = hd_q_div(out.r.time, out.bound, &ov);
                out.has_ratio = 1;
            }
        }
    }
    if (status == HD_EXIT_OK && ov) {
        fprintf(stderr, "hyperdo: error: the exact times do not fit in 64-bit rationals; "
                        "use smaller numbers (or simpler fractions) for --m, --tau, --beta\n");
        status = HD_EXIT_FAILURE;
    }
    if (status == HD_EXIT_OK) {
        if (o->lower_bound_only && !o->json) {
            char *lb = qstr(out.bound);
            if (lb)
                strcat(lb, "\n");
            status = hd_print_text(lb);
        } else {
            status = hd_print_text(o->json ? render_json(o, &out) : render_report(o, &out));
        }
        if (status == HD_EXIT_OK && !o->lower_bound_only &&
            (out.r.undelivered || out.r.wrong_sums)) {
            fprintf(stderr, "hyperdo: error: the %s schedule left %zu message(s) undelivered "
                            "and %zu wrong sum(s) (internal error)\n",
                    hd_coll_alg_name(sh.alg), out.r.undelivered, out.r.wrong_sums);
            status = HD_EXIT_FAILURE;
        }
    }
    hd_lb_result_free(&out.r);
    hd_coll_schedule_free(out.s);
    return status;
}

int hd_sim_linkbound(int argc, char **argv)
{
    lb_options o = { .alg = -1, .dim = -1, .root = -1, .g = -1, .q = -1, .n = -1 };
    return hd_run_command(argc, argv, &o, parse, run);
}
