/*
 * cli_json.c — `hyperdo analyze --json` against its contract and against
 * the numbers Hou et al. 2001 prints: Examples 1, 3, 4, 5, 6 and Section 6.1.
 * The contention after every mapping is recomputed here by routing each
 * message hop by hop with e-cube routing (Section 2.3), independently of
 * the analysis library.
 */
#define _DEFAULT_SOURCE   /* mkstemps */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include <cmocka.h>
#include <jansson.h>

#include "harness.h"

static const char *const objectives[] = { "max", "maxsum", "sum" };

static const char *const top_keys[] = { "n", "objective", "order", "cost",
                                        "network", "lccs" };
static const char *const lcc_keys[] = {
    "name", "class", "kind", "bpc", "rank", "A", "b", "contention_before",
    "contention_after", "alone_order", "alone_contention",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Runs the analysis and parses its JSON; checks the process side. */
static json_t *analyze_json(const char *sample, const char *objective)
{
    run_result r;
    run_hyperdo(&r, NULL, "analyze", "--json", "--objective", objective,
                source_path(sample), NULL);
    if (r.status != 0 || r.errlen != 0)
        fprintf(stderr, "hyperdo said: %s", r.err);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.errlen, 0);
    /* One compact line: the object, then a newline. */
    assert_true(r.outlen > 2);
    assert_true(starts_with(r.out, "{\"n\":"));
    assert_string_equal(r.out + r.outlen - 2, "}\n");
    assert_null(memchr(r.out, '\n', r.outlen - 1));

    json_error_t error;
    json_t *root = json_loads(r.out, 0, &error);
    if (!root)
        fprintf(stderr, "bad JSON at line %d: %s\n", error.line, error.text);
    assert_non_null(root);
    run_result_free(&r);
    return root;
}

static void check_keys(json_t *obj, const char *const *keys, size_t nkeys)
{
    size_t k = 0;
    assert_true(json_is_object(obj));
    for (void *it = json_object_iter(obj); it;
         it = json_object_iter_next(obj, it), k++) {
        assert_true(k < nkeys);
        assert_string_equal(json_object_iter_key(it), keys[k]);
    }
    assert_int_equal(k, nkeys);
}

static void check_int_array(json_t *a, int n)
{
    assert_true(json_is_array(a));
    assert_int_equal(json_array_size(a), n);
    for (int i = 0; i < n; i++)
        assert_true(json_is_integer(json_array_get(a, i)));
}

static void check_permutation(json_t *a, int n)
{
    uint64_t seen = 0;
    check_int_array(a, n);
    for (int k = 0; k < n; k++) {
        json_int_t r = json_integer_value(json_array_get(a, k));
        assert_true(r >= 0 && r < n);
        assert_false((seen >> r) & 1);
        seen |= UINT64_C(1) << r;
    }
}

static void check_bits(json_t *s, int n)
{
    assert_true(json_is_string(s));
    const char *v = json_string_value(s);
    assert_int_equal(strlen(v), n);
    assert_int_equal(strspn(v, "01"), n);
}

static void check_types(json_t *root)
{
    check_keys(root, top_keys, COUNT(top_keys));
    assert_true(json_is_integer(json_object_get(root, "n")));
    int n = (int)json_integer_value(json_object_get(root, "n"));
    assert_true(json_is_string(json_object_get(root, "objective")));
    check_permutation(json_object_get(root, "order"), n);
    assert_true(json_is_integer(json_object_get(root, "cost")));
    json_t *lccs = json_object_get(root, "lccs");
    assert_true(json_is_array(lccs));
    assert_true(json_array_size(lccs) > 0);

    size_t r;
    json_t *l;
    json_array_foreach(lccs, r, l) {
        check_keys(l, lcc_keys, COUNT(lcc_keys));
        assert_true(json_is_string(json_object_get(l, "name")));
        const char *cls = json_string_value(json_object_get(l, "class"));
        assert_non_null(cls);
        assert_true(!strcmp(cls, "LCP") || !strcmp(cls, "LCG") ||
                    !strcmp(cls, "LCS"));
        const char *kind = json_string_value(json_object_get(l, "kind"));
        assert_non_null(kind);
        assert_true(!strcmp(kind, "gather") || !strcmp(kind, "scatter"));
        assert_true(json_is_boolean(json_object_get(l, "bpc")));
        assert_true(json_is_integer(json_object_get(l, "rank")));
        json_t *A = json_object_get(l, "A");
        assert_true(json_is_array(A));
        assert_int_equal(json_array_size(A), n);
        for (int i = 0; i < n; i++)
            check_bits(json_array_get(A, i), n);
        check_bits(json_object_get(l, "b"), n);
        check_int_array(json_object_get(l, "contention_before"), n);
        check_int_array(json_object_get(l, "contention_after"), n);
        check_permutation(json_object_get(l, "alone_order"), n);
        check_int_array(json_object_get(l, "alone_contention"), n);
    }
}

/* ------------------------------------------ brute-force e-cube routing */

typedef struct {
    int n;
    int scatter;
    uint64_t row[64];   /* bit j of row i is a_ij */
    uint64_t b;
} comm;

static uint64_t bits_of(const char *s)
{
    uint64_t v = 0;
    for (int i = 0; s[i]; i++)
        if (s[i] == '1')
            v |= UINT64_C(1) << i;
    return v;
}

static comm comm_of(json_t *l, int n)
{
    comm c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.scatter = !strcmp(json_string_value(json_object_get(l, "kind")),
                        "scatter");
    for (int i = 0; i < n; i++)
        c.row[i] = bits_of(json_string_value(
            json_array_get(json_object_get(l, "A"), i)));
    c.b = bits_of(json_string_value(json_object_get(l, "b")));
    return c;
}

static uint64_t apply(const comm *c, uint64_t v)
{
    uint64_t y = 0;
    for (int i = 0; i < c->n; i++)
        y |= (uint64_t)__builtin_parityll(c->row[i] & v) << i;
    return y ^ c->b;
}

/* Processor x is renamed x' with bit k of x' = bit order[k] of x. */
static uint64_t rename_node(const int *order, int n, uint64_t x)
{
    uint64_t y = 0;
    for (int k = 0; k < n; k++)
        y |= ((x >> order[k]) & 1) << k;
    return y;
}

/* T[d] = the most paths through one channel of dimension d, when every
 * message goes between the renamed processors along e-cube routes. */
static void route(const comm *c, const int *order, uint64_t *T)
{
    int n = c->n;
    uint64_t nodes = UINT64_C(1) << n;
    unsigned *load = calloc(nodes * (uint64_t)n, sizeof *load);
    assert_non_null(load);
    for (uint64_t t = 0; t < nodes; t++) {
        uint64_t src = c->scatter ? apply(c, t) : t;
        uint64_t dst = c->scatter ? t : apply(c, t);
        uint64_t at = rename_node(order, n, src);
        uint64_t to = rename_node(order, n, dst);
        while (at != to) {
            int d = __builtin_ctzll(at ^ to);   /* lowest dimension first */
            load[at * (uint64_t)n + (uint64_t)d]++;
            at ^= UINT64_C(1) << d;
        }
    }
    for (int d = 0; d < n; d++)
        T[d] = 0;
    for (uint64_t z = 0; z < nodes; z++)
        for (int d = 0; d < n; d++)
            if (load[z * (uint64_t)n + (uint64_t)d] > T[d])
                T[d] = load[z * (uint64_t)n + (uint64_t)d];
    free(load);
}

static void order_of(json_t *a, int n, int *order)
{
    for (int k = 0; k < n; k++)
        order[k] = (int)json_integer_value(json_array_get(a, k));
}

static void check_counts(json_t *a, const uint64_t *T, int n)
{
    for (int i = 0; i < n; i++)
        assert_int_equal(json_integer_value(json_array_get(a, i)), T[i]);
}

static uint64_t degree(json_t *a)
{
    uint64_t m = 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        uint64_t v = (uint64_t)json_integer_value(json_array_get(a, i));
        m = v > m ? v : m;
    }
    return m;
}

/* Section 5's three objectives from per-LCC contention counts. */
static uint64_t objective_cost(const char *obj, uint64_t T[][64], int m,
                               int n)
{
    uint64_t cost = 0;
    for (int i = 0; i < n; i++) {
        uint64_t dim = 0;
        for (int r = 0; r < m; r++) {
            if (!strcmp(obj, "max"))
                dim = T[r][i] > dim ? T[r][i] : dim;
            else
                dim += T[r][i];
        }
        if (!strcmp(obj, "sum"))
            cost += dim;
        else
            cost = dim > cost ? dim : cost;
    }
    return cost;
}

/*
 * Every count in the answer is checked against routing: before (identity
 * order), after (the set's order) and alone (each LCC's own order).  The
 * set's cost must be the objective of the routed counts, and no better
 * than the objective under any LCC's own order or the identity (the DP is
 * optimal, Theorem 5).
 */
static void check_routing(json_t *root, const char *obj)
{
    int n = (int)json_integer_value(json_object_get(root, "n"));
    json_t *lccs = json_object_get(root, "lccs");
    int m = (int)json_array_size(lccs);
    int set_order[64], identity[64], own[64];
    uint64_t (*after)[64] = calloc((size_t)m, sizeof *after);
    uint64_t (*other)[64] = calloc((size_t)m, sizeof *other);
    assert_non_null(after);
    assert_non_null(other);
    order_of(json_object_get(root, "order"), n, set_order);
    for (int k = 0; k < n; k++)
        identity[k] = k;

    for (int r = 0; r < m; r++) {
        json_t *l = json_array_get(lccs, r);
        comm c = comm_of(l, n);
        uint64_t T[64];
        route(&c, identity, T);
        check_counts(json_object_get(l, "contention_before"), T, n);
        route(&c, set_order, after[r]);
        check_counts(json_object_get(l, "contention_after"), after[r], n);
        order_of(json_object_get(l, "alone_order"), n, own);
        route(&c, own, T);
        check_counts(json_object_get(l, "alone_contention"), T, n);
    }
    uint64_t cost = (uint64_t)json_integer_value(json_object_get(root,
                                                                 "cost"));
    assert_int_equal(objective_cost(obj, after, m, n), cost);

    for (int s = -1; s < m; s++) {
        const int *o = identity;
        if (s >= 0) {
            order_of(json_object_get(json_array_get(lccs, s), "alone_order"),
                     n, own);
            o = own;
        }
        for (int r = 0; r < m; r++) {
            comm c = comm_of(json_array_get(lccs, r), n);
            route(&c, o, other[r]);
        }
        assert_true(objective_cost(obj, other, m, n) >= cost);
    }
    free(after);
    free(other);
}

static json_t *lcc_named(json_t *root, const char *name)
{
    size_t r;
    json_t *l;
    json_array_foreach(json_object_get(root, "lccs"), r, l)
        if (!strcmp(json_string_value(json_object_get(l, "name")), name))
            return l;
    fail_msg("no lcc named %s", name);
    return NULL;
}

static void check_ints(json_t *a, const int *expect, int n)
{
    assert_int_equal(json_array_size(a), n);
    for (int i = 0; i < n; i++)
        assert_int_equal(json_integer_value(json_array_get(a, i)), expect[i]);
}

/* ------------------------------------------ omega-class networks */

/* x -> A x + b read back from a JSON {"A": rows, "b": bits} (or an LCC
 * entry), as a table of 2^n destinations. */
static void table_of(json_t *o, int n, unsigned *to)
{
    unsigned rows[16] = { 0 }, b = 0;
    json_t *a = json_object_get(o, "A");
    for (int i = 0; i < n; i++) {
        const char *bits = json_string_value(json_array_get(a, i));
        for (int j = 0; j < n; j++)
            rows[i] |= (unsigned)(bits[j] == '1') << j;
    }
    const char *bb = json_string_value(json_object_get(o, "b"));
    for (int i = 0; i < n; i++)
        b |= (unsigned)(bb[i] == '1') << i;
    for (unsigned x = 0; x < 1u << n; x++) {
        unsigned y = b;
        for (int i = 0; i < n; i++)
            y ^= (unsigned)__builtin_parity(rows[i] & x) << i;
        to[x] = y;
    }
}

/* Does one pass of the network carry every x to to[x]?  Wu 1984, Section
 * 2.1: the omega network's stage i (i = n-1 down to 0) sets bit i of the
 * line to the destination's, so after it the line is (y_{n-1..i},
 * x_{i-1..0}), and two messages on one line is a conflict; the butterfly
 * sets bit 0 first (Chapter 5). */
static bool routes_in_one_pass(const unsigned *to, int n, bool butterfly)
{
    unsigned N = 1u << n;
    for (int s = 0; s < n; s++) {
        int i = butterfly ? s : n - 1 - s;
        unsigned ymask = butterfly ? (2u << i) - 1 : (N - 1) & ~((1u << i) - 1);
        unsigned char seen[1 << 10] = { 0 };
        for (unsigned x = 0; x < N; x++) {
            unsigned line = (to[x] & ymask) | (x & ~ymask & (N - 1));
            if (seen[line]++)
                return false;
        }
    }
    return true;
}

static int passes_of(const unsigned *to, int n, bool butterfly)
{
    bool identity = true;
    for (unsigned x = 0; x < 1u << n; x++)
        identity = identity && to[x] == x;
    return identity ? 0 : routes_in_one_pass(to, n, butterfly) ? 1 : 2;
}

/* analyze --json --network omega|butterfly: each LCC's passes as given and
 * under the mapping F, and the two factors of those that need two, all
 * checked by routing them through the test's own model of the network. */
static void test_omega_passes(void **state)
{
    (void)state;
    static const char spec[] =
        "n 4\n"
        "lcc bitrev perm 3 2 1 0\n"
        "lcc shuffle perm 3 0 1 2\n"
        "lcc unshuffle perm 1 2 3 0\n"
        "lcc transpose perm 2 3 0 1 b 0110\n"
        "lcc gray matrix 1100 0110 0011 0001\n"
        "lcc flip perm 0 1 2 3 b 1111\n"
        "lcc same perm 0 1 2 3\n";
    static const char *const nets[] = { "omega", "butterfly" };
    for (int k = 0; k < 2; k++) {
        bool bf = k == 1;
        run_result r;
        run_hyperdo_input(&r, spec, sizeof spec - 1, "analyze", "--json", "--network",
                          nets[k], "-", NULL);
        assert_int_equal(r.status, 0);
        json_t *root = json_loads(r.out, 0, NULL);
        run_result_free(&r);
        assert_non_null(root);
        assert_string_equal(json_string_value(json_object_get(root, "network")), nets[k]);
        int n = 4, N = 16;
        unsigned F[16], Finv[16];
        json_t *fm = json_object_get(json_object_get(root, "mapping"), "F");
        json_t *fo = json_pack("{s:O,s:s}", "A", fm, "b", "0000");
        table_of(fo, n, F);
        json_decref(fo);
        for (int x = 0; x < N; x++)
            Finv[F[x]] = (unsigned)x;
        long total_before = 0, total_after = 0;
        size_t idx;
        json_t *l;
        json_array_foreach(json_object_get(root, "lccs"), idx, l) {
            unsigned to[16], mapped[16];
            table_of(l, n, to);
            int d = passes_of(to, n, bf);
            assert_int_equal(json_integer_value(json_object_get(l, "passes")), d);
            /* F P F^-1 between physical processors. */
            for (int x = 0; x < N; x++)
                mapped[x] = F[to[Finv[x]]];
            int da = passes_of(mapped, n, bf);
            assert_int_equal(json_integer_value(json_object_get(l, "passes_after")), da);
            total_before += d;
            total_after += da;
            json_t *f = json_object_get(l, "factors");
            assert_true((d == 2) == (f != NULL));
            if (!f)
                continue;
            unsigned first[16], second[16];
            table_of(json_array_get(f, 0), n, first);
            table_of(json_array_get(f, 1), n, second);
            assert_true(routes_in_one_pass(first, n, bf));
            assert_true(routes_in_one_pass(second, n, bf));
            for (int x = 0; x < N; x++)
                assert_int_equal(second[first[x]], to[x]);
        }
        assert_int_equal(json_integer_value(json_object_get(root, "passes_before")),
                         total_before);
        assert_int_equal(json_integer_value(json_object_get(root, "passes_after")),
                         total_after);
        /* n = 4: F is the best of GL(4, 2), so no worse than the identity. */
        assert_true(total_after <= total_before);
        json_decref(root);
    }
}

/* analyze --json on a C program, omega and butterfly: the map pragmas
 * the program section suggests, written into the program's text before
 * their doalls and analysed again (the front end reads them, the analysis
 * composes each array's layout with them), give exactly the transfers'
 * passes the section claimed, each LCC's passes checked by routing it
 * through the test's own model of the network; and the program's own map
 * pragmas are then priced as the section's mappings were. */
static json_t *analyze_c(const char *path, const char *net)
{
    run_result r;
    run_hyperdo(&r, NULL, "analyze", "--json", "--network", net, "--dim", "4", path, NULL);
    if (r.status != 0)
        fprintf(stderr, "hyperdo said: %s", r.err);
    assert_int_equal(r.status, 0);
    json_t *root = json_loads(r.out, 0, NULL);
    run_result_free(&r);
    assert_non_null(root);
    return root;
}

static void test_wu_pragmas(void **state)
{
    (void)state;
    static const char *const nets[] = { "omega", "butterfly" };
    const char *prog = "tests/e2e/wu_maps.c";
    for (int k = 0; k < 2; k++) {
        bool bf = k == 1;
        json_t *root = analyze_c(source_path(prog), nets[k]);
        json_t *dm = json_object_get(json_object_get(root, "program"), "data_mappings");
        assert_non_null(dm);
        assert_true(json_is_true(json_object_get(dm, "improves")));
        long claimed = (long)json_integer_value(json_object_get(dm, "per_doall_transfers"));
        long per_doall = (long)json_integer_value(json_object_get(dm, "per_doall"));
        assert_true(per_doall < json_integer_value(json_object_get(dm, "identity")));
        json_t *pragmas = json_object_get(dm, "pragmas");
        assert_true(json_array_size(pragmas) > 0);
        /* The program with the pragmas, each right before the doall pragma
         * of its doall's for line; from the bottom up, so that the lines
         * above keep their numbers. */
        char *text = slurp(source_path(prog), NULL);
        assert_non_null(text);
        int nlines = count_lines(text);
        char **line = calloc((size_t)nlines + 2, sizeof *line);
        for (int i = 1; i <= nlines; i++)
            line[i] = nth_line(text, i);
        words *extra = calloc((size_t)nlines + 2, sizeof *extra);
        size_t idx;
        json_t *p;
        json_array_foreach(pragmas, idx, p) {
            int at = (int)json_integer_value(json_object_get(p, "line"));
            while (at > 1 && !strstr(line[at], "#pragma hyperdo doall"))
                at--;
            assert_true(at > 1 && at <= nlines);
            char *pr = xasprintf("#pragma hyperdo map(%s : %s)",
                                 json_string_value(json_object_get(p, "array")),
                                 json_string_value(json_object_get(p, "map")));
            words_add(&extra[at], pr);
            free(pr);
        }
        char path[] = "/tmp/hyperdo-wu-XXXXXX.c";
        int fd = mkstemps(path, 2);
        assert_true(fd >= 0);
        FILE *out = fdopen(fd, "w");
        for (int i = 1; i <= nlines; i++) {
            for (int j = 0; j < extra[i].n; j++)
                fprintf(out, "%s\n", extra[i].v[j]);
            fprintf(out, "%s\n", line[i]);
        }
        assert_int_equal(fclose(out), 0);
        json_t *again = analyze_c(path, nets[k]);
        unlink(path);
        long transfers = 0;
        json_t *l;
        json_array_foreach(json_object_get(again, "lccs"), idx, l) {
            const char *cls = json_string_value(json_object_get(l, "class"));
            if (!cls || strcmp(cls, "LCP") != 0)
                continue;
            unsigned to[16];
            table_of(l, 4, to);
            int d = passes_of(to, 4, bf);
            assert_int_equal(json_integer_value(json_object_get(l, "passes")), d);
            transfers += d;
        }
        assert_int_equal(transfers, claimed);
        json_t *dm2 = json_object_get(json_object_get(again, "program"), "data_mappings");
        assert_int_equal(json_integer_value(json_object_get(dm2, "program_maps")), per_doall);
        for (int i = 0; i <= nlines; i++)
            words_free(&extra[i]);
        free(extra);
        for (int i = 1; i <= nlines; i++)
            free(line[i]);
        free(line);
        free(text);
        json_decref(again);
        json_decref(root);
    }
}

/* Wu 1984's FFT as a program (samples/lcc/wu_fft.lcc): 20 passes with
 * every mapping the identity, the thesis's "20 routing steps" (Section
 * 3.4.2), and Algorithm II no worse than its Table II's 8; every use's
 * passes and remap recomputed from the JSON's P, F and the first mapping
 * of the version it goes into, routed through the test's own network. */
static void compose_tables(const unsigned *second, const unsigned *first, unsigned *out, int n)
{
    for (unsigned x = 0; x < 1u << n; x++)
        out[x] = second[first[x]];
}

static void inverse_table(const unsigned *t, unsigned *out, int n)
{
    for (unsigned x = 0; x < 1u << n; x++)
        out[t[x]] = x;
}

static void test_wu_fft_program(void **state)
{
    (void)state;
    static const char *const nets[] = { "omega", "butterfly" };
    for (int k = 0; k < 2; k++) {
        bool bf = k == 1;
        run_result r;
        run_hyperdo(&r, NULL, "analyze", "--json", "--network", nets[k],
                    source_path("samples/lcc/wu_fft.lcc"), NULL);
        assert_int_equal(r.status, 0);
        json_t *root = json_loads(r.out, 0, NULL);
        run_result_free(&r);
        assert_non_null(root);
        json_t *prog = json_object_get(root, "program");
        json_t *dm = json_object_get(prog, "data_mappings");
        assert_int_equal(json_integer_value(json_object_get(prog, "statements")), 18);
        assert_int_equal(json_integer_value(json_object_get(dm, "identity")), 20);
        long cost = (long)json_integer_value(json_object_get(dm, "cost"));
        assert_true(cost <= 8);
        json_t *versions = json_object_get(dm, "versions");
        long total = 0;
        size_t i, h;
        json_t *v, *u;
        json_array_foreach(versions, i, v) {
            unsigned prev[8];
            json_array_foreach(json_object_get(v, "uses"), h, u) {
                unsigned P[8], F[8], Finv[8], G[8], e[8], m[8];
                table_of(json_object_get(u, "P"), 3, P);
                table_of(json_object_get(u, "F"), 3, F);
                inverse_table(F, Finv, 3);
                json_t *into = json_object_get(u, "into");
                if (json_is_integer(into)) {
                    json_t *w = json_array_get(versions, (size_t)json_integer_value(into));
                    table_of(json_object_get(json_array_get(json_object_get(w, "uses"), 0), "F"),
                             3, G);
                    compose_tables(G, P, e, 3);
                } else {
                    memcpy(e, P, sizeof e);
                }
                compose_tables(e, Finv, m, 3);
                int d = passes_of(m, 3, bf);
                assert_int_equal(json_integer_value(json_object_get(u, "passes")), d);
                int rm = 0;
                if (h) {
                    unsigned pinv[8];
                    inverse_table(prev, pinv, 3);
                    compose_tables(F, pinv, m, 3);
                    rm = passes_of(m, 3, bf);
                }
                assert_int_equal(json_integer_value(json_object_get(u, "remap")), rm);
                total += d + rm;
                memcpy(prev, F, sizeof prev);
            }
        }
        assert_int_equal(total, cost);
        json_decref(root);
    }
}

/* ------------------------------------------------------------- tests */

/* Examples 1 and 3, Section 6.1: all three have T = (1,2,4,8,8,4,2,1) and
 * become contention-free alone (Corollary 1); Example 4's R(L_8). */
static void test_paper(void **state)
{
    (void)state;
    static const int before[8] = { 1, 2, 4, 8, 8, 4, 2, 1 };
    static const int ones[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    static const int example4[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };
    static const char *const names[3] = { "transpose", "bitrev", "revflip" };

    for (size_t k = 0; k < COUNT(objectives); k++) {
        json_t *root = analyze_json("samples/lcc/paper.lcc", objectives[k]);
        check_types(root);
        assert_int_equal(json_integer_value(json_object_get(root, "n")), 8);
        assert_string_equal(json_string_value(json_object_get(root,
                            "objective")), objectives[k]);
        json_t *lccs = json_object_get(root, "lccs");
        assert_int_equal(json_array_size(lccs), 3);
        for (int r = 0; r < 3; r++) {
            json_t *l = json_array_get(lccs, r);
            assert_string_equal(json_string_value(json_object_get(l, "name")),
                                names[r]);
            assert_string_equal(json_string_value(json_object_get(l,
                                "class")), "LCP");
            assert_string_equal(json_string_value(json_object_get(l, "kind")),
                                "gather");
            assert_true(json_is_true(json_object_get(l, "bpc")));
            assert_int_equal(json_integer_value(json_object_get(l, "rank")),
                             8);
            check_ints(json_object_get(l, "contention_before"), before, 8);
            check_ints(json_object_get(l, "alone_contention"), ones, 8);
        }
        json_t *t = lcc_named(root, "transpose");
        check_ints(json_object_get(t, "alone_order"), example4, 8);
        /* A perm spec's "A" is the permutation matrix it denotes, printed
         * as in Example 3. */
        assert_string_equal(json_string_value(json_array_get(
                            json_object_get(t, "A"), 0)), "00001000");
        assert_string_equal(json_string_value(json_array_get(
                            json_object_get(t, "A"), 4)), "10000000");
        assert_string_equal(json_string_value(json_object_get(
                            lcc_named(root, "revflip"), "b")), "11111111");
        assert_string_equal(json_string_value(json_object_get(
                            lcc_named(root, "bitrev"), "b")), "00000000");
        check_routing(root, objectives[k]);
        json_decref(root);
    }
}

/* For max, the cost is the largest degree after the mapping. */
static void test_max_cost_is_largest_degree(void **state)
{
    (void)state;
    static const char *const samples[] = { "samples/lcc/paper.lcc",
        "samples/lcc/example5.lcc", "samples/lcc/example6.lcc" };
    for (size_t s = 0; s < COUNT(samples); s++) {
        json_t *root = analyze_json(samples[s], "max");
        uint64_t worst = 0;
        size_t r;
        json_t *l;
        json_array_foreach(json_object_get(root, "lccs"), r, l) {
            uint64_t d = degree(json_object_get(l, "contention_after"));
            worst = d > worst ? d : worst;
        }
        assert_int_equal(json_integer_value(json_object_get(root, "cost")),
                         worst);
        json_decref(root);
    }
}

/* Example 6: transpose and bit reverse together reach degree 2. */
static void test_example6(void **state)
{
    (void)state;
    for (size_t k = 0; k < COUNT(objectives); k++) {
        json_t *root = analyze_json("samples/lcc/example6.lcc", objectives[k]);
        check_types(root);
        assert_int_equal(json_array_size(json_object_get(root, "lccs")), 2);
        if (!strcmp(objectives[k], "max"))
            assert_int_equal(json_integer_value(json_object_get(root,
                             "cost")), 2);
        check_routing(root, objectives[k]);
        json_decref(root);
    }
}

/* Example 5: the 2x scale is an LCS of rank 6 whose best degree is
 * 2^((n-1) - 6) = 2 (Theorem 4, Corollary 2). */
static void test_example5(void **state)
{
    (void)state;
    for (size_t k = 0; k < COUNT(objectives); k++) {
        json_t *root = analyze_json("samples/lcc/example5.lcc", objectives[k]);
        check_types(root);
        assert_int_equal(json_array_size(json_object_get(root, "lccs")), 11);
        json_t *s = lcc_named(root, "scale");
        assert_string_equal(json_string_value(json_object_get(s, "class")),
                            "LCS");
        assert_string_equal(json_string_value(json_object_get(s, "kind")),
                            "scatter");
        assert_true(json_is_false(json_object_get(s, "bpc")));
        assert_int_equal(json_integer_value(json_object_get(s, "rank")), 6);
        assert_int_equal(degree(json_object_get(s, "alone_contention")), 2);
        assert_string_equal(json_string_value(json_array_get(
                            json_object_get(s, "A"), 0)), "01000000");
        assert_string_equal(json_string_value(json_array_get(
                            json_object_get(s, "A"), 3)), "00000000");
        json_t *r = lcc_named(root, "rot90cw");
        assert_string_equal(json_string_value(json_object_get(r, "b")),
                            "11110000");
        check_routing(root, objectives[k]);
        json_decref(root);
    }
}

/* "-" reads the spec from standard input, with the same answer. */
static void test_stdin(void **state)
{
    (void)state;
    const char *path = source_path("samples/lcc/paper.lcc");
    char file[4096];
    snprintf(file, sizeof file, "%s", path);
    run_result a, b;
    run_hyperdo(&a, NULL, "analyze", "--json", file, NULL);
    run_hyperdo(&b, file, "analyze", "--json", "-", NULL);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    assert_int_equal(b.errlen, 0);
    run_result_free(&a);
    run_result_free(&b);
}

/* A C file's bytes need not be UTF-8; the JSON must be: a reference whose
 * text holds invalid bytes keeps its entry, with U+FFFD for each. */
static void test_not_utf8(void **state)
{
    (void)state;
    char dir[] = "/tmp/hyperdo-cli-json-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/t.c", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    static const char text[] =
        "double a[8], b[8];\n"
        "int main(void)\n"
        "{\n"
        "#pragma hyperdo doall\n"
        "    for (int i = 0; i < 8; i++)\n"
        "        b[i] = a[i ^ 1 /* \xff\xfe\xc3 */];\n"
        "    return 0;\n"
        "}\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    run_result r;
    run_hyperdo(&r, NULL, "analyze", "--json", path, NULL);
    unlink(path);
    rmdir(dir);
    assert_int_equal(r.status, 0);
    json_error_t error;
    json_t *root = json_loads(r.out, 0, &error);
    if (!root)
        fail_msg("not JSON (%s): %s", error.text, r.out);
    json_t *lccs = json_object_get(root, "lccs");
    assert_int_equal(json_array_size(lccs), 1);
    const char *name = json_string_value(json_object_get(json_array_get(lccs, 0), "name"));
    assert_non_null(name);
    assert_string_equal(name, "a[i ^ 1 /* \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd */]");
    assert_string_equal(json_string_value(json_object_get(json_array_get(lccs, 0), "class")),
                        "LCP");
    json_decref(root);
    run_result_free(&r);
}

/* CRLF endings, tabs, comments anywhere and blank lines are all fine. */
static void test_lenient_layout(void **state)
{
    (void)state;
    static const char spec[] =
        "# a comment\r\n"
        "\r\n"
        "\tn\t4   # the dimension\r\n"
        "  \r\n"
        "lcc\tswap gather perm 2 3 0 1#no space before the comment\r\n"
        "lcc spread scatter matrix 0100 0000 0001 0000 b 0010\r\n";
    run_result r;
    run_hyperdo_input(&r, spec, sizeof spec - 1, "analyze", "--json", "-",
                      NULL);
    if (r.status)
        fprintf(stderr, "hyperdo said: %s", r.err);
    assert_int_equal(r.status, 0);
    json_t *root = json_loads(r.out, 0, NULL);
    assert_non_null(root);
    check_types(root);
    json_t *l = lcc_named(root, "spread");
    assert_string_equal(json_string_value(json_object_get(l, "b")), "0010");
    assert_string_equal(json_string_value(json_object_get(l, "class")),
                        "LCS");
    check_routing(root, "max");
    json_decref(root);
    run_result_free(&r);
}

int main(int argc, char **argv)
{
    harness_init(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper),
        cmocka_unit_test(test_max_cost_is_largest_degree),
        cmocka_unit_test(test_example6),
        cmocka_unit_test(test_example5),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_not_utf8),
        cmocka_unit_test(test_lenient_layout),
        cmocka_unit_test(test_omega_passes),
        cmocka_unit_test(test_wu_pragmas),
        cmocka_unit_test(test_wu_fft_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
