/*
 * sweep.c — raising the offered load until the network saturates
 * (Section 6.1 of Hou et al. 2001: "maximum sustainable network throughput").
 */
#include "sim.h"

#include <stdlib.h>

typedef struct {
    hd_sim_progress_fn fn;
    void *ctx;
    uint64_t run, runs;     /* this run's index, an upper bound of them */
} sweep_progress;

static void forward(void *ctx, uint64_t done, uint64_t total)
{
    sweep_progress *p = ctx;
    p->fn(p->ctx, p->run * total + done, p->runs * total);
}

static int by_offered(const void *a, const void *b)
{
    const hd_sim_open_result *x = a, *y = b;
    return (x->offered > y->offered) - (x->offered < y->offered);
}

/* The loads of the coarse pass: 0.02 .. 0.20 by 0.02, then by 0.05 to 1. */
static double coarse_load(int k)
{
    return k < 10 ? 0.02 * (k + 1) : 0.20 + 0.05 * (k - 9);
}

#define COARSE 26     /* 0.02 .. 1.00 */

int hd_sim_sweep(hd_sim *s, const hd_sim_traffic *t,
                 const hd_sim_open_config *cfg, int refine,
                 hd_sim_open_result *points, int max_points, int *npoints,
                 double *saturation)
{
    if (refine < 0 || max_points < COARSE + refine || !points || !npoints ||
        !saturation || !t || !cfg || t->count == 0)
        return HD_SIM_EINVAL;
    /* The offered load per router is rate * streams / routers. */
    double per_router = (double)t->count / (double)(UINT32_C(1) << hd_sim_dim(s));
    hd_sim_open_config c = *cfg;
    sweep_progress p = { cfg->progress, cfg->progress_ctx, 0,
                         (uint64_t)(COARSE + refine) };
    if (cfg->progress) {
        c.progress = forward;
        c.progress_ctx = &p;
    }
    int np = 0, rc;
    double good = 0, bad = -1;
    for (int k = 0; k < COARSE; k++) {
        double load = coarse_load(k);
        c.rate = load / per_router;
        rc = hd_sim_open(s, t, &c, &points[np]);
        if (rc != HD_SIM_OK)
            return rc;
        p.run++;
        if (points[np++].saturated) {
            bad = load;
            break;
        }
        good = load;
    }
    if (bad > 0) {
        /* Narrow the knee between the last sustainable load and the
         * first saturated one. */
        p.runs = p.run + (uint64_t)refine;
        for (int k = 0; k < refine; k++) {
            double load = (good + bad) / 2;
            c.rate = load / per_router;
            rc = hd_sim_open(s, t, &c, &points[np]);
            if (rc != HD_SIM_OK)
                return rc;
            p.run++;
            if (points[np++].saturated)
                bad = load;
            else
                good = load;
        }
    }
    qsort(points, (size_t)np, sizeof *points, by_offered);
    *npoints = np;
    *saturation = 0;
    for (int k = 0; k < np; k++)
        if (!points[k].saturated && points[k].accepted > *saturation)
            *saturation = points[k].accepted;
    return HD_SIM_OK;
}
