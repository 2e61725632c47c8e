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
 *          the end of the step, which Fig. 3(b) needs): runtime/sim/saf.c,
 *          which the sim back end shares;
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
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* c_kl as parcels from k to l: each node's distinct other processors
 * among its NB neighbours, one word each. */
static hd_saf_parcel *needs(const hd_graph *nb, const int *proc, size_t *count)
{
    size_t cap = (size_t)(nb->n > 0 ? nb->xadj[nb->n] : 0) + 1, m = 0;
    hd_saf_parcel *p = malloc(cap * sizeof *p);
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
            p[m++] = (hd_saf_parcel){ (uint32_t)proc[v], seen[i], 1 };
    }
    free(seen);
    *count = m;
    return p;
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
                out->edge_cut += d > 0;
                out->neighbour_mapping &= d <= 2;
            }
    size_t m;
    hd_saf_parcel *c = needs(nb, proc, &m);
    if (!c)
        return HD_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        out->words += c[i].words;
        out->word_hops += c[i].words * __builtin_popcount(c[i].src ^ c[i].dst);
    }
    int rc = hd_saf_run(c, m, HD_SAF_BI, &out->steps[HD_FEM_BI], &out->step_max[HD_FEM_BI]);
    if (rc == HD_SIM_OK)
        rc = hd_saf_run(c, m, HD_SAF_UNI, &out->steps[HD_FEM_UNI], &out->step_max[HD_FEM_UNI]);
    free(c);
    if (rc != HD_SIM_OK) {
        hd_fem_report_free(out);
        return HD_ENOMEM;
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
