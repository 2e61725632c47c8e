/*
 * bench_linkbound.c — the simulated link-bound time of each collective of
 * Stout and Wagar 1990 against Section 9's lower bound as the message
 * grows (docs/collectives.md, "Benchmarks"): the ratio tends to 1 where the
 * algorithm's highest-order term is optimal, and the start-up terms
 * dominate for short messages.  Exact times (runtime/coll/linkbound.c);
 * the pipelined algorithms use the paper's optimal g for each m.
 *
 *     bench_linkbound [D [TAU BETA]]      (defaults 6, 1, 100)
 */
#include <stdio.h>
#include <stdlib.h>

#include "linkbound.h"

int main(int argc, char **argv)
{
    int d = argc > 1 ? atoi(argv[1]) : 6;
    long tau = argc > 2 ? atol(argv[2]) : 1, beta = argc > 3 ? atol(argv[3]) : 100;
    static const long ms[] = { 10, 100, 1000, 10000, 100000, 1000000 };
    printf("# d = %d, tau = %ld, beta = %ld: simulated time / Section 9 lower bound\n", d, tau,
           beta);
    printf("%-17s", "algorithm");
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        printf(" %9s%ld", "m=", ms[i]);
    printf("\n");
    for (int a = 0; a < HD_COLL_NALGS; a++) {
        if (a == HD_COLL_DISTRIBUTE2)
            continue;
        int dd = (a == HD_COLL_TRANSPOSE_BLOCKS || a == HD_COLL_TRANSPOSE_LC) && d % 2 ? d - 1 : d;
        printf("%-17s", hd_coll_alg_name(a));
        for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
            hd_coll_shape sh = { a, dd, 0, 0, 0, 0, NULL, HD_RED_SCATTER };
            char err[256];
            hd_coll_sched *s = hd_coll_schedule(&sh, (double)ms[i], (double)tau, (double)beta, err,
                                                sizeof err);
            if (!s) {
                printf(" %11s", "-");
                continue;
            }
            hd_lb_result r;
            int ov = 0;
            hd_q lb = hd_lb_lower_bound(s, hd_q_int(tau), hd_q_int(beta), hd_q_int(ms[i]), &ov);
            if (hd_lb_simulate(s, hd_q_int(tau), hd_q_int(beta), hd_q_int(ms[i]), &r) || ov) {
                printf(" %11s", "error");
            } else {
                printf(" %11.4f", hd_q_double(r.time) / hd_q_double(lb));
            }
            hd_lb_result_free(&r);
            hd_coll_schedule_free(s);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
