/* fem_baselines.c — see analysis.h (Chung and Ranka 1990). */
#include "analysis.h"

#include <stdio.h>

int hd_fem_scotch(const hd_graph *nb, int n, int *proc, char *err, size_t errlen)
{
    (void)nb; (void)n; (void)proc;
    snprintf(err, errlen, "not written yet");
    return HD_EINVAL;
}

int hd_fem_metis(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                 int *proc, char *err, size_t errlen)
{
    (void)nb; (void)n; (void)ch; (void)t; (void)proc;
    snprintf(err, errlen, "not written yet");
    return HD_EINVAL;
}
