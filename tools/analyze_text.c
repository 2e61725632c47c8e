/*
 * analyze_text.c — the report of `hyperdo analyze` for people: each LCC's
 * matrix, its contention as given and under its own best mapping, the one
 * mapping for the whole set and a summary of before and after.
 *
 * Section, definition, theorem and figure numbers are those of Hou et al.
 * 2001 (Hou, Wang, Ku, Hsu, "Optimal processor mapping for
 * linear-complement communication on hypercubes").
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "hyperdo/coll.h"

/* Prints row i of a matrix as the paper does, a_i0 first, with the i-th
 * entry of a vector beside it. */
static void print_matrix(FILE *out, const char *title, const hd_matrix *a,
                         const char *vtitle, const uint64_t *v)
{
    int n = a->n;
    /* Each row is "    i  | a_i0 .. a_i,n-1 |  | v_i |": the entries start
     * in column 12, the vector's in column 2n + 17. */
    if (v) {
        int pad = 2 * n + 5 - (int)strlen(title);
        fprintf(out, "%12s%s%*s%s\n", "", title, pad > 1 ? pad : 1, "",
                vtitle);
    } else {
        fprintf(out, "%12s%s\n", "", title);
    }
    for (int i = 0; i < n; i++) {
        fprintf(out, "    %4d  |", i);
        for (int j = 0; j < n; j++)
            fprintf(out, " %d", (int)((a->row[i] >> j) & 1));
        fprintf(out, " |");
        if (v)
            fprintf(out, "  | %d |", (int)((*v >> i) & 1));
        fputc('\n', out);
    }
}

static int digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Wide enough for every count and for the header "T_<n-1>". */
static int count_width(const hd_analyze_result *res)
{
    int w = 2 + digits((uint64_t)(res->p.n - 1));
    for (int r = 0; r < res->p.m; r++)
        for (int i = 0; res->p.comm[r].price && i < res->p.n; i++) {
            const hd_plan_comm *l = &res->p.comm[r];
            uint64_t v[3] = { l->price->before[i], l->price->alone[i], l->price->after[i] };
            for (int k = 0; k < 3; k++)
                if (digits(v[k]) > w)
                    w = digits(v[k]);
        }
    return w;
}

static void print_counts_header(FILE *out, const char *lead, int n, int w)
{
    fprintf(out, "%s", lead);
    for (int i = 0; i < n; i++)
        fprintf(out, " %*s%d", w - digits((uint64_t)i), "T_", i);
}

static void print_counts(FILE *out, const char *lead, const uint64_t *T,
                         int n, int w)
{
    fprintf(out, "%s", lead);
    for (int i = 0; i < n; i++)
        fprintf(out, " %*llu", w, (unsigned long long)T[i]);
}

static void print_order(FILE *out, const hd_order *o)
{
    fprintf(out, "R(L_%d) = (", o->n);
    for (int k = 0; k < o->n; k++)
        fprintf(out, "%s%d", k ? ", " : "", o->r[k]);
    fputc(')', out);
}

/* A C reference's conflict degree (docs/layouts.md). */
static void print_conflict(FILE *out, const hd_plan_comm *l)
{
    if (!l->in->array)
        return;
    if (l->in->conflict < 0)
        fprintf(out, "  Conflict degree: not known when translating (the elements "
                "depend on values of the run, or\n  the loop has more than 2^%d "
                "iterations to count, analysis/hd_limits.h).\n", HD_ENUMERATE_MAX_BITS);
    else
        fprintf(out, "  Conflict degree %lld: at most %lld of the loop's iterations "
                "read their element on one processor\n  (the memory conflicts of "
                "Lee and Aboelaze; docs/layouts.md).\n", l->in->conflict,
                l->in->conflict);
}

/* Direct messages against the collectives that move the same data
 * (Stout and Wagar 1990; docs/collectives.md), for a C reference. */
static void print_choice(FILE *out, const hd_comm_choice *c)
{
    if (c->pattern == HD_PATTERN_NONE || c->bytes <= 0)
        return;
    fprintf(out, "  Pattern %s, %lld bytes per processor", hd_comm_pattern_name(c->pattern),
            c->bytes);
    if (c->dims)
        fprintf(out, " in every coset of the subcube of physical dimensions %#llx",
                (unsigned long long)c->dims);
    fprintf(out, ": direct messages %.1f us", c->direct_us);
    for (int k = 0; k < c->nopts; k++) {
        if (c->opt[k].us < 0)
            fprintf(out, ", %s not priced", hd_coll_alg_name((hd_coll_alg)c->opt[k].alg));
        else
            fprintf(out, ", %s %.1f us", hd_coll_alg_name((hd_coll_alg)c->opt[k].alg),
                    c->opt[k].us);
    }
    const char *best = c->best < 0 ? "direct messages"
                                   : hd_coll_alg_name((hd_coll_alg)c->opt[c->best].alg);
    if (c->chosen == c->best)
        fprintf(out, ";\n  chosen: %s.\n", best);
    else
        fprintf(out, ";\n  cheapest: %s; translate writes direct messages (--collectives "
                     "off).\n", best);
}

/* Text for people, indented by two, lines broken at spaces before 96
 * columns. */
static void print_wrapped(FILE *out, const char *text)
{
    const char *p = text;
    while (*p) {
        size_t len = strlen(p), cut = len;
        if (len > 94) {
            cut = 94;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = len;
        }
        fprintf(out, "  %.*s\n", (int)cut, p);
        p += cut;
        while (*p == ' ')
            p++;
    }
}

/* A stage of a family read per stage (docs/annotations.md, "Stage
 * loops"), or a family not read so and why. */
static void print_stage(FILE *out, const hd_named_lcc *in)
{
    char buf[2048];
    if (in->nstage_vars > 0) {
        /* "At k = 3, j = 0" of inner loops, "Stage s = 3" of stage loops. */
        size_t k = (size_t)snprintf(buf, sizeof buf, "%s", in->stage_inner ? "At" : "Stage");
        for (int v = 0; v < in->nstage_vars && k < sizeof buf; v++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s %s = %lld", v ? "," : "",
                                  in->stage_vars[v], in->stage_values[v]);
        if (k < sizeof buf && in->stage_inner)
            snprintf(buf + k, sizeof buf - k, " of the inner loop%s on line %d of the body: "
                     "the index is this LCC for each value, one of a family priced and mapped "
                     "as a set (docs/annotations.md, \"Statements: if and loops in the body\").",
                     in->nstage_vars > 1 ? "s ending" : "", in->stage_line);
        else if (k < sizeof buf)
            snprintf(buf + k, sizeof buf - k, " of the loop%s on line %d: the index reads %s, "
                     "so this is one LCC of a family, with this stage's b (docs/annotations.md, "
                     "\"Stage loops\"); the node code computes b when the loop runs.",
                     in->nstage_vars > 1 ? "s ending" : "", in->stage_line,
                     in->nstage_vars > 1 ? "their variables" : "its variable");
        print_wrapped(out, buf);
    }
    if (in->stage_note) {
        snprintf(buf, sizeof buf, "%s%s%s", in->nstage_vars > 0 ? "" : "Not ",
                 in->nstage_vars > 0 ? in->stage_note
                 : strncmp(in->stage_note, "not ", 4) == 0 ? in->stage_note + 4 : in->stage_note,
                 in->nstage_vars > 0 ? "" : ".");
        print_wrapped(out, buf);
    }
}

static void print_general(FILE *out, const hd_plan_comm *l, int index, int m)
{
    fprintf(out, "\n== Communication %d of %d: %s (line %d, column %d) ==\n",
            index + 1, m, l->in->name, l->in->line, l->in->col);
    fprintf(out, "  General, not an LCC: %s.\n"
            "  The mapping optimizer (Section 5) weighs LCCs only.\n",
            l->in->comm.reason);
    print_stage(out, l->in);
    print_conflict(out, l);
    print_choice(out, &l->choice);
}

static void print_lcc(FILE *out, const hd_plan_comm *l, int index, int m,
                      int w)
{
    if (l->in->comm.kind != HD_COMM_LCC) {
        print_general(out, l, index, m);
        return;
    }
    const hd_lcc *c = l->in->comm.lcc;
    int n = c->A.n;
    bool gather = c->dir == HD_GATHER;

    if (l->in->array)
        fprintf(out, "\n== LCC %d of %d: %s (line %d, column %d, loop on line "
                "%d) ==\n", index + 1, m, l->in->name, l->in->line, l->in->col,
                l->in->loop_line);
    else
        fprintf(out, "\n== LCC %d of %d: %s (line %d) ==\n", index + 1, m,
                l->in->name, l->in->line);
    if (gather)
        fprintf(out, "  %s: every source x sends to y = A x + b "
                "(Definition 1).\n", l->price->class == HD_LCP ? "permutation"
                                                         : "gather");
    else
        fprintf(out, "  scatter: every destination y receives from "
                "x = A y + b (Definition 4).\n");
    fprintf(out, "  Class %s", hd_lcc_class_name(l->price->class));
    if (l->price->class == HD_LCP)
        fprintf(out, " (A nonsingular, Definition 2)");
    else if (l->price->class == HD_LCG)
        fprintf(out, " (rank(A) < n, Definition 3)");
    else
        fprintf(out, " (rank(A) < n, Definition 4)");
    if (l->price->bpc)
        fprintf(out, ", BPC (A permutes the address bits)");
    fprintf(out, "; rank(A) = %d.\n", l->price->rank);
    if (l->in->nstage_vars > 0) {
        print_stage(out, l->in);
    } else if (l->in->comm.b_runtime) {
        /* An LCC family (docs/layouts.md, "Parametric indices"). */
        fprintf(out, "  An LCC family: the index reads outer variables, so b is known "
                "only when the loop runs\n  (the node code computes it once per "
                "execution). Bits");
        for (int t = 0; t < n; t++)
            if ((l->in->comm.b_runtime >> t) & 1)
                fprintf(out, " b_%d", t);
        fprintf(out, " depend on them; b shows\n  them as 1, so the contention "
                "below is the worst case over every b.\n");
        print_stage(out, l->in);
    }
    print_conflict(out, l);
    print_choice(out, &l->choice);
    fputc('\n', out);
    print_matrix(out, "A", &c->A, "b", &c->b);

    fprintf(out, "\n  Contention as given: T_i paths share the busiest "
            "channel of dimension i\n");
    if (gather)
        fprintf(out, "  (Theorem 1: 2^(i - rank A[L_{i+1}, L_i]), or 0 where "
                "no message changes bit i).\n");
    else
        fprintf(out, "  (Theorem 1 mirrored for a scatter: "
                "2^((n-1-i) - rank A[H_i, H_{i+1}]), H_k = {k..n-1}).\n");
    print_counts_header(out, "          ", n, w);
    fputc('\n', out);
    print_counts(out, "          ", l->price->before, n, w);
    fprintf(out, "    degree T = %llu (Definition 6)\n",
            (unsigned long long)hd_contention_degree(l->price->before, n));

    fprintf(out, "\n  Best mapping for this LCC alone ");
    if (l->price->class == HD_LCP)
        fprintf(out, "(Fig. 3's LCP_Optimizer; Corollary 1: no contention):\n");
    else
        fprintf(out, "(Theorem 4; Corollary 2: the minimum "
                "2^((n-1) - rank A) = %llu):\n",
                (unsigned long long)(UINT64_C(1) << ((n - 1) - l->price->rank)));
    fprintf(out, "    ");
    print_order(out, &l->price->alone_order);
    fputc('\n', out);
    print_counts_header(out, "          ", n, w);
    fputc('\n', out);
    print_counts(out, "          ", l->price->alone, n, w);
    fprintf(out, "    degree T = %llu\n",
            (unsigned long long)hd_contention_degree(l->price->alone, n));
}

/* The rows of an out x in GF(2) map, a_t0 .. a_t,in-1 as A is printed. */
static void print_rows(FILE *out, const hd_affine *m, int rows, int in)
{
    for (int r = 0; r < rows; r++) {
        fprintf(out, "      %2d  |", r);
        for (int c = 0; c < in; c++)
            fprintf(out, " %d", (int)((m->row[r] >> c) & 1));
        fprintf(out, " |\n");
    }
}

/* Each distributed array's owner and local offset as GF(2) maps of its
 * element index e (docs/layouts.md). */
static void print_layouts(FILE *out, const hd_spec *spec)
{
    if (!spec || spec->narrays == 0)
        return;
    fprintf(out, "\n== Layouts of the distributed arrays (docs/layouts.md) ==\n"
            "  Bit t of an element e's owner (of its local offset) is the parity of e AND "
            "row t;\n  the columns are e's bits e_0, e_1, ...\n");
    for (int a = 0; a < spec->narrays; a++) {
        const hd_spec_array *x = &spec->arrays[a];
        const hd_layout *l = &x->layout;
        char source[128] = "";
        int pr = 1 << hd_grid_rows_log2(l->n), pc = (1 << l->n) / pr;
        if (x->dist == HD_DIST_SKEW)
            snprintf(source, sizeof source, " (Lee and Aboelaze, Section 3)");
        else if (x->dist == HD_DIST_SKEW_ROT)
            snprintf(source, sizeof source, " (Hyperdo's extension of Lee and Aboelaze)");
        else if (x->dist == HD_DIST_BLOCK_2D || x->dist == HD_DIST_CYCLIC_2D)
            snprintf(source, sizeof source, " (HPF's %s, High Performance Fortran Forum 1993, on a %d x %d processor grid)",
                     x->dist == HD_DIST_BLOCK_2D ? "(BLOCK, BLOCK)" : "(CYCLIC, CYCLIC)",
                     pr, pc);
        else if (x->dist == HD_DIST_XOR)
            snprintf(source, sizeof source, " (Batcher 1977's i XOR j, as Lee and Aboelaze cite it)");
        fprintf(out, "  %s: %s, 2^%d elements%s\n    owner:\n", x->name,
                hd_dist_name(x->dist), l->bits, source);
        print_rows(out, &l->owner, l->n, l->bits);
        if (l->bits > l->n) {
            fprintf(out, "    local offset:\n");
            print_rows(out, &l->offset, l->bits - l->n, l->bits);
        }
    }
}

static void print_degree(FILE *out, int width, long long v)
{
    if (v < 0)
        fprintf(out, " %*s", width, "?");
    else
        fprintf(out, " %*lld", width, v);
}

/* analyze --layouts: each distributed array under each layout it can
 * have, and the advisor's choice (analysis/advisor.c). */
static void print_advice(FILE *out, const hd_layout_advice *adv)
{
    if (!adv)
        return;
    fprintf(out, "\n== Layout advisor (docs/layouts.md) ==\n"
            "  For each distributed array, the program analysed again under each layout it can\n"
            "  have, the other arrays as declared: the largest and the summed conflict degree of\n"
            "  its references, the program's general (not LCC) communications, the objective\n"
            "  after the Section 5 mapping and the largest contention degree before and after\n"
            "  it ('?': not known when translating).\n");
    for (int a = 0; a < adv->narrays; a++) {
        const hd_array_advice *x = &adv->arrays[a];
        fprintf(out, "\n  %s:\n    %-18s %9s %9s %8s %9s %7s %7s\n", x->array, "layout",
                "conflict", "sum", "general", "objective", "T", "T after");
        for (int c = 0; c < x->ncand; c++) {
            const hd_layout_candidate *k = &x->cand[c];
            char name[48];
            hd_layout_candidate_name(k, name, sizeof name);
            fprintf(out, "    %c %-16s", c == x->best ? '*' : ' ', name);
            if (!k->accepted) {
                fprintf(out, " not accepted: %s", k->why_not);
            } else {
                print_degree(out, 9, k->conflict);
                print_degree(out, 9, k->conflict_sum);
                fprintf(out, " %8d %9llu %7llu %7llu", k->general, (unsigned long long)k->cost,
                        (unsigned long long)k->worst_before,
                        (unsigned long long)k->worst_after);
            }
            fprintf(out, "%s\n", c == x->declared ? "   (declared)" : "");
        }
        char best[48];
        hd_layout_candidate_name(&x->cand[x->best], best, sizeof best);
        fprintf(out, "    best: %s: %s.\n", best, x->reason);
    }
}

static const char *objective_meaning(hd_objective obj)
{
    switch (obj) {
    case HD_OBJ_MAX:
        return "the largest degree T(A_r, b_r) of any LCC\n"
               "  (for LCCs that run one at a time)";
    case HD_OBJ_MAXSUM:
        return "max over dimensions i of the sum over LCCs of T_i\n"
               "  (for LCCs that run simultaneously)";
    case HD_OBJ_SUM:
        return "the sum of T_i over all LCCs and dimensions";
    }
    return "?";
}

static int count_lccs(const hd_analyze_result *res)
{
    int lccs = 0;
    for (int r = 0; r < res->p.m; r++)
        lccs += res->p.comm[r].in->comm.kind == HD_COMM_LCC;
    return lccs;
}

static void print_set_mapping(FILE *out, const hd_analyze_result *res, int w)
{
    int n = res->p.n;
    hd_matrix q = hd_order_matrix(&res->p.order);

    int lccs = count_lccs(res);
    fprintf(out, "\n== One mapping for all %d LCC%s (Section 5) ==\n", lccs,
            lccs == 1 ? "" : "s");
    fprintf(out, "  Objective %s: minimise %s.\n",
            hd_objective_name(res->p.objective),
            objective_meaning(res->p.objective));
    fprintf(out, "  Theorem 5's dynamic program over subsets of address bits "
            "finds\n    ");
    print_order(out, &res->p.order);
    fprintf(out, "    cost = %llu\n", (unsigned long long)res->p.cost);
    if (res->p.objective != HD_OBJ_SUM)
        fprintf(out, "  (of the optimal orderings, one with the least total "
                "contention).\n");
    fprintf(out, "  New address bit k takes old bit r_k: processor x is "
            "renamed x' = Q x\n"
            "  (Definitions 7, 8), where row k of Q has its 1 in column "
            "r_k:\n\n");
    print_matrix(out, "Q", &q, NULL, NULL);
    fprintf(out, "\n  Theorem 2: under the new names a gather becomes "
            "y' = (Q A Q^-1) x' + Q b\n"
            "  (a scatter likewise x' = (Q A Q^-1) y' + Q b).\n");

    for (int r = 0; r < res->p.m; r++) {
        const hd_plan_comm *l = &res->p.comm[r];
        if (l->in->comm.kind != HD_COMM_LCC)
            continue;
        fprintf(out, "\n  %s after the mapping:\n", l->in->name);
        print_matrix(out, "Q A Q^-1", &l->price->mapped.A, "Q b", &l->price->mapped.b);
        print_counts_header(out, "          ", n, w);
        fputc('\n', out);
        print_counts(out, "          ", l->price->after, n, w);
        fprintf(out, "    degree T = %llu\n",
                (unsigned long long)hd_contention_degree(l->price->after, n));
    }
}

static void print_summary(FILE *out, const hd_analyze_result *res, int w)
{
    int n = res->p.n, namew = 3;
    for (int r = 0; r < res->p.m; r++) {
        int len = (int)strlen(res->p.comm[r].in->name);
        if (len > namew)
            namew = len;
    }
    fprintf(out, "\n== Contention before and after the mapping ==\n");
    fprintf(out, "  %-*s  %-6s ", namew, "LCC", "");
    print_counts_header(out, "", n, w);
    fprintf(out, "   %*s\n", w, "T");
    for (int r = 0; r < res->p.m; r++) {
        const hd_plan_comm *l = &res->p.comm[r];
        if (l->in->comm.kind != HD_COMM_LCC) {
            fprintf(out, "  %-*s  general (not an LCC)\n", namew, l->in->name);
            continue;
        }
        fprintf(out, "  %-*s  %-6s ", namew, l->in->name, "before");
        print_counts(out, "", l->price->before, n, w);
        fprintf(out, "   %*llu\n", w,
                (unsigned long long)hd_contention_degree(l->price->before, n));
        fprintf(out, "  %-*s  %-6s ", namew, "", "after");
        print_counts(out, "", l->price->after, n, w);
        fprintf(out, "   %*llu\n", w,
                (unsigned long long)hd_contention_degree(l->price->after, n));
    }
}

/* ------------------------------------------ omega-class networks */

static bool omega_class(hd_target_kind k)
{
    return k == HD_TARGET_OMEGA || k == HD_TARGET_BUTTERFLY;
}

static const hd_omega_price *given_on(const hd_plan_price *pr, hd_target_kind k)
{
    return k == HD_TARGET_OMEGA ? &pr->omega : &pr->butterfly;
}

static int name_width(const hd_analyze_result *res)
{
    int namew = 3;
    for (int r = 0; r < res->p.m; r++) {
        int len = (int)strlen(res->p.comm[r].in->name);
        if (len > namew)
            namew = len;
    }
    return namew;
}

static void print_agl(FILE *out, const char *title, const hd_agl *p)
{
    print_matrix(out, title, &p->A, "b", &p->b);
}

/* The plan's passes on its omega-class network (Wu 1984), the two passes
 * of each LCC that needs them, and the mapping. */
static void print_passes(FILE *out, const hd_analyze_result *res)
{
    const hd_plan *p = &res->p;
    hd_target_kind k = p->target.kind;
    int namew = name_width(res);
    fprintf(out, "\n== Passes through the %s ==\n", hd_target_name(&p->target));
    fprintf(out, "  A permutation x -> A x + b passes in one pass iff A = %s here (Wu 1984,\n"
            "  Corollary 2.1, whose bits are written most significant first); every one\n"
            "  needs at most two.  An LCC that is no permutation is Hyperdo's schedule\n"
            "  (docs/omega.md), at least the lower bound given.\n\n",
            k == HD_TARGET_OMEGA ? "U L" : "L U");
    fprintf(out, "  %-*s  %8s  %8s  %s\n", namew, "LCC", "given", "mapped", "lower bound");
    for (int r = 0; r < p->m; r++) {
        const hd_plan_comm *l = &p->comm[r];
        if (l->in->comm.kind != HD_COMM_LCC) {
            fprintf(out, "  %-*s  general (not an LCC)\n", namew, l->in->name);
            continue;
        }
        const hd_omega_price *g = given_on(l->price, k);
        fprintf(out, "  %-*s  %8llu  %8d", namew, l->in->name,
                (unsigned long long)g->passes, l->price->passes_after);
        if (!g->permutation)
            fprintf(out, "  %llu", (unsigned long long)g->lower);
        fputc('\n', out);
    }
    for (int r = 0; r < p->m; r++) {
        const hd_plan_comm *l = &p->comm[r];
        if (l->in->comm.kind != HD_COMM_LCC || l->first != r)
            continue;
        const hd_omega_price *g = given_on(l->price, k);
        if (!g->permutation || g->passes != 2)
            continue;
        fprintf(out, "\n  %s in two passes, first then second:\n", l->in->name);
        print_agl(out, "first", &g->first);
        print_agl(out, "second", &g->second);
    }
    fprintf(out, "\n== One mapping for every array (the static problem of Wu 1984, Section 1.3) ==\n"
            "  Processor x is renamed F x, so each communication P becomes F P F^-1;\n"
            "  F is %s:\n\n", p->n <= HD_OMEGA_EXACT_MAX_DIM
            ? "the best of all of GL(n, 2)" : "a descent over elementary row operations "
              "from the identity (a heuristic beyond n = 4)");
    print_matrix(out, "F", &p->mapping.Q, NULL, NULL);
    fprintf(out, "\n  passes in all: %llu as given, %llu mapped.\n",
            (unsigned long long)p->passes_before, (unsigned long long)p->passes_after);
}

/* ------------------------------------------- Wu 1984's programs */

static void print_F(FILE *out, const hd_agl *F)
{
    char buf[HD_MAP_TEXT_MAX];
    hd_affine f = hd_agl_affine(F);
    hd_map_text(&f, F->A.n, buf, sizeof buf);
    fputs(buf, out);
}

static const char *status_words(int rc)
{
    return rc == HD_ETOOBIG ? "beyond its limits (docs/omega.md, \"Programs\")"
                            : "not computed (internal error)";
}

/* The versions' uses with the mappings Algorithm II (VI) chose. */
static void print_versions(FILE *out, const hd_wu_prog *w, const hd_wu_prog_result *r)
{
    for (int x = 0; x < r->nversions; x++) {
        const hd_wu_prog_version *ver = &r->versions[x];
        fprintf(out, "\n  %s", w->vectors[ver->vector]);
        if (ver->defined_by < 0)
            fprintf(out, " as the program starts");
        else
            fprintf(out, " assigned on line %d", w->stmts[ver->defined_by].line);
        fprintf(out, ":\n");
        for (int h = 0; h < ver->nuses; h++) {
            const hd_wu_prog_use *u = &ver->uses[h];
            const hd_wu_stmt *st = &w->stmts[u->stmt];
            fprintf(out, "    line %d, %s into ", st->line,
                    u->node >= 0 ? st->leaf_text[u->node] : "a copy");
            if (u->into >= 0)
                fprintf(out, "%s", w->vectors[r->versions[u->into].vector]);
            else
                fprintf(out, "%s (never read again)",
                        w->vectors[u->node >= 0 ? st->lhs : ver->vector]);
            fprintf(out, ": F = ");
            print_F(out, &u->F);
            fprintf(out, ", %d pass%s", u->passes, u->passes == 1 ? "" : "es");
            if (u->remap)
                fprintf(out, " after a remap of %d", u->remap);
            fputc('\n', out);
        }
    }
}

/* A C program's doalls as Wu's statements: the map pragmas that give
 * Algorithm II's mappings, one per array and doall. */
static void print_wu_pragmas(FILE *out, const hd_wu_prog *w, const hd_wu_prog_result *r,
                             bool omega)
{
    int unpriced = 0;
    for (int s = 0; s < w->nstmts; s++)
        unpriced += w->stmts[s].unpriced;
    bool own = r->program_own != r->map_identity;
    for (int s = 0; s < w->nstmts && !own; s++)
        for (int v = 0; v < w->nvectors && !own; v++) {
            hd_agl id = hd_agl_identity(w->n);
            own = !hd_agl_equal(&w->own[(size_t)s * (size_t)w->nvectors + (size_t)v], &id);
        }
    fprintf(out, "\n  Hyperdo gives an array one mapping per doall (a map pragma), the arrays a\n"
            "  doall writes the same one.  Under that rule, with the remaps priced in the\n"
            "  order of the text (at most what the runtime moves):\n"
            "    Algorithm %s's mappings, each array taking its first one at a doall  %d\n"
            "    one mapping F for every array (the static problem)                  %d\n"
            "    the better of the two after Hyperdo's descent (a mapping at a time)  %d\n",
            omega ? "II" : "VI", r->projected, r->static_cost, r->realized);
    if (own)
        fprintf(out, "    the program's own map pragmas                                      %d\n",
                r->program_own);
    if (unpriced)
        fprintf(out, "  %d read%s of distributed arrays %s no permutation (an LCG, an LCS or general),\n"
                "  outside Wu's model: not counted here, but moved by the mappings too.\n",
                unpriced, unpriced == 1 ? "" : "s", unpriced == 1 ? "is" : "are");
    if (!r->improves) {
        fprintf(out, "  That is no better than no mappings: none suggested.\n");
        return;
    }
    hd_wu_map *m;
    int count = hd_wu_prog_maps(w, r, &m);
    fprintf(out, "  The map pragmas that give the last (hyperdo translate --maps wu writes\n"
            "  them itself):\n");
    for (int k = 0; k < count; k++) {
        if (k == 0 || m[k].stmt != m[k - 1].stmt)
            fprintf(out, "    before the doall of line %d:\n", w->stmts[m[k].stmt].line);
        /* Arrays of one doall under one mapping share a pragma. */
        bool first = true;
        for (int j = 0; j < k && first; j++)
            first = !(m[j].stmt == m[k].stmt && hd_agl_equal(&m[j].F, &m[k].F));
        if (!first)
            continue;
        fprintf(out, "      #pragma hyperdo map(%s", w->vectors[m[k].vector]);
        for (int j = k + 1; j < count && m[j].stmt == m[k].stmt; j++)
            if (hd_agl_equal(&m[j].F, &m[k].F))
                fprintf(out, ", %s", w->vectors[m[j].vector]);
        fprintf(out, " : ");
        print_F(out, &m[k].F);
        fprintf(out, ")\n");
    }
    free(m);
}

/* Alignments (Chapter 4), specs only. */
static void print_alignment(FILE *out, const hd_target *t, const hd_wu_prog *w,
                            const hd_wu_prog_result *r)
{
    bool omega = t->kind == HD_TARGET_OMEGA;
    fprintf(out, "\n== Operand alignment (Wu 1984, Chapter 4; Algorithm %s) ==\n"
            "  Every data mapping the identity; each operation of a statement computed at\n"
            "  A(i) for an alignment A.  The thesis leaves the root free (the result stays\n"
            "  where it was computed); owner computes fixes it where the left-hand side\n"
            "  lives (docs/omega-align.md).\n\n", omega ? "IV" : "VIII");
    if (r->align_status != HD_OK) {
        fprintf(out, "  Alignments %s.\n", status_words(r->align_status));
        return;
    }
    fprintf(out, "  passes in all: %d with every operation where its result goes, %d with roots\n"
            "  free, %d with roots fixed (owner computes).\n\n",
            r->align_identity, r->align_free, r->align_fixed);
    fprintf(out, "  %6s  %10s  %11s  %s\n", "line", "root free", "root fixed",
            "result of the free root at");
    for (int s = 0; s < w->nstmts; s++) {
        fprintf(out, "  %6d  %10d  %11d  ", w->stmts[s].line, r->cost_free[s], r->cost_fixed[s]);
        print_F(out, &r->root_free[s]);
        fputc('\n', out);
    }
}

static void print_wu_program(FILE *out, const hd_analyze_result *res)
{
    const hd_wu_prog *w = res->wu;
    const hd_wu_prog_result *r = res->wu_result;
    const hd_target *t = &res->p.target;
    bool omega = t->kind == HD_TARGET_OMEGA;
    fprintf(out, "\n== Data mappings for the program (Wu 1984, Chapter %s; Algorithm %s) ==\n",
            omega ? "3" : "5", omega ? "II" : "VI");
    fprintf(out, "  %s; each vector between two assignments is\n"
            "  a version, moved by its transfers in program order, each under a data\n"
            "  mapping F of its own, remaps between them paid (Notation 3.2).  Inside,\n"
            "  each version's sequence by %s, limit %d.\n",
            w->from_c ? "The doalls in the order of the text are Wu's statements (a loop or a\n"
                        "  branch around them is not followed)"
                      : "The spec's statements in order",
            r->map_exact ? (omega ? "Algorithm I (exact)" : "Algorithm V (exact)")
                         : "the runs heuristic (n > 3: Algorithm I would take seconds a call)",
            r->map_limit);
    if (r->map_status != HD_OK) {
        fprintf(out, "\n  Mappings %s; with every mapping the identity: %d passes.\n",
                status_words(r->map_status), r->map_identity);
    } else {
        fprintf(out, "\n  passes in all: %d with every mapping the identity, %d with Algorithm %s's.\n",
                r->map_identity, r->map_cost, omega ? "II" : "VI");
        print_versions(out, w, r);
    }
    if (w->from_c && r->map_status == HD_OK)
        print_wu_pragmas(out, w, r, omega);
    if (!w->from_c)
        print_alignment(out, t, w, r);
}

/* --network all: each LCC on the three networks, each with its mapping. */
static void print_networks(FILE *out, const hd_analyze_result *res)
{
    const hd_plan *e = &res->networks[HD_TARGET_ECUBE_HYPERCUBE];
    const hd_plan *o = &res->networks[HD_TARGET_OMEGA];
    const hd_plan *b = &res->networks[HD_TARGET_BUTTERFLY];
    int namew = name_width(res), n = res->p.n;
    fprintf(out, "\n== The networks compared (Hou et al. 2001; Wu 1984) ==\n"
            "  e-cube: contention degree T; omega and butterfly: passes D; each under\n"
            "  its own network's mapping.\n\n");
    fprintf(out, "  %-*s  %14s  %14s  %14s\n", namew, "LCC", "e-cube T", "omega D",
            "butterfly D");
    for (int r = 0; r < res->p.m; r++) {
        const hd_plan_comm *l = &e->comm[r];
        if (l->in->comm.kind != HD_COMM_LCC) {
            fprintf(out, "  %-*s  general (not an LCC)\n", namew, l->in->name);
            continue;
        }
        const hd_plan_price *po = o->comm[r].price, *pb = b->comm[r].price;
        char t[3][32];
        snprintf(t[0], sizeof t[0], "%llu -> %llu",
                 (unsigned long long)hd_contention_degree(l->price->before, n),
                 (unsigned long long)hd_contention_degree(l->price->after, n));
        snprintf(t[1], sizeof t[1], "%llu -> %d", (unsigned long long)po->omega.passes,
                 po->passes_after);
        snprintf(t[2], sizeof t[2], "%llu -> %d", (unsigned long long)pb->butterfly.passes,
                 pb->passes_after);
        fprintf(out, "  %-*s  %14s  %14s  %14s\n", namew, l->in->name, t[0], t[1], t[2]);
    }
    fprintf(out, "\n  e-cube: ");
    print_order(out, &e->order);
    fprintf(out, " (Hou et al. 2001, Section 5), cost %llu\n", (unsigned long long)e->cost);
    fprintf(out, "  omega: passes %llu -> %llu under\n", (unsigned long long)o->passes_before,
            (unsigned long long)o->passes_after);
    print_matrix(out, "F", &o->mapping.Q, NULL, NULL);
    fprintf(out, "  butterfly: passes %llu -> %llu under\n",
            (unsigned long long)b->passes_before, (unsigned long long)b->passes_after);
    print_matrix(out, "F", &b->mapping.Q, NULL, NULL);
}

char *hd_analyze_report(const hd_analyze_result *res)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    int w = count_width(res);
    fprintf(out, "Hyperdo analysis of %s\n", res->name);
    int lccs = count_lccs(res);
    if (res->p.n == 0) {
        fprintf(out, "No '#pragma hyperdo doall' loop, no cube(n) and no "
                "--dim: there is nothing to map.\n");
    } else {
        fprintf(out, "%d-cube (%llu processors), %s, "
                "%d LCC%s", res->p.n, 1ULL << res->p.n,
                res->networks ? "three networks compared"
                : res->p.target.kind == HD_TARGET_ECUBE_HYPERCUBE ? "e-cube wormhole routing"
                : hd_target_name(&res->p.target), lccs, lccs == 1 ? "" : "s");
        if (res->p.m > lccs)
            fprintf(out, " and %d general communication%s", res->p.m - lccs,
                    res->p.m - lccs == 1 ? "" : "s");
        fprintf(out, ".\nNode x = sum x_i 2^i; row i of a matrix is printed "
                "a_i0 .. a_i,n-1 as in Hou et al. 2001, whose\n"
                "sections, definitions, theorems and figures are cited below.\n");
        for (int r = 0; r < res->p.m; r++)
            print_lcc(out, &res->p.comm[r], r, res->p.m, w);
        if (omega_class(res->p.target.kind)) {
            print_passes(out, res);
            if (res->wu)
                print_wu_program(out, res);
        } else {
            print_set_mapping(out, res, w);
            print_summary(out, res, w);
        }
        if (res->networks)
            print_networks(out, res);
        print_layouts(out, res->spec);
        print_advice(out, res->advice);
    }
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
