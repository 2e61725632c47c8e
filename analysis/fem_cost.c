/*
 * fem_cost.c — what a mapping of a finite element graph onto the n-cube
 * costs, as Chung and Ranka 1990 define it (Section 2.3; docs/meshes.md):
 *
 *   c_kl   the nodes of processor k that have an NB neighbour on l, each
 *          sent once, one word (the reading, which the tables
 *          confirm: counting node pairs gives other speedups);
 *   a step every processor forwards what it holds one e-cube hop (lowest
 *          differing bit first, Fig. 3(a)); data relayed in a step leaves
 *          in a later one (store-and-forward: the update of C waits for
 *          the end of the step, which Fig. 3(b) needs);
 *   bi     every channel carries both directions in a step;
 *   uni    a link carries one direction: the end whose bit of the link's
 *          dimension equals `toggle` sends if it has anything for it, the
 *          other end only if not; toggle flips every step;
 *   C      the sum over steps of T_setup + (most words on one directed
 *          channel) T_c (Eq. 3), run while any c_ab > 0 with a != b (the
 *          printed loops stop on "neighbour"/"adjacent" data, which would
 *          leave two-hop data unsent).
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* Words that processor `at` holds for processor `to`. */
typedef struct {
    uint32_t at, to;
    long long words;
} parcel;

static int by_at_to(const void *a, const void *b)
{
    const parcel *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

static uint32_t next_hop(uint32_t at, uint32_t to)
{
    uint32_t diff = at ^ to;
    return at ^ (diff & -diff);
}

/* The parcels sorted by (at, to) with equal ones merged; returns the
 * new count. */
static size_t merge(parcel *p, size_t m)
{
    qsort(p, m, sizeof *p, by_at_to);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (k > 0 && p[k - 1].at == p[i].at && p[k - 1].to == p[i].to)
            p[k - 1].words += p[i].words;
        else
            p[k++] = p[i];
    }
    return k;
}

/* c_kl as parcels at k for l: each node's distinct other processors among
 * its NB neighbours. */
static parcel *needs(const hd_graph *nb, const int *proc, size_t *count)
{
    size_t cap = (size_t)(nb->n > 0 ? nb->xadj[nb->n] : 0) + 1, m = 0;
    parcel *p = malloc(cap * sizeof *p);
    uint32_t *seen = malloc(cap * sizeof *seen);
    if (!p || !seen) {
        free(p);
        free(seen);
        return NULL;
    }
    for (int v = 0; v < nb->n; v++) {
        size_t s = 0;
        for (int e = nb->xadj[v]; e < nb->xadj[v + 1]; e++) {
            uint32_t q = (uint32_t)proc[nb->adj[e]];
            bool dup = q == (uint32_t)proc[v];
            for (size_t i = 0; i < s && !dup; i++)
                dup = seen[i] == q;
            if (!dup)
                seen[s++] = q;
        }
        for (size_t i = 0; i < s; i++)
            p[m++] = (parcel){ (uint32_t)proc[v], seen[i], 1 };
    }
    free(seen);
    *count = merge(p, m);
    return p;
}

/* One step's channel loads: the parcels that move (their at -> next hop)
 * summed per directed channel; the largest. */
static long long busiest(parcel *moving, size_t m)
{
    for (size_t i = 0; i < m; i++)
        moving[i].to = next_hop(moving[i].at, moving[i].to);
    size_t channels = merge(moving, m);
    long long most = 0;
    for (size_t i = 0; i < channels; i++)
        if (moving[i].words > most)
            most = moving[i].words;
    return most;
}

/* Appends a step's maximum to *steps (grown as needed). */
static int push_step(hd_fem_report *r, int model, long long most, size_t *cap)
{
    if ((size_t)r->steps[model] == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        long long *s = realloc(r->step_max[model], nc * sizeof *s);
        if (!s)
            return HD_ENOMEM;
        r->step_max[model] = s;
        *cap = nc;
    }
    r->step_max[model][r->steps[model]++] = most;
    return HD_OK;
}

/* Runs Section 2.3's loop for one model over a copy of the c_kl parcels. */
static int run(const parcel *c, size_t m, int model, hd_fem_report *r)
{
    parcel *pend = malloc((m ? m : 1) * sizeof *pend);
    parcel *moving = malloc((m ? m : 1) * sizeof *moving);
    bool *goes = malloc((m ? m : 1) * sizeof *goes);
    if (!pend || !moving || !goes) {
        free(pend);
        free(moving);
        free(goes);
        return HD_ENOMEM;
    }
    memcpy(pend, c, m * sizeof *pend);
    size_t cap = 0;
    int toggle = 0, rc = HD_OK;
    while (m > 0 && rc == HD_OK) {
        for (size_t i = 0; i < m; i++) {
            uint32_t l = next_hop(pend[i].at, pend[i].to), k = pend[i].at ^ l;
            /* uni: the priority end (its bit k is toggle) always sends;
             * the other only where the priority end sends nothing over
             * the same link this step. */
            goes[i] = model == HD_FEM_BI || (((pend[i].at & k) != 0) == toggle);
        }
        if (model == HD_FEM_UNI) {
            /* The channels the priority ends claim, (from, next hop)
             * sorted; a parcel of the other end goes where its link's
             * reverse is not among them. */
            size_t nc = 0;
            for (size_t i = 0; i < m; i++)
                if (goes[i])
                    moving[nc++] = (parcel){ pend[i].at, next_hop(pend[i].at, pend[i].to), 0 };
            nc = merge(moving, nc);
            for (size_t i = 0; i < m; i++) {
                if (goes[i])
                    continue;
                parcel rev = { next_hop(pend[i].at, pend[i].to), pend[i].at, 0 };
                goes[i] = !bsearch(&rev, moving, nc, sizeof *moving, by_at_to);
            }
        }
        size_t nm = 0, keep = 0;
        for (size_t i = 0; i < m; i++)
            if (goes[i])
                moving[nm++] = pend[i];
        long long most = busiest(moving, nm);
        rc = push_step(r, model, most, &cap);
        /* Relayed parcels reach their next hop at the end of the step. */
        for (size_t i = 0; i < m; i++) {
            if (!goes[i]) {
                pend[keep++] = pend[i];
                continue;
            }
            uint32_t l = next_hop(pend[i].at, pend[i].to);
            if (l != pend[i].to)
                pend[keep++] = (parcel){ l, pend[i].to, pend[i].words };
        }
        m = merge(pend, keep);
        toggle ^= 1;
    }
    free(pend);
    free(moving);
    free(goes);
    return rc;
}

void hd_fem_report_free(hd_fem_report *r)
{
    free(r->step_max[0]);
    free(r->step_max[1]);
    r->step_max[0] = r->step_max[1] = NULL;
}

/* Eqs. 8.1-9.2: the best and worst cases of a load-balanced neighbour
 * mapping, log M = n, c = ceil(N / M). */
static void bounds(hd_fem_report *r, const hd_fem_times *t)
{
    if (r->n == 0 || r->N == 0) {
        for (int k = 0; k < 2; k++)
            r->eubs[k] = r->elbs[k] = r->N ? 1 : 0;
        r->elbs_bi_printed = r->elbs[HD_FEM_BI];
        return;
    }
    double seq = r->N * t->task_us, c = (double)((r->N + (1 << r->n) - 1) >> r->n);
    double cw = c * t->word_us, ct = c * t->task_us;
    r->eubs[HD_FEM_BI] = seq / (ct + t->setup_us + 2 * t->word_us);
    r->elbs[HD_FEM_BI] = seq / (ct + 2 * t->setup_us + (2 * r->n - 1) * cw);
    r->eubs[HD_FEM_UNI] = seq / (ct + 2 * (t->setup_us + 2 * t->word_us));
    r->elbs[HD_FEM_UNI] = seq / (ct + 4 * t->setup_us + (4 * r->n - 2) * cw);
    /* What Tables 1-3 print for ELBS_bi: 20 of their 21 values are this
     * to two decimals, none is Eq. 8.2 (docs/meshes.md). */
    r->elbs_bi_printed = seq / (ct + 2 * t->setup_us + (2 * r->n - 1) * cw + 200);
}

int hd_fem_cost(const hd_graph *nb, int n, const int *proc, const hd_fem_times *t,
                hd_fem_report *out)
{
    memset(out, 0, sizeof *out);
    if (n < 0 || n > 30)
        return HD_EINVAL;
    int N = nb->n;
    int64_t M = INT64_C(1) << n;
    for (int v = 0; v < N; v++)
        if (proc[v] < 0 || proc[v] >= M)
            return HD_EINVAL;
    out->n = n;
    out->N = N;
    int *load = calloc((size_t)M, sizeof *load);
    if (!load)
        return HD_ENOMEM;
    for (int v = 0; v < N; v++)
        if (++load[proc[v]] > out->max_load)
            out->max_load = load[proc[v]];
    free(load);
    out->lbc = out->max_load == (int)((N + M - 1) / M);
    out->neighbour_mapping = true;
    for (int v = 0; v < N; v++)
        for (int e = nb->xadj[v]; e < nb->xadj[v + 1]; e++)
            if (nb->adj[e] > v) {
                int d = __builtin_popcount((unsigned)(proc[v] ^ proc[nb->adj[e]]));
                out->dilation[d]++;
                out->neighbour_mapping &= d <= 2;
            }
    size_t m;
    parcel *c = needs(nb, proc, &m);
    if (!c)
        return HD_ENOMEM;
    for (size_t i = 0; i < m; i++)
        out->words += c[i].words;
    int rc = run(c, m, HD_FEM_BI, out);
    if (rc == HD_OK)
        rc = run(c, m, HD_FEM_UNI, out);
    free(c);
    if (rc != HD_OK) {
        hd_fem_report_free(out);
        return rc;
    }
    for (int k = 0; k < 2; k++) {
        for (int s = 0; s < out->steps[k]; s++)
            out->c_us[k] += t->setup_us + (double)out->step_max[k][s] * t->word_us;
        out->tpar_us[k] = out->max_load * t->task_us + out->c_us[k];
        out->speedup[k] = out->tpar_us[k] > 0 ? N * t->task_us / out->tpar_us[k] : 0;
    }
    bounds(out, t);
    return HD_OK;
}
