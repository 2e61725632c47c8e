/*
 * fem_baselines.c — the two mappings issue 16 measures Chung and Ranka
 * 1990's against, both from the libraries Debian ships (analysis.h,
 * docs/meshes.md "Baselines: Scotch and METIS"):
 *
 *   Scotch: Pellegrini's Scotch maps the NB graph straight onto its
 *   hypercube target (hcub), whose distance is the Hamming distance, so
 *   it minimises the sum of (edge) x (hops): the quantity Section 2.3's
 *   cost grows with.
 *
 *   METIS: Karypis and Kumar's METIS cuts the NB graph into 2^n parts
 *   and knows nothing of the cube; which part goes to which processor is
 *   ours to choose.  We start both from METIS's own numbering and from
 *   Scotch's mapping of the quotient graph, improve each by swaps of two
 *   parts' processors that lower the word-hops (below), and keep the one
 *   of least C under the chosen channel model (Section 2.3).
 *
 * Both are deterministic: the seeds are fixed and Debian's Scotch is built
 * without threads.
 */
#include "analysis.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <metis.h>
#include <scotch.h>

/* The seed of both libraries' random generators. */
#define BASELINE_SEED 1
/* Scotch's own default load imbalance for a mapping (1 %). */
#define SCOTCH_IMBALANCE 0.01
/* METIS's k-way default: parts may exceed N / 2^n by 3 % (ufactor 30). */
#define METIS_UFACTOR 30
/* The relabelling keeps a table of the 2^n processors: up to 2^20. */
#define METIS_MAX_DIM 20
/* Passes of swaps at most (each pass that changes nothing ends it). */
#define MAX_PASSES 100

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* The libraries trust their input; a bad index would crash inside them,
 * so the CSR arrays are checked here first (symmetry Scotch checks). */
static int check_graph(const hd_graph *g, int n, int max_dim, const int *proc,
                       char *err, size_t errlen)
{
    if (!g || g->n < 0 || (g->n > 0 && (!g->xadj || !g->adj || !proc)))
        return fail(err, errlen, HD_EINVAL, "no graph or no mapping array");
    if (n < 0 || n > max_dim)
        return fail(err, errlen, HD_EINVAL, "cube dimension %d outside 0 .. %d", n, max_dim);
    if (g->n == 0)
        return HD_OK;
    if (g->xadj[0] != 0)
        return fail(err, errlen, HD_EINVAL, "xadj[0] is %d, not 0", g->xadj[0]);
    for (int v = 0; v < g->n; v++) {
        if (g->xadj[v + 1] < g->xadj[v])
            return fail(err, errlen, HD_EINVAL, "xadj decreases at node %d", v);
        for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            if (g->adj[e] < 0 || g->adj[e] >= g->n || g->adj[e] == v)
                return fail(err, errlen, HD_EINVAL, "node %d: neighbour %d out of range or itself",
                            v, g->adj[e]);
    }
    return HD_OK;
}

/* ---------------------------------------------------------------- Scotch */

/* Maps the graph of nv vertices (CSR xadj/adj, edge weights ewt or NULL)
 * onto Scotch's hcub target of dimension n >= 1: out[v] is v's processor
 * (hcub numbers its terminals by their addresses).  The graph is copied
 * into SCOTCH_Num arrays, which need not be int.  A private context holds
 * the random generator, seeded with BASELINE_SEED, so a call never sees
 * the generator state another left behind. */
static int scotch_map(int nv, const int *xadj, const int *adj, const int *ewt, int n,
                      int *out, char *err, size_t errlen)
{
    int ne = xadj[nv];
    SCOTCH_Num *verttab = malloc(((size_t)nv + 1) * sizeof *verttab);
    SCOTCH_Num *edgetab = malloc(((size_t)ne + 1) * sizeof *edgetab);
    SCOTCH_Num *edlotab = ewt ? malloc(((size_t)ne + 1) * sizeof *edlotab) : NULL;
    SCOTCH_Num *parttab = malloc(((size_t)nv + 1) * sizeof *parttab);
    if (!verttab || !edgetab || (ewt && !edlotab) || !parttab) {
        free(verttab);
        free(edgetab);
        free(edlotab);
        free(parttab);
        return fail(err, errlen, HD_ENOMEM, "out of memory for Scotch's graph");
    }
    for (int v = 0; v <= nv; v++)
        verttab[v] = xadj[v];
    for (int e = 0; e < ne; e++) {
        edgetab[e] = adj[e];
        if (ewt)
            edlotab[e] = ewt[e];
    }

    SCOTCH_Context context;
    SCOTCH_Graph graph, bound;
    SCOTCH_Arch arch;
    SCOTCH_Strat strat;
    int rc = HD_OK;
    const char *what = NULL;
    SCOTCH_contextInit(&context);
    SCOTCH_graphInit(&graph);
    SCOTCH_graphInit(&bound);
    SCOTCH_archInit(&arch);
    SCOTCH_stratInit(&strat);
    if (SCOTCH_contextRandomClone(&context) != 0
        || SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMDETERMINISTIC, 1) != 0
        || SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) != 0)
        what = "cannot set up a deterministic context";
    else if (SCOTCH_graphBuild(&graph, 0, nv, verttab, verttab + 1, NULL, NULL, ne, edgetab,
                               edlotab) != 0)
        what = "SCOTCH_graphBuild refused the graph";
    else if (SCOTCH_graphCheck(&graph) != 0)
        what = "SCOTCH_graphCheck found the graph inconsistent (not symmetric?)";
    else if (SCOTCH_contextBindGraph(&context, &graph, &bound) != 0)
        what = "cannot bind the graph to its context";
    else if (SCOTCH_archHcub(&arch, n) != 0)
        what = "SCOTCH_archHcub refused the dimension";
    else if (SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATDEFAULT, (SCOTCH_Num)1 << n,
                                       SCOTCH_IMBALANCE) != 0)
        what = "cannot build the mapping strategy";
    if (!what) {
        SCOTCH_contextRandomSeed(&context, BASELINE_SEED);
        SCOTCH_contextRandomReset(&context);
        if (SCOTCH_graphMap(&bound, &arch, &strat, parttab) != 0)
            what = "SCOTCH_graphMap failed (Scotch's reason is on stderr)";
    }
    for (int v = 0; !what && v < nv; v++) {
        if (parttab[v] < 0 || parttab[v] >= (SCOTCH_Num)1 << n)
            what = "Scotch returned a processor outside the cube";
        else
            out[v] = (int)parttab[v];
    }
    if (what)
        rc = fail(err, errlen, HD_EINVAL, "Scotch onto hcub %d: %s", n, what);
    SCOTCH_stratExit(&strat);
    SCOTCH_archExit(&arch);
    SCOTCH_graphExit(&bound);
    SCOTCH_graphExit(&graph);
    SCOTCH_contextExit(&context);
    free(verttab);
    free(edgetab);
    free(edlotab);
    free(parttab);
    return rc;
}

int hd_fem_scotch(const hd_graph *nb, int n, int *proc, char *err, size_t errlen)
{
    int rc = check_graph(nb, n, 30, proc, err, errlen);
    if (rc != HD_OK || nb->n == 0)
        return rc;
    if (n == 0) {
        /* One processor (Scotch's hcub 0 divides by zero). */
        memset(proc, 0, (size_t)nb->n * sizeof *proc);
        return HD_OK;
    }
    return scotch_map(nb->n, nb->xadj, nb->adj, NULL, n, proc, err, errlen);
}

/* ----------------------------------------------------------------- METIS */

static int max_load(const idx_t *part, int N, int nparts, int *count)
{
    memset(count, 0, (size_t)nparts * sizeof *count);
    int most = 0;
    for (int v = 0; v < N; v++)
        if (++count[part[v]] > most)
            most = count[part[v]];
    return most;
}

static int metis_status(int status, const char *routine, char *err, size_t errlen)
{
    if (status == METIS_OK)
        return HD_OK;
    if (status == METIS_ERROR_MEMORY)
        return fail(err, errlen, HD_ENOMEM, "%s: out of memory", routine);
    return fail(err, errlen, HD_EINVAL, "%s failed (status %d)", routine, status);
}

/* METIS's partition of the N > nparts nodes into nparts >= 2 parts:
 * METIS_PartGraphKway, edge cut objective, any part shapes, seed fixed.
 * On graphs of few nodes per part k-way misses its own balance (a 16 x 16
 * grid into 256 parts puts 9 nodes on one): then the recursive bisection
 * is run too and the partition with the lighter heaviest part kept. */
static int metis_parts(const hd_graph *g, int nparts, int *part, char *err, size_t errlen)
{
    int N = g->n, ne = g->xadj[N];
    idx_t *xadj = malloc(((size_t)N + 1) * sizeof *xadj);
    idx_t *adjncy = malloc(((size_t)ne + 1) * sizeof *adjncy);
    idx_t *kway = malloc((size_t)N * sizeof *kway);
    idx_t *rb = malloc((size_t)N * sizeof *rb);
    int *count = malloc((size_t)nparts * sizeof *count);
    int rc = HD_OK;
    if (!xadj || !adjncy || !kway || !rb || !count) {
        rc = fail(err, errlen, HD_ENOMEM, "out of memory for METIS's graph");
        goto out;
    }
    for (int v = 0; v <= N; v++)
        xadj[v] = g->xadj[v];
    for (int e = 0; e < ne; e++)
        adjncy[e] = g->adj[e];

    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = BASELINE_SEED;
    options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;
    options[METIS_OPTION_CONTIG] = 0;
    options[METIS_OPTION_NUMBERING] = 0;
    options[METIS_OPTION_UFACTOR] = METIS_UFACTOR;
    idx_t nv = N, ncon = 1, np = nparts, cut;
    rc = metis_status(METIS_PartGraphKway(&nv, &ncon, xadj, adjncy, NULL, NULL, NULL, &np,
                                          NULL, NULL, options, &cut, kway),
                      "METIS_PartGraphKway", err, errlen);
    if (rc != HD_OK)
        goto out;
    const idx_t *best = kway;
    /* METIS's bound on a part: (1 + ufactor / 1000) N / nparts. */
    long long bound = ((long long)N * (1000 + METIS_UFACTOR) + 1000LL * nparts - 1)
                      / (1000LL * nparts);
    int kway_most = max_load(kway, N, nparts, count);
    if (kway_most > bound) {
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = BASELINE_SEED;
        options[METIS_OPTION_NUMBERING] = 0;
        rc = metis_status(METIS_PartGraphRecursive(&nv, &ncon, xadj, adjncy, NULL, NULL, NULL,
                                                   &np, NULL, NULL, options, &cut, rb),
                          "METIS_PartGraphRecursive", err, errlen);
        if (rc != HD_OK)
            goto out;
        if (max_load(rb, N, nparts, count) < kway_most)
            best = rb;
    }
    for (int v = 0; v < N; v++) {
        if (best[v] < 0 || best[v] >= nparts) {
            rc = fail(err, errlen, HD_EINVAL, "METIS returned a part outside 0 .. %d", nparts - 1);
            goto out;
        }
        part[v] = (int)best[v];
    }
out:
    free(xadj);
    free(adjncy);
    free(kway);
    free(rb);
    free(count);
    return rc;
}

/* ---------------------------------------------------------- relabelling */

/*
 * The quotient graph of a partition: one vertex per part, an edge k-l of
 * weight w_kl = c_kl + c_lk, where c_kl is the number of distinct nodes of
 * part k with an NB neighbour in part l (Chung and Ranka 1990, Section
 * 2.3: the words k sends l).  c_kl > 0 exactly when c_lk > 0, as NB is
 * symmetric, so the pattern is symmetric.  Rows sorted.
 */
typedef struct {
    int k;              /* parts */
    int *xadj, *adj;    /* CSR, xadj[k] + 1 and xadj[k] entries */
    int *w;             /* w_kl per entry */
} quotient;

static void quotient_free(quotient *q)
{
    free(q->xadj);
    free(q->adj);
    free(q->w);
    q->xadj = q->adj = q->w = NULL;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The entry of l in part k's sorted row (it exists: the pattern is
 * symmetric). */
static int entry_of(const quotient *q, int k, int l)
{
    const int *row = q->adj + q->xadj[k];
    const int *hit = bsearch(&l, row, (size_t)(q->xadj[k + 1] - q->xadj[k]), sizeof *row,
                             cmp_int);
    return (int)(hit - q->adj);
}

static int quotient_build(const hd_graph *g, const int *part, int k, quotient *q)
{
    int N = g->n;
    int *first = calloc((size_t)k + 1, sizeof *first);   /* nodes by part */
    int *order = malloc(((size_t)N + 1) * sizeof *order);
    int *seen = malloc((size_t)k * sizeof *seen);        /* last node to see a part */
    int *acc = calloc((size_t)k, sizeof *acc);           /* c_kl of the row at hand */
    int *touched = malloc((size_t)k * sizeof *touched);
    int *c = NULL;
    size_t cap = 0, len = 0;
    memset(q, 0, sizeof *q);
    q->k = k;
    q->xadj = calloc((size_t)k + 1, sizeof *q->xadj);
    int rc = HD_OK;
    if (!first || !order || !seen || !acc || !touched || !q->xadj) {
        rc = HD_ENOMEM;
        goto out;
    }
    for (int v = 0; v < N; v++)
        first[part[v] + 1]++;
    for (int p = 0; p < k; p++)
        first[p + 1] += first[p];
    for (int v = 0; v < N; v++)
        order[first[part[v]]++] = v;
    for (int p = k; p > 0; p--)
        first[p] = first[p - 1];
    first[0] = 0;
    for (int p = 0; p < k; p++)
        seen[p] = -1;

    for (int p = 0; p < k; p++) {
        int ntouched = 0;
        for (int i = first[p]; i < first[p + 1]; i++) {
            int v = order[i];
            for (int e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
                int l = part[g->adj[e]];
                if (l == p || seen[l] == v)
                    continue;           /* v is one word for l, however many it neighbours */
                seen[l] = v;
                if (acc[l]++ == 0)
                    touched[ntouched++] = l;
            }
        }
        qsort(touched, (size_t)ntouched, sizeof *touched, cmp_int);
        if (len + (size_t)ntouched > cap) {
            size_t nc = cap ? 2 * cap : 64;
            while (nc < len + (size_t)ntouched)
                nc *= 2;
            int *na = realloc(q->adj, nc * sizeof *na);
            if (na)
                q->adj = na;
            int *ncnt = na ? realloc(c, nc * sizeof *ncnt) : NULL;
            if (!na || !ncnt) {
                rc = HD_ENOMEM;
                goto out;
            }
            c = ncnt;
            cap = nc;
        }
        for (int i = 0; i < ntouched; i++) {
            q->adj[len] = touched[i];
            c[len++] = acc[touched[i]];
            acc[touched[i]] = 0;
        }
        if (len > INT_MAX) {
            rc = HD_ENOMEM;
            goto out;
        }
        q->xadj[p + 1] = (int)len;
    }
    q->w = malloc((len + 1) * sizeof *q->w);
    if (!q->w) {
        rc = HD_ENOMEM;
        goto out;
    }
    for (int p = 0; p < k; p++)
        for (int e = q->xadj[p]; e < q->xadj[p + 1]; e++)
            q->w[e] = c[e] + c[entry_of(q, q->adj[e], p)];
out:
    free(first);
    free(order);
    free(seen);
    free(acc);
    free(touched);
    free(c);
    if (rc != HD_OK)
        quotient_free(q);
    return rc;
}

static int hops(unsigned a, unsigned b)
{
    return __builtin_popcount(a ^ b);
}

/*
 * The word-hops of a labelling: sum over k != l of c_kl H(lab k, lab l),
 * H the Hamming distance, i.e. the words times the e-cube hops they make
 * (each w_kl is counted from both ends, hence the half).  A proxy of
 * Section 2.3's C: C also counts the steps (T_setup each) and only the
 * busiest channel of a step, which need fem_cost.c's simulation of the
 * routing; the word-hops are what Scotch's hcub mapping minimises too.
 */
static long long word_hops(const quotient *q, const int *lab)
{
    long long sum = 0;
    for (int p = 0; p < q->k; p++)
        for (int e = q->xadj[p]; e < q->xadj[p + 1]; e++)
            sum += (long long)q->w[e] * hops((unsigned)lab[p], (unsigned)lab[q->adj[e]]);
    return sum / 2;
}

/* The change of the word-hops when part a moves to processor to and the
 * part b there (or none, b < 0) moves to a's. */
static long long swap_gain(const quotient *q, const int *lab, int a, unsigned to, int b)
{
    unsigned from = (unsigned)lab[a];
    long long d = 0;
    for (int e = q->xadj[a]; e < q->xadj[a + 1]; e++) {
        int l = q->adj[e];
        if (l != b)     /* a-b keeps its distance: they trade places */
            d += (long long)q->w[e] * (hops(to, (unsigned)lab[l]) - hops(from, (unsigned)lab[l]));
    }
    if (b >= 0)
        for (int e = q->xadj[b]; e < q->xadj[b + 1]; e++) {
            int l = q->adj[e];
            if (l != a)
                d += (long long)q->w[e]
                     * (hops(from, (unsigned)lab[l]) - hops(to, (unsigned)lab[l]));
        }
    return d;
}

/*
 * Local improvement of an injective labelling of the parts: a part a is
 * tried on each processor at most one bit from a neighbour's (where it
 * can gain), trading places with the part there if any, and the first
 * trade that lowers the word-hops is made.  Passes until none does (or
 * MAX_PASSES).  owner: 2^n entries, scratch.
 */
static void improve(const quotient *q, int n, int *lab, int *owner)
{
    for (size_t x = 0; x < (size_t)1 << n; x++)
        owner[x] = -1;
    for (int p = 0; p < q->k; p++)
        owner[lab[p]] = p;
    for (int pass = 0; pass < MAX_PASSES; pass++) {
        bool changed = false;
        for (int a = 0; a < q->k; a++)
            for (int e = q->xadj[a]; e < q->xadj[a + 1]; e++)
                for (int bit = -1; bit < n; bit++) {
                    unsigned to = (unsigned)lab[q->adj[e]] ^ (bit < 0 ? 0u : 1u << bit);
                    int b = owner[to];
                    if (to == (unsigned)lab[a] || swap_gain(q, lab, a, to, b) >= 0)
                        continue;
                    owner[lab[a]] = b;
                    if (b >= 0)
                        lab[b] = lab[a];
                    owner[to] = a;
                    lab[a] = (int)to;
                    changed = true;
                }
        if (!changed)
            break;
    }
}

/* Scotch's mapping of the quotient graph onto the cube, made injective:
 * a part whose processor an earlier part took goes to a free processor
 * one bit away, or else the lowest free one.  used: 2^n entries. */
static int scotch_labels(const quotient *q, int n, int *lab, char *used, char *err,
                         size_t errlen)
{
    int rc = scotch_map(q->k, q->xadj, q->adj, q->w, n, lab, err, errlen);
    if (rc != HD_OK)
        return rc;
    size_t P = (size_t)1 << n, lowest = 0;
    memset(used, 0, P);
    for (int p = 0; p < q->k; p++) {
        if (!used[lab[p]]) {
            used[lab[p]] = 1;
            continue;
        }
        lab[p] = -1;
    }
    for (int p = 0; p < q->k; p++) {
        if (lab[p] >= 0)
            continue;
        int at = -1;
        /* where Scotch wanted it is lost; near a placed neighbour instead */
        for (int e = q->xadj[p]; at < 0 && e < q->xadj[p + 1]; e++) {
            int l = lab[q->adj[e]];
            for (int bit = 0; l >= 0 && at < 0 && bit < n; bit++)
                if (!used[l ^ (1 << bit)])
                    at = l ^ (1 << bit);
        }
        while (at < 0 && lowest < P)
            if (!used[lowest++])
                at = (int)lowest - 1;
        used[at] = 1;
        lab[p] = at;
    }
    return HD_OK;
}

/* Two labellings of the k <= 2^n parts onto distinct processors of the
 * n-cube (n >= 1), each improved by improve(): METIS's own numbering into
 * lab, Scotch's quotient mapping into other. */
static int relabel(const quotient *q, int n, int *lab, int *other, char *err, size_t errlen)
{
    size_t P = (size_t)1 << n;
    int *owner = malloc(P * sizeof *owner);
    char *used = malloc(P);
    int rc = HD_OK;
    if (!owner || !used) {
        rc = fail(err, errlen, HD_ENOMEM, "out of memory for the relabelling");
        goto out;
    }
    for (int p = 0; p < q->k; p++)
        lab[p] = p;
    improve(q, n, lab, owner);
    rc = scotch_labels(q, n, other, used, err, errlen);
    if (rc != HD_OK)
        goto out;
    improve(q, n, other, owner);
out:
    free(owner);
    free(used);
    return rc;
}

/* C under ch of the mapping lab gives the parts (Section 2.3, the
 * paper's own measure), then the word-hops: lower is better. */
static int better(const hd_graph *g, int n, hd_fem_channels ch, const hd_fem_times *t,
                  const quotient *q, const int *part, const int *a, const int *b, int *proc,
                  bool *b_wins)
{
    double c[2];
    const int *labs[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        for (int v = 0; v < g->n; v++)
            proc[v] = labs[k][part[v]];
        hd_fem_report r;
        if (hd_fem_cost(g, n, proc, t, &r) != HD_OK)
            return HD_ENOMEM;
        c[k] = r.c_us[ch];
        hd_fem_report_free(&r);
    }
    *b_wins = c[1] < c[0] || (c[1] == c[0] && word_hops(q, b) < word_hops(q, a));
    return HD_OK;
}

/*
 * METIS's partition, relabelled: the swaps minimise the word-hops (a
 * proxy, cheap to update), and of the two improved labellings the one of
 * least C under `ch` (Section 2.3) is kept.
 */
int hd_fem_metis(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                 int *proc, char *err, size_t errlen)
{
    int rc = check_graph(nb, n, METIS_MAX_DIM, proc, err, errlen);
    if (rc != HD_OK || nb->n == 0)
        return rc;
    int N = nb->n;
    if (n == 0) {
        memset(proc, 0, (size_t)N * sizeof *proc);
        return HD_OK;
    }
    int k = 1 << n;
    int *part = malloc((size_t)N * sizeof *part);
    if (!part)
        return fail(err, errlen, HD_ENOMEM, "out of memory for the parts");
    if (N <= k) {
        /* Each node its own part, the balance METIS would aim at: METIS
         * cannot cut a graph into more parts than it has nodes (k-way
         * then leaves everything in one part). */
        k = N;
        for (int v = 0; v < N; v++)
            part[v] = v;
    } else {
        rc = metis_parts(nb, k, part, err, errlen);
    }
    quotient q = { 0 };
    int *lab = NULL, *other = NULL;
    if (rc == HD_OK) {
        rc = quotient_build(nb, part, k, &q);
        if (rc != HD_OK)
            fail(err, errlen, rc, "out of memory for the quotient graph");
    }
    if (rc == HD_OK) {
        lab = malloc((size_t)k * sizeof *lab);
        other = malloc((size_t)k * sizeof *other);
        rc = lab && other ? relabel(&q, n, lab, other, err, errlen)
                          : fail(err, errlen, HD_ENOMEM, "out of memory for the labels");
    }
    bool other_wins = false;
    if (rc == HD_OK && better(nb, n, ch, t, &q, part, lab, other, proc, &other_wins) != HD_OK)
        rc = fail(err, errlen, HD_ENOMEM, "out of memory for the cost of the relabelling");
    if (rc == HD_OK)
        for (int v = 0; v < N; v++)
            proc[v] = (other_wins ? other : lab)[part[v]];
    quotient_free(&q);
    free(lab);
    free(other);
    free(part);
    return rc;
}
