/*
 * sim_coll.c — collectives timed by the sim back end's link-bound model
 * (HYPERDO_SIM_MODEL=linkbound): BROADCAST 2 of 120 bytes, INVERSION of
 * 120 bytes and HISTOGRAM of 120 one-byte bins on the 3-cube.  With
 * HYPERDO_SIM_BETA=10 and HYPERDO_SIM_TAU=1 the report must give Stout and
 * Wagar 1990's hand-checked times 150, 150 and 65 (tests/coll/CMakeLists.txt).
 */
#include "hyperdo.h"
#include "hyperdo/coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void node(const void *env)
{
    (void)env;
    unsigned char buf[120], out[120], bins[120], mine[15];
    memset(buf, v_get_pid() == 0 ? 7 : 0, sizeof buf);
    hd_coll_bcast(buf, sizeof buf, 0);
    hd_coll_args a = { 0 };
    a.alg = HD_COLL_INVERSION;
    a.send = buf;
    a.recv = out;
    a.count = sizeof buf;
    a.size = 1;
    hd_coll_run(&a);
    memset(bins, 1, sizeof bins);
    hd_coll_reduce_scatter(bins, mine, sizeof mine, HD_T_UINT8, HD_OP_SUM);
    if (buf[0] != 7 || out[119] != 7 || mine[0] != 8) {
        printf("wrong data on processor %d\n", hd_get_pid());
        exit(3);
    }
}

static const hd_node_fn doalls[] = { node };

static int host_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    hd_doall(0, NULL, 0);
    printf("sim_coll done\n");
    return 0;
}

int main(int argc, char **argv)
{
    static const int ident[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    hd_program_desc prog = { "sim_coll.c", 3, ident, ident, 0, NULL, 1, doalls, host_main, NULL };
    return hd_run(&prog, argc, argv);
}
