/*
 * test_wu_program.c — Wu 1984's programs whole (analysis/wu_program.c):
 * a program's statements read as versions of vectors with their uses
 * (Algorithm II's step 1), Algorithm II and VI over them, a C program's
 * mappings under Hyperdo's rule of one mapping per array and doall (the
 * projection, the static F, the descent) and the map pragmas that give
 * them, and the Chapter 4 totals.
 *
 * Programs are random and small (n = 2, |AGL(2, 2)| = 24), so that the
 * optimum of each objective is found by trying every assignment of
 * mappings.  Every cost is recomputed with testutil's own algebra and D
 * (tu_agl_*), never taken from the library.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OMEGA(n) (&(const hd_target){ HD_TARGET_OMEGA, (n), HD_COST_MODEL_NCUBE2 })
#define BUTTERFLY(n) (&(const hd_target){ HD_TARGET_BUTTERFLY, (n), HD_COST_MODEL_NCUBE2 })

/* ------------------------------------------------------------ AGL(2, 2) */

static hd_agl all[64];
static int nall;

static void enumerate(int n)
{
    nall = 0;
    int entries = n * n;
    for (uint64_t bits = 0; bits < UINT64_C(1) << entries; bits++) {
        hd_matrix a = hd_matrix_zero(n);
        for (int i = 0; i < n; i++)
            a.row[i] = (bits >> (i * n)) & hd_mask(n);
        if (tu_gauss_rank_sub(&a, hd_mask(n), hd_mask(n)) != n)
            continue;
        for (uint64_t b = 0; b < UINT64_C(1) << n; b++)
            all[nall++] = (hd_agl){ a, b };
    }
}

static bool same(const hd_agl *p, const hd_agl *q)
{
    return hd_matrix_equal(&p->A, &q->A) && p->b == q->b;
}

static hd_agl ident(int n)
{
    return (hd_agl){ hd_matrix_identity(n), 0 };
}

/* The next of all nall^count choices of elements (an odometer); false
 * after the last. */
static bool next_pick(int *pick, int count)
{
    int j = 0;
    while (j < count && ++pick[j] == nall)
        pick[j++] = 0;
    return j < count;
}

/* D(P F^-1) */
static int over(const hd_agl *P, const hd_agl *F, bool bf)
{
    hd_agl x = tu_agl_div(P, F);
    return tu_agl_passes(&x, bf);
}

/* ------------------------------------------------------ random programs */

typedef struct {
    hd_wu_prog w;
    int nleaves;
} prog;

/* nvec vectors, nstmt statements of 1 .. 3 leaves joined by operations;
 * as from C: other written vectors, whole writes, two functions. */
static void random_prog(prog *p, int n, int nvec, int nstmt, bool from_c)
{
    hd_wu_prog *w = &p->w;
    memset(p, 0, sizeof *p);
    w->n = n;
    w->from_c = from_c;
    w->nvectors = nvec;
    w->vectors = calloc((size_t)nvec, sizeof *w->vectors);
    w->array = calloc((size_t)nvec, sizeof *w->array);
    for (int v = 0; v < nvec; v++) {
        char name[16];
        snprintf(name, sizeof name, "v%d", v);
        w->vectors[v] = strdup(name);
        w->array[v] = v;
    }
    w->nstmts = nstmt;
    w->stmts = calloc((size_t)nstmt, sizeof *w->stmts);
    if (from_c) {
        w->own = calloc((size_t)nstmt * (size_t)nvec, sizeof *w->own);
        for (int c = 0; c < nstmt * nvec; c++)
            w->own[c] = ident(n);
    }
    int split = from_c && tu_chance(1, 2) ? 1 + (int)tu_below((uint64_t)nstmt) : nstmt;
    for (int s = 0; s < nstmt; s++) {
        hd_wu_stmt *st = &w->stmts[s];
        st->lhs = (int)tu_below((uint64_t)nvec);
        st->line = 10 + s;
        st->loop = s;
        st->func_begin = s < split ? 0 : 100;
        int leaves = 1 + (int)tu_below(from_c ? 2 : 3);
        st->leaf_vector = calloc((size_t)(2 * leaves), sizeof *st->leaf_vector);
        st->leaf_text = calloc((size_t)(2 * leaves), sizeof *st->leaf_text);
        st->also = calloc((size_t)nvec, sizeof *st->also);
        st->whole = calloc((size_t)nvec, sizeof *st->whole);
        hd_align_tree_init(&st->tree, n);
        int last = -1;
        for (int k = 0; k < leaves; k++) {
            hd_agl P = all[tu_below((uint64_t)nall)];
            if (tu_chance(1, 4))
                P = ident(n);
            int leaf = hd_align_leaf(&st->tree, &P);
            st->leaf_vector[leaf] = (int)tu_below((uint64_t)nvec);
            st->leaf_text[leaf] = strdup("x");
            p->nleaves++;
            if (last >= 0) {
                last = hd_align_op(&st->tree, last, leaf);
                st->leaf_vector[last] = -1;
            } else {
                last = leaf;
            }
        }
        if (from_c) {
            for (int v = 0; v < nvec; v++)
                if (v != st->lhs && tu_chance(1, 5))
                    st->also[st->nalso++] = v;
            if (tu_chance(1, 2))
                st->whole[st->nwhole++] = st->lhs;
            for (int k = 0; k < st->nalso; k++)
                if (tu_chance(1, 2))
                    st->whole[st->nwhole++] = st->also[k];
        }
    }
}

/* ------------------------------------ the test's own versions (step 1) */

typedef struct {
    int vector, defined_by, nuses;
    struct { int stmt, node, into; hd_agl P; } use[32];
} tversion;

static int tversions(const hd_wu_prog *w, tversion *v)
{
    int count = 0, current[16];
    for (int x = 0; x < w->nvectors; x++) {
        v[count] = (tversion){ x, -1, 0, { { 0 } } };
        current[x] = count++;
    }
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        int result = count;
        for (int i = 0; i < st->tree.count; i++) {
            if (st->leaf_vector[i] < 0)
                continue;
            tversion *t = &v[current[st->leaf_vector[i]]];
            assert_true(t->nuses < 32);
            t->use[t->nuses].stmt = s;
            t->use[t->nuses].node = i;
            t->use[t->nuses].into = result;
            t->use[t->nuses++].P = st->tree.node[i].P;
        }
        v[count] = (tversion){ st->lhs, s, 0, { { 0 } } };
        current[st->lhs] = count++;
        for (int k = 0; k < st->nalso; k++) {
            tversion *t = &v[result];
            t->use[t->nuses].stmt = s;
            t->use[t->nuses].node = -1;
            t->use[t->nuses].into = count;
            t->use[t->nuses++].P = ident(w->n);
            v[count] = (tversion){ st->also[k], s, 0, { { 0 } } };
            current[st->also[k]] = count++;
        }
    }
    return count;
}

/* Chapter 3's objective (Notation 3.2 over every version) for mappings
 * F[u] of the uses, numbered version by version; first[x] is the index of
 * version x's first use, -1 without uses. */
static int chapter3(const tversion *v, int nv, const int *first, const hd_agl *F, int n, bool bf)
{
    int total = 0, u = 0;
    for (int x = 0; x < nv; x++)
        for (int h = 0; h < v[x].nuses; h++, u++) {
            int into = v[x].use[h].into;
            hd_agl e = v[x].use[h].P;
            if (first[into] >= 0)
                e = tu_agl_compose(&F[first[into]], &e);
            total += over(&e, &F[u], bf);
            if (h)
                total += over(&F[u], &F[u - 1], bf);
        }
    (void)n;
    return total;
}

/* ------------------------------------------------- Chapter 3 and 4 (specs) */

static void check_spec(const hd_target *t, prog *p, int *optimal, int *cases)
{
    bool bf = t->kind == HD_TARGET_BUTTERFLY;
    const hd_wu_prog *w = &p->w;
    int n = w->n;
    hd_wu_prog_result r;
    assert_int_equal(hd_wu_prog_analyse(t, w, &r), HD_OK);
    assert_int_equal(r.map_status, HD_OK);
    tversion v[64];
    int nv = tversions(w, v), first[64], uses = 0, identity = 0;
    /* (a) the versions with uses, in the order they are made */
    int x = 0;
    for (int k = 0; k < nv; k++) {
        first[k] = v[k].nuses ? uses : -1;
        uses += v[k].nuses;
        if (!v[k].nuses)
            continue;
        TU_CHECK(x < r.nversions, "version %d missing", k);
        const hd_wu_prog_version *rv = &r.versions[x++];
        TU_CHECK_EQ(rv->vector, v[k].vector, "vector");
        TU_CHECK_EQ(rv->defined_by + 1, v[k].defined_by + 1, "assigned by");
        TU_CHECK_EQ(rv->nuses, v[k].nuses, "uses");
        for (int h = 0; h < v[k].nuses; h++) {
            TU_CHECK_EQ(rv->uses[h].stmt, v[k].use[h].stmt, "use's statement");
            TU_CHECK_EQ(rv->uses[h].node + 1, v[k].use[h].node + 1, "use's node");
            TU_CHECK(same(&rv->uses[h].P, &v[k].use[h].P), "use's transfer");
            identity += tu_agl_passes(&v[k].use[h].P, bf);
        }
    }
    TU_CHECK_EQ(x, r.nversions, "versions");
    TU_CHECK_EQ(r.map_identity, identity, "passes with identity mappings");
    /* (b) the reported mappings recomputed */
    hd_agl F[64];
    int u = 0;
    for (int k = 0; k < r.nversions; k++)
        for (int h = 0; h < r.versions[k].nuses; h++)
            F[u++] = r.versions[k].uses[h].F;
    /* r numbers only the versions with uses */
    int own_of[64], r_of[64], k2 = 0;
    for (int k = 0; k < nv; k++) {
        r_of[k] = v[k].nuses ? k2 : -1;
        if (v[k].nuses)
            own_of[k2++] = k;
    }
    int total = 0, per_use = 0;
    for (int k = 0; k < r.nversions; k++) {
        const hd_wu_prog_version *rv = &r.versions[k];
        for (int h = 0; h < rv->nuses; h++) {
            TU_CHECK_EQ(rv->uses[h].into + 1, r_of[v[own_of[k]].use[h].into] + 1, "into");
            per_use += rv->uses[h].passes + rv->uses[h].remap;
        }
    }
    total = chapter3(v, nv, first, F, n, bf);
    TU_CHECK_EQ(r.map_cost, total, "Algorithm II's cost, recomputed");
    TU_CHECK_EQ(per_use, total, "the uses' passes and remaps");
    TU_CHECK(r.map_cost <= r.map_identity, "worse than the identity: %d > %d", r.map_cost,
             r.map_identity);
    /* (c) the optimum of the objective, trying every mapping of every use */
    if (uses <= 3 || (uses == 4 && *cases < 12)) {
        int pick[4] = { 0 }, best = 1 << 30;
        for (;;) {
            hd_agl G[4];
            for (int j = 0; j < uses; j++)
                G[j] = all[pick[j]];
            int c = chapter3(v, nv, first, G, n, bf);
            if (c < best)
                best = c;
            if (!next_pick(pick, uses))
                break;
        }
        TU_CHECK(r.map_cost >= best, "below the optimum %d: %d", best, r.map_cost);
        *optimal += r.map_cost == best;
        (*cases)++;
    }
    /* (d) Chapter 4's totals */
    assert_int_equal(r.align_status, HD_OK);
    int sf = 0, sx = 0;
    for (int s = 0; s < w->nstmts; s++) {
        sf += r.cost_free[s];
        sx += r.cost_fixed[s];
    }
    TU_CHECK_EQ(r.align_free, sf, "free roots' sum");
    TU_CHECK_EQ(r.align_fixed, sx, "fixed roots' sum");
    TU_CHECK_EQ(r.align_identity, identity, "every operation where its result goes");
    TU_CHECK(r.align_free <= r.align_identity && r.align_fixed <= r.align_identity,
             "alignments above the identity's %d: %d, %d", r.align_identity, r.align_free,
             r.align_fixed);
    hd_wu_prog_result_free(&r);
}

static void free_prog(prog *p)
{
    hd_wu_prog_free(&p->w);
}

typedef void checker(const hd_target *t, prog *p, int *optimal, int *cases);

/* `count` random programs on both networks, each checked; how often the
 * answer was the optimum where every assignment was tried. */
static void run_programs(const char *name, long count, int maxvec, int maxstmt, bool from_c,
                         checker *check, const char *what)
{
    tu_rng_init(name);
    enumerate(2);
    for (int b = 0; b < 2; b++) {
        const hd_target *t = b ? BUTTERFLY(2) : OMEGA(2);
        int optimal = 0, cases = 0;
        for (long c = 0; c < tu_cases(count); c++) {
            prog p;
            random_prog(&p, 2, 2 + (int)tu_below((uint64_t)maxvec - 1),
                        1 + (int)tu_below((uint64_t)maxstmt), from_c);
            tu_case(c, NULL, 0, NULL);
            check(t, &p, &optimal, &cases);
            free_prog(&p);
        }
        printf("    %s (%s): optimal in %d of %d (every mapping tried)\n", what,
               b ? "butterfly" : "omega", optimal, cases);
    }
}

static void test_spec_programs(void **state)
{
    (void)state;
    run_programs("test_spec_programs", 60, 3, 3, false, check_spec,
                 "Algorithm II (VI) on spec programs");
}

/* ------------------------------------------- C: one mapping per doall */

/* 0 not used, 1 written whole and not read, 2 otherwise (docs/omega.md). */
static int use_kind(const hd_wu_stmt *st, int v)
{
    for (int i = 0; i < st->tree.count; i++)
        if (st->leaf_vector[i] == v)
            return 2;
    bool written = st->lhs == v;
    for (int k = 0; k < st->nalso; k++)
        written |= st->also[k] == v;
    if (!written)
        return 0;
    for (int k = 0; k < st->nwhole; k++)
        if (st->whole[k] == v)
            return 1;
    return 2;
}

/* The remaps' passes, processors renamed by Q (NULL: not). */
static int own_remaps(const hd_wu_prog *w, const hd_agl *at, const hd_agl *Q, bool bf)
{
    int nv = w->nvectors, total = 0;
    for (int v = 0; v < nv; v++) {
        int prev = -1;
        for (int s = 0; s < w->nstmts; s++) {
            int k = use_kind(&w->stmts[s], v);
            if (!k)
                continue;
            if (prev >= 0 && k == 2) {
                hd_agl m = tu_agl_div(&at[s * nv + v], &at[prev * nv + v]);
                if (Q) {
                    hd_agl qm = tu_agl_compose(Q, &m);
                    m = tu_agl_div(&qm, Q);
                }
                total += tu_agl_passes(&m, bf);
            }
            prev = s;
        }
    }
    return total;
}

static int own_price(const hd_wu_prog *w, const hd_agl *at, bool bf)
{
    int nv = w->nvectors, total = 0;
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        for (int i = 0; i < st->tree.count; i++) {
            int v = st->leaf_vector[i];
            if (v < 0)
                continue;
            hd_agl m = tu_agl_compose(&at[s * nv + st->lhs], &st->tree.node[i].P);
            total += over(&m, &at[s * nv + v], bf);
        }
    }
    return total + own_remaps(w, at, NULL, bf);
}

/* The cells of a statement: its written vectors as one, each vector it
 * only reads as another. */
typedef struct {
    int s, count, v[8];
} cell;

static int cells_of(const hd_wu_prog *w, cell *c)
{
    int m = 0;
    for (int s = 0; s < w->nstmts; s++) {
        const hd_wu_stmt *st = &w->stmts[s];
        c[m] = (cell){ s, 1, { st->lhs } };
        for (int k = 0; k < st->nalso; k++)
            c[m].v[c[m].count++] = st->also[k];
        m++;
        for (int v = 0; v < w->nvectors; v++) {
            bool written = c[m - 1].v[0] == v;
            for (int k = 1; k < c[m - 1].count; k++)
                written |= c[m - 1].v[k] == v;
            if (!written && use_kind(st, v))
                c[m++] = (cell){ s, 1, { v } };
        }
    }
    return m;
}

static void check_c(const hd_target *t, prog *p, int *optimal, int *cases)
{
    bool bf = t->kind == HD_TARGET_BUTTERFLY;
    const hd_wu_prog *w = &p->w;
    int n = w->n, nv = w->nvectors, ncell;
    hd_wu_prog_result r;
    assert_int_equal(hd_wu_prog_analyse(t, w, &r), HD_OK);
    assert_int_equal(r.map_status, HD_OK);
    cell c[64];
    ncell = cells_of(w, c);
    /* (a) exactly the cells used, one mapping per cell */
    for (int s = 0; s < w->nstmts; s++)
        for (int v = 0; v < nv; v++)
            TU_CHECK(r.used[s * nv + v] == (use_kind(&w->stmts[s], v) != 0),
                     "used: statement %d vector %d", s, v);
    for (int k = 0; k < ncell; k++)
        for (int j = 1; j < c[k].count; j++)
            TU_CHECK(same(&r.at[c[k].s * nv + c[k].v[j]], &r.at[c[k].s * nv + c[k].v[0]]),
                     "the arrays of statement %d write under two mappings", c[k].s);
    /* (b) the prices */
    hd_agl *at = calloc((size_t)(w->nstmts * nv), sizeof *at);
    for (int q = 0; q < w->nstmts * nv; q++)
        at[q] = r.used[q] ? r.at[q] : ident(n);
    TU_CHECK_EQ(r.realized, own_price(w, at, bf), "the mappings' passes, recomputed");
    for (int q = 0; q < w->nstmts * nv; q++)
        at[q] = ident(n);
    TU_CHECK_EQ(r.map_identity, own_price(w, at, bf), "the identity's passes");
    TU_CHECK_EQ(r.program_own, own_price(w, w->own, bf), "the program's own mappings");
    int stat = 1 << 30;
    for (int f = 0; f < nall; f++) {
        for (int q = 0; q < w->nstmts * nv; q++)
            at[q] = all[f];
        int x = own_price(w, at, bf);
        if (x < stat)
            stat = x;
    }
    TU_CHECK_EQ(r.static_cost, stat, "the best static F");
    TU_CHECK(r.realized <= r.static_cost && r.realized <= r.projected &&
             r.realized <= r.map_identity, "the descent made it worse: %d (static %d, "
             "projected %d, identity %d)", r.realized, r.static_cost, r.projected,
             r.map_identity);
    TU_CHECK_EQ(r.improves, r.realized < r.map_identity, "improves");
    /* (c) the remaps under a renaming of the processors */
    hd_agl Q = all[tu_below((uint64_t)nall)];
    Q.b = 0;
    hd_mapping map;
    assert_true(hd_mapping_affine(&Q.A, 0, &map));
    for (int q = 0; q < w->nstmts * nv; q++)
        at[q] = r.used[q] ? r.at[q] : ident(n);
    TU_CHECK_EQ(hd_wu_prog_remaps(t, w, r.at, &map), own_remaps(w, at, &Q, bf),
                "remaps under a processor mapping");
    /* (d) the map pragmas replayed as hd_map_at reads them */
    hd_wu_map *m;
    int count = hd_wu_prog_maps(w, &r, &m);
    hd_agl now[8];
    int e = 0;
    for (int s = 0; s < w->nstmts; s++) {
        if (s == 0 || w->stmts[s].func_begin != w->stmts[s - 1].func_begin)
            for (int v = 0; v < nv; v++)
                now[v] = ident(n);
        for (; e < count && m[e].stmt == s; e++) {
            TU_CHECK(!same(&now[m[e].vector], &m[e].F), "a pragma that changes nothing");
            now[m[e].vector] = m[e].F;
        }
        for (int v = 0; v < nv; v++)
            if (r.used[s * nv + v])
                TU_CHECK(same(&now[v], &r.at[s * nv + v]),
                         "the pragmas leave vector %d of statement %d elsewhere", v, s);
    }
    TU_CHECK_EQ(e, count, "pragmas in the order of the text");
    free(m);
    /* (e) the optimum under the rule, trying every mapping of every cell */
    if (ncell <= 3 || (ncell == 4 && *cases < 12)) {
        int pick[4] = { 0 }, best = 1 << 30;
        for (;;) {
            for (int q = 0; q < w->nstmts * nv; q++)
                at[q] = ident(n);
            for (int k = 0; k < ncell; k++)
                for (int j = 0; j < c[k].count; j++)
                    at[c[k].s * nv + c[k].v[j]] = all[pick[k]];
            int x = own_price(w, at, bf);
            if (x < best)
                best = x;
            if (!next_pick(pick, ncell))
                break;
        }
        TU_CHECK(r.realized >= best, "below the optimum %d: %d", best, r.realized);
        *optimal += r.realized == best;
        (*cases)++;
    }
    free(at);
    hd_wu_prog_result_free(&r);
}

static void test_c_programs(void **state)
{
    (void)state;
    run_programs("test_c_programs", 150, 4, 4, true, check_c,
                 "one mapping per doall, after the descent");
}

/* ------------------------------------------------------------- edges */

static void test_edges(void **state)
{
    (void)state;
    tu_rng_init("test_edges");
    enumerate(2);
    prog p;
    random_prog(&p, 2, 2, 2, false);
    hd_wu_prog_result r;
    hd_target ecube = hd_target_ecube(2);
    assert_int_equal(hd_wu_prog_analyse(&ecube, &p.w, &r), HD_EINVAL);
    assert_int_equal(hd_wu_prog_analyse(OMEGA(3), &p.w, &r), HD_EINVAL);
    hd_wu_prog empty = { .n = 2 };
    assert_int_equal(hd_wu_prog_analyse(OMEGA(2), &empty, &r), HD_EINVAL);
    /* A spec's program has no per-doall mappings, nor map pragmas. */
    assert_int_equal(hd_wu_prog_analyse(OMEGA(2), &p.w, &r), HD_OK);
    hd_wu_map *m;
    assert_int_equal(hd_wu_prog_maps(&p.w, &r, &m), 0);
    assert_null(m);
    hd_wu_prog_result_free(&r);
    free_prog(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_programs),
        cmocka_unit_test(test_c_programs),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
