/*
 * test_stages.c — stage loops (docs/annotations.md, "Stage loops";
 * frontend/stages.c, analysis/stages.c) end to end: a doall inside
 * sequential `for` loops whose variables its indices read is read once per
 * value of them.  The independent computation is the same program with
 * the stages written out: one copy of the doall per value, the variables
 * replaced by the value's literal in the text (as samples/fft.c was
 * written before its stage loop), whose every index is then an ordinary
 * LCC or local.  For every case:
 *   - the values the stage program is read for are the ones listed here
 *     by hand for its loop header (downward, shifting and nested loops);
 *   - stage by stage and reference by reference, the stage program's
 *     entry "REF at s = v" exists exactly where the written-out copy for v
 *     has an entry for that reference, with an equal LCC (a value at which
 *     the copy is local has no entry); a reference reads the values of
 *     the variables it names only, so under nested loops one that names
 *     only the inner variable has one entry per inner value;
 *   - the mapping Section 5's dynamic program chooses (Hou et al. 2001),
 *     and its cost, are those of the written-out program (each stage
 *     counted once), for the three objectives.
 * The variables may also enter through a value derived from them (`int
 * half = 1 << s;` before the doall), which the written-out copies have
 * inlined.  Loops that are no stage loops (the variable changed in the
 * body, a global, a static, an address taken, a bound that is no
 * constant, too many values) and derived values that are none (set from
 * a parameter, changed, a label in their scope, read from a loop that is
 * no stage loop) keep the family, with a note naming the reason, and no
 * entry is read per stage.
 */
#include "testutil.h"

#include "frontend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HYPERDO_INCLUDE_DIR
#error "HYPERDO_INCLUDE_DIR (the source tree's runtime/include) must be defined"
#endif

static char tmpdir[256];
static int nfiles;

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/hyperdo-stages-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char path[512];
    for (int k = 0; k < nfiles; k++) {
        snprintf(path, sizeof path, "%s/p%d.c", tmpdir, k);
        unlink(path);
    }
    rmdir(tmpdir);
    return 0;
}

typedef struct {
    hd_program prog;
    hd_analysis results;
    hd_spec spec;
    char *diag;
    int errors;
} reading;

static void read_program(reading *r, const char *text, int dim)
{
    memset(r, 0, sizeof *r);
    char path[512];
    snprintf(path, sizeof path, "%s/p%d.c", tmpdir, nfiles++);
    FILE *f = fopen(path, "w");
    TU_CHECK(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    hd_c_options opt;
    memset(&opt, 0, sizeof opt);
    opt.dim = dim;
    opt.include_dir = HYPERDO_INCLUDE_DIR;
    hd_diags d;
    hd_c_read(path, &opt, &r->prog, &d);
    r->errors = hd_analyse_program(&r->prog, &d, &r->results);
    r->diag = hd_diags_text(&d);
    hd_diags_free(&d);
    TU_CHECK(r->errors == 0 && !r->diag, "errors reading\n%s\ndiagnostics:\n%s", text,
             r->diag ? r->diag : "(none)");
    TU_CHECK_EQ(hd_program_spec(&r->prog, &r->results, &r->spec), HD_SPEC_OK, "spec");
}

static void release(reading *r)
{
    hd_spec_free(&r->spec);
    hd_program_free(&r->prog);
    hd_analysis_free(&r->results);
    free(r->diag);
}

/* ------------------------------------------------------ the programs */

#define MAX_LOOPS 2
#define MAX_VALUES 64

/* A stage loop: its header, with its variable, and its values (by hand). */
typedef struct {
    const char *var;
    const char *header;
    int nvalues;
    long long values[MAX_VALUES];
} loop_case;

/* A program: its arrays and layout, its loops (outermost first) around
 * one doall over the written array y whose body names each loop variable
 * v as @v (written "s" in the stage program and "(3)" in the copy for
 * s = 3). */
typedef struct {
    const char *name;
    int n;                     /* the cube */
    const char *decls;         /* arrays and the distribute pragma */
    int nloops;
    loop_case loop[MAX_LOOPS];
    const char *body;
    bool all_read;             /* every reference reads every loop's variable */
    /* A value derived from the loops' variables, declared before the doall
     * in the stage program (`int @dvar = @dexpr;`) and named @dvar in the
     * body: its initializer, in parentheses, in the written-out copies. */
    const char *dvar, *dexpr;
} program_case;

static const program_case cases[] = {
    { "butterflies, cyclic", 3,
      "double x[64], y[64];\n#pragma hyperdo distribute(x, y : cyclic)\n", 1,
      { { "s", "for (int s = 0; s < 6; s++)", 6, { 0, 1, 2, 3, 4, 5 } } },
      "y[i] = x[i ^ (1 << @s)] + x[i];", true, NULL, NULL },
    { "butterflies, block_cyclic(4) (the FFT's stages)", 3,
      "double x[128], y[128];\n#pragma hyperdo distribute(x, y : block_cyclic(4))\n", 1,
      { { "s", "for (int s = 0; s < 7; s++)", 7, { 0, 1, 2, 3, 4, 5, 6 } } },
      "y[i] = (i & (1 << @s)) ? x[i ^ (1 << @s)] - x[i] : x[i] + x[i ^ (1 << @s)];", true, NULL, NULL },
    { "butterflies, block, downward by 2", 4,
      "double x[64], y[64];\n#pragma hyperdo distribute(x, y : block)\n", 1,
      { { "s", "for (int s = 5; s >= 0; s -= 2)", 3, { 5, 3, 1 } } },
      "y[i] = x[i ^ (1 << @s)];", true, NULL, NULL },
    { "shifting step, len <<= 1", 3,
      "double x[32], y[32];\n#pragma hyperdo distribute(x, y : cyclic)\n", 1,
      { { "len", "for (unsigned len = 1; len < 32; len <<= 1)", 5, { 1, 2, 4, 8, 16 } } },
      "y[i] = x[i ^ @len];", true, NULL, NULL },
    { "a gather of many by one (LCG), s = s + 3", 3,
      "double x[64], y[64];\n#pragma hyperdo distribute(x, y : cyclic)\n", 1,
      { { "s", "for (int s = 1; s <= 16; s = s + 3)", 6, { 1, 4, 7, 10, 13, 16 } } },
      "y[i] = x[(i & 0x38) ^ @s];", true, NULL, NULL },
    { "rows of a matrix, block", 2,
      "double m[8][16], y[16];\n#pragma hyperdo distribute(m, y : block)\n", 1,
      { { "r", "for (long r = 7; r > -1; r--)", 8, { 7, 6, 5, 4, 3, 2, 1, 0 } } },
      "y[i] = m[@r][i ^ 5] + m[(@r + 1) & 7][15 - i];", true, NULL, NULL },
    { "nested stage loops", 4,
      "double x[64], y[64];\n#pragma hyperdo distribute(x, y : block_cyclic(2))\n", 2,
      { { "a", "for (int a = 0; a < 2; a++)", 2, { 0, 1 } },
        { "b", "for (int b = 0; b < 4; b += 1)", 4, { 0, 1, 2, 3 } } },
      "y[i] = x[i ^ (@a << 5) ^ (1 << @b)] + x[i ^ (3 << @b)];", false, NULL, NULL },
    { "a value derived from the stage variable, int half = 1 << s", 3,
      "double x[64], y[64];\n#pragma hyperdo distribute(x, y : block_cyclic(2))\n", 1,
      { { "s", "for (int s = 0; s < 6; s++)", 6, { 0, 1, 2, 3, 4, 5 } } },
      "y[i] = (i & @half) ? x[i ^ @half] : x[i];", true, "half", "1 << @s" },
    { "the halves of a template number (samples/layouts.c)", 4,
      "double A[16][16], y[16];\n#pragma hyperdo distribute(A : skew)\n"
      "#pragma hyperdo distribute(y : cyclic)\n", 1,
      { { "T", "for (int T = 0; T < 16; T++)", 16,
          { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 } } },
      "y[i] = A[(@IJ >> 2) * 4 + (i >> 2)][(@IJ & 3) * 4 + (i & 3)];", true, "IJ", "@T + 0" },
    { "a variable declared before its loop", 3,
      "double x[64], y[64];\n#pragma hyperdo distribute(x, y : cyclic)\n", 1,
      { { "t", "int t;\n    for (t = 2; t != 6; ++t)", 4, { 2, 3, 4, 5 } } },
      "y[i] = x[i ^ (1 << @t)];", true, NULL, NULL },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* Appends text with each @v replaced: by v itself (values NULL) or by the
 * value of v in values (the loops' order), and @dvar by dvar or by its
 * initializer. */
static void put_text(char *out, size_t size, const program_case *c, const char *text,
                     const long long *values)
{
    size_t n = strlen(out);
    for (const char *p = text; *p && n + 32 < size;) {
        if (*p != '@') {
            out[n++] = *p++;
            continue;
        }
        p++;
        if (c->dvar && strncmp(p, c->dvar, strlen(c->dvar)) == 0) {
            p += strlen(c->dvar);
            if (!values) {
                n += (size_t)snprintf(out + n, size - n, "%s", c->dvar);
                continue;
            }
            out[n++] = '(';
            out[n] = '\0';
            put_text(out, size, c, c->dexpr, values);
            n = strlen(out);
            out[n++] = ')';
            continue;
        }
        for (int k = 0; k < c->nloops; k++) {
            size_t len = strlen(c->loop[k].var);
            if (strncmp(p, c->loop[k].var, len) == 0 && !(p[len] >= 'a' && p[len] <= 'z')) {
                if (values)
                    n += (size_t)snprintf(out + n, size - n, "(%lld)", values[k]);
                else
                    n += (size_t)snprintf(out + n, size - n, "%s", c->loop[k].var);
                p += len;
                break;
            }
        }
    }
    out[n] = '\0';
}

static void put_doall(char *out, size_t size, const program_case *c, const long long *values)
{
    size_t n = strlen(out);
    if (c->dvar && !values) {
        snprintf(out + n, size - n, "        int %s = ", c->dvar);
        put_text(out, size, c, c->dexpr, NULL);
        n = strlen(out);
        snprintf(out + n, size - n, ";\n");
        n = strlen(out);
    }
    snprintf(out + n, size - n, "#pragma hyperdo doall\n"
             "    for (int i = 0; i < (int)(sizeof y / sizeof y[0]); i++)\n        ");
    put_text(out, size, c, c->body, values);
    n = strlen(out);
    snprintf(out + n, size - n, "\n");
}

static void program_head(char *out, size_t size, const program_case *c)
{
    snprintf(out, size, "#pragma hyperdo cube(%d)\n%s\nint main(void)\n{\n", c->n, c->decls);
}

static void stage_program(char *out, size_t size, const program_case *c)
{
    program_head(out, size, c);
    for (int k = 0; k < c->nloops; k++) {
        size_t n = strlen(out);
        snprintf(out + n, size - n, "    %s\n", c->loop[k].header);
    }
    size_t n = strlen(out);
    snprintf(out + n, size - n, "    {\n");
    put_doall(out, size, c, NULL);
    n = strlen(out);
    snprintf(out + n, size - n, "    }\n    return (int)y[1];\n}\n");
}

/* The value combinations in the loops' order, the innermost fastest. */
static int combinations(const program_case *c, long long (*combo)[MAX_LOOPS])
{
    int m = 0, at[MAX_LOOPS] = { 0 };
    for (;;) {
        for (int k = 0; k < c->nloops; k++)
            combo[m][k] = c->loop[k].values[at[k]];
        m++;
        int k = c->nloops - 1;
        while (k >= 0 && ++at[k] == c->loop[k].nvalues)
            at[k--] = 0;
        if (k < 0)
            return m;
    }
}

static void written_out(char *out, size_t size, const program_case *c,
                        long long (*combo)[MAX_LOOPS], int m)
{
    program_head(out, size, c);
    for (int v = 0; v < m; v++)
        put_doall(out, size, c, combo[v]);
    size_t n = strlen(out);
    snprintf(out + n, size - n, "    return (int)y[1];\n}\n");
}

/* The doall and the ordinal of entry e's reference. */
static void where(const hd_program *p, const hd_named_lcc *e, int *loop, int *ordinal)
{
    int id = e->ref;
    for (int d = 0; d < p->nloops; d++) {
        if (id < p->loops[d].nrefs) {
            *loop = d;
            *ordinal = id;
            return;
        }
        id -= p->loops[d].nrefs;
    }
    *loop = *ordinal = -1;
}

static void test_against_written_out(void **state)
{
    const program_case *c = *state;
    static char text[1 << 16], flat[1 << 18];
    static long long combo[MAX_VALUES * MAX_VALUES][MAX_LOOPS];
    int m = combinations(c, combo);
    stage_program(text, sizeof text, c);
    written_out(flat, sizeof flat, c, combo, m);
    reading st, wo;
    read_program(&st, text, 0);
    read_program(&wo, flat, 0);
    TU_CHECK_EQ(wo.prog.nloops, m, "written-out doalls");
    const hd_loop *l = &st.prog.loops[0];
    TU_CHECK_EQ(l->nstages, c->nloops, "stage loops found");
    for (int k = 0; k < c->nloops; k++) {
        const hd_stage_loop *s = &l->stages[k];
        TU_CHECK(s->refused == NULL, "%s: loop '%s' refused: %s", c->name, c->loop[k].header,
                 s->refused);
        TU_CHECK(strcmp(s->var, c->loop[k].var) == 0, "%s: variable %s, not %s", c->name,
                 s->var, c->loop[k].var);
        TU_CHECK_EQ(s->nvalues, c->loop[k].nvalues, "values");
        for (int v = 0; v < s->nvalues; v++)
            TU_CHECK(s->values[v] == c->loop[k].values[v], "%s: value %d of '%s' is %lld, "
                     "not %lld", c->name, v, s->var, s->values[v], c->loop[k].values[v]);
    }
    /* Every entry of the written-out program has its stage entry, equal:
     * the one of its reference at the values, in this copy, of the
     * variables that reference reads (a reference is read per value of
     * those only: x[i ^ (3 << b)] has one LCC per b, whatever a is). */
    int *first = calloc((size_t)st.spec.m, sizeof *first);   /* 1 + written-out entry */
    hd_spec once = wo.spec;   /* the written-out entries, each stage once */
    once.lccs = calloc((size_t)wo.spec.m + 1, sizeof *once.lccs);
    once.m = 0;
    for (int r = 0; r < wo.spec.m; r++) {
        const hd_named_lcc *e = &wo.spec.lccs[r];
        int d, j;
        where(&wo.prog, e, &d, &j);
        TU_CHECK(d >= 0 && e->nstage_vars == 0, "written-out entry %s", e->name);
        int found = -1;
        for (int q = 0; q < st.spec.m && found < 0; q++) {
            const hd_named_lcc *x = &st.spec.lccs[q];
            int d2, j2;
            where(&st.prog, x, &d2, &j2);
            bool same = j2 == j && x->nstage_vars >= 1;
            for (int v = 0; v < x->nstage_vars && same; v++) {
                int k = 0;
                while (k < c->nloops && strcmp(x->stage_vars[v], c->loop[k].var) != 0)
                    k++;
                same = k < c->nloops && x->stage_values[v] == combo[d][k];
            }
            if (same)
                found = q;
        }
        TU_CHECK(found >= 0, "%s: no stage entry for '%s' (copy %d, reference %d)",
                 c->name, e->name, d, j);
        const hd_named_lcc *x = &st.spec.lccs[found];
        TU_CHECK(x->comm.kind == e->comm.kind, "%s: '%s' is %d, written out %d", c->name,
                 x->name, x->comm.kind, e->comm.kind);
        if (e->comm.kind == HD_COMM_LCC)
            TU_CHECK(hd_lcc_equal(x->comm.lcc, e->comm.lcc), "%s: '%s': another LCC "
                     "than the written-out '%s' (b %#llx against %#llx)", c->name, x->name,
                     e->name, (unsigned long long)x->comm.lcc->b,
                     (unsigned long long)e->comm.lcc->b);
        if (!first[found]) {
            first[found] = r + 1;
            once.lccs[once.m++] = *e;
        }
    }
    /* And no stage entry is left over (a stage at which the copy is local
     * has none). */
    for (int q = 0; q < st.spec.m; q++)
        TU_CHECK(first[q], "%s: the stage entry '%s' has no written-out entry", c->name,
                 st.spec.lccs[q].name);
    TU_CHECK(st.spec.m > 0, "%s: no communication at all", c->name);
    /* One mapping for the set: the written-out program's (each stage
     * once: the whole written-out program where every reference reads
     * every loop's variable). */
    TU_CHECK(!c->all_read || once.m == wo.spec.m, "%s: a stage counted twice", c->name);
    hd_target t = hd_target_ecube(c->n);
    for (int obj = HD_OBJ_MAX; obj <= HD_OBJ_SUM; obj++) {
        hd_plan ps, pw;
        TU_CHECK_EQ(hd_plan_build(&st.spec, &t, (hd_objective)obj, HD_MAPPING_OPTIMAL, &ps),
                    HD_OK, "stage plan");
        TU_CHECK_EQ(hd_plan_build(&once, &t, (hd_objective)obj, HD_MAPPING_OPTIMAL, &pw),
                    HD_OK, "written-out plan");
        TU_CHECK(ps.cost == pw.cost, "%s: objective %s costs %llu, written out %llu", c->name,
                 hd_objective_name((hd_objective)obj), (unsigned long long)ps.cost,
                 (unsigned long long)pw.cost);
        for (int k = 0; k < c->n; k++)
            TU_CHECK(ps.order.r[k] == pw.order.r[k], "%s: objective %s: another mapping "
                     "than the written-out program's (bit %d: %d against %d)", c->name,
                     hd_objective_name((hd_objective)obj), k, ps.order.r[k], pw.order.r[k]);
        hd_plan_free(&ps);
        hd_plan_free(&pw);
    }
    free(once.lccs);
    free(first);
    release(&st);
    release(&wo);
}

/* ------------------------------------------------------ no stage loops */

typedef struct {
    const char *what;
    const char *text;
    const char *note;          /* in the family entry's stage_note */
} refusal;

#define REFUSAL_HEAD "#pragma hyperdo cube(3)\ndouble x[64], y[64];\n" \
    "#pragma hyperdo distribute(x, y : cyclic)\nint g;\nstatic void use(int *p) { (void)p; }\n"
#define DOALL(v) "#pragma hyperdo doall\n        for (int i = 0; i < 64; i++)\n" \
    "            y[i] = x[i ^ (1 << " v ")];\n"

static const refusal refusals[] = {
    { "the variable changed in the body",
      REFUSAL_HEAD "int main(void)\n{\n    for (int s = 0; s < 6; s++) {\n" DOALL("s")
      "        if (s == 2)\n            s++;\n    }\n    return 0;\n}\n",
      "it is changed on line 13" },
    { "a global variable",
      REFUSAL_HEAD "int main(void)\n{\n    for (g = 0; g < 6; g++) {\n" DOALL("g")
      "    }\n    return 0;\n}\n",
      "it is a variable at file scope" },
    { "a static local variable",
      REFUSAL_HEAD "int main(void)\n{\n    static int s;\n    for (s = 0; s < 6; s++) {\n"
      DOALL("s") "    }\n    return 0;\n}\n",
      "it is static" },
    { "its address taken before the loop",
      REFUSAL_HEAD "int main(void)\n{\n    int t;\n    use(&t);\n    for (t = 0; t < 6; t++) {\n"
      DOALL("t") "    }\n    return 0;\n}\n",
      "its address is taken on line 9" },
    { "a bound that is no constant",
      REFUSAL_HEAD "int main(int argc, char **argv)\n{\n    (void)argv;\n"
      "    for (int s = 0; s < argc; s++) {\n" DOALL("s") "    }\n    return 0;\n}\n",
      "its bound is not a constant expression" },
    { "more values than HD_STAGE_MAX_VALUES",
      REFUSAL_HEAD "int main(void)\n{\n    for (int s = 0; s < 1000; s++) {\n"
      DOALL("(s & 3)") "    }\n    return 0;\n}\n",
      "more than 256 values" },
    { "nested loops of more values together",
      REFUSAL_HEAD "int main(void)\n{\n    for (int a = 0; a < 17; a++)\n"
      "    for (int s = 0; s < 16; s++) {\n" DOALL("((s + a) & 3)") "    }\n    return 0;\n}\n",
      "more than 256 values together" },
    { "a parameter",
      REFUSAL_HEAD "static void f(int mask)\n{\n    for (int s = 0; s < 3; s++) {\n"
      "#pragma hyperdo doall\n        for (int i = 0; i < 64; i++)\n"
      "            y[i] = x[i ^ (mask << s)];\n    }\n}\n"
      "int main(void)\n{\n    f(3);\n    return 0;\n}\n",
      "'mask' is neither the variable of a for loop around the doall nor a value set" },
    { "a value set from a parameter",
      REFUSAL_HEAD "int main(int argc, char **argv)\n{\n    (void)argv;\n"
      "    for (int s = 0; s < 3; s++) {\n        int mask = argc << s;\n"
      "#pragma hyperdo doall\n        for (int i = 0; i < 64; i++)\n"
      "            y[i] = x[i ^ mask];\n    }\n    return 0;\n}\n",
      "'mask' (line 10) is no value known at each stage: its initial value reads 'argc'" },
    { "a derived value changed",
      REFUSAL_HEAD "int main(void)\n{\n    for (int s = 0; s < 3; s++) {\n"
      "        int half = 1 << s;\n        half += 0;\n"
      "#pragma hyperdo doall\n        for (int i = 0; i < 64; i++)\n"
      "            y[i] = x[i ^ half];\n    }\n    return 0;\n}\n",
      "'half' (line 9) is no value known at each stage: it is changed on line 10" },
    { "a label in a derived value's scope",
      REFUSAL_HEAD "int main(void)\n{\n    for (int s = 0; s < 3; s++) {\n"
      "        int half = 1 << s;\n        again:\n"
      "#pragma hyperdo doall\n        for (int i = 0; i < 64; i++)\n"
      "            y[i] = x[i ^ half];\n        if (y[0] > 1e300) goto again;\n"
      "    }\n    return 0;\n}\n",
      "'half' (line 9) is no value known at each stage: a label in its scope on line 10" },
    { "a value derived from the variable of a loop that is no stage loop",
      REFUSAL_HEAD "int main(void)\n{\n    for (int s = 0; s < 3; s++) {\n"
      "        int half = 1 << s;\n"
      "#pragma hyperdo doall\n        for (int i = 0; i < 64; i++)\n"
      "            y[i] = x[i ^ half];\n        if (s == 1)\n            s++;\n"
      "    }\n    return 0;\n}\n",
      "'half' (line 9) is no value known at each stage: its initial value reads 's', whose "
      "loop on line 8 is no stage loop: it is changed on line 14" },
};
#define NREFUSALS ((int)(sizeof refusals / sizeof refusals[0]))

static void test_refused(void **state)
{
    const refusal *f = *state;
    reading r;
    read_program(&r, f->text, 0);
    TU_CHECK(r.spec.m >= 1, "%s: no entry", f->what);
    for (int k = 0; k < r.spec.m; k++) {
        const hd_named_lcc *e = &r.spec.lccs[k];
        TU_CHECK(e->nstage_vars == 0, "%s: '%s' was read per stage", f->what, e->name);
        TU_CHECK(e->comm.kind == HD_COMM_LCC && e->comm.b_runtime != 0, "%s: '%s' is no "
                 "family", f->what, e->name);
        TU_CHECK(e->stage_note && strstr(e->stage_note, f->note), "%s: note '%s' does not "
                 "say '%s'", f->what, e->stage_note ? e->stage_note : "(none)", f->note);
    }
    release(&r);
}

int main(void)
{
    struct CMUnitTest tests[NCASES + NREFUSALS];
    char names[NCASES + NREFUSALS][160];
    int t = 0;
    for (int k = 0; k < NCASES; k++, t++) {
        snprintf(names[t], sizeof names[t], "stages: %s", cases[k].name);
        tests[t] = (struct CMUnitTest){ names[t], test_against_written_out, NULL, NULL,
                                        (void *)&cases[k] };
    }
    for (int k = 0; k < NREFUSALS; k++, t++) {
        snprintf(names[t], sizeof names[t], "no stage loop: %s", refusals[k].what);
        tests[t] = (struct CMUnitTest){ names[t], test_refused, NULL, NULL,
                                        (void *)&refusals[k] };
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}
