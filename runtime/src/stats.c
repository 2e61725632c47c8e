/*
 * stats.c — HYPERDO_STATS: what the program's doalls sent, for users
 * tuning a program and for the benchmarks (bench/bench_node.sh).
 *
 * With HYPERDO_STATS=FILE in the environment (- for stderr), the host
 * writes at exit, per doall: how often it ran, and the messages and bytes
 * its node functions sent with v_send (all processors, all runs: the
 * elements themselves and, for requests, the counts and the requests);
 * then, per array remapped at least once (hd_relayout: Wu 1984's remap
 * between two data mappings, a communication phase of its own), the same
 * for its remaps; then the host's own traffic, hd_scatter and hd_gather.
 * The run-time protocol's commands and environments are not counted.
 *
 * Each processor counts in its own row, so no counter is shared.  Under
 * threads the host reads the rows once the processors have stopped;
 * under MPI every other rank sends its row to the host after the EXIT
 * command, as the last message of the run.
 */
#include "hyperdo.h"
#include "hd_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t runs, messages, bytes;
} counts;

static int on;
static int nprocs, ndoalls, narrays;
static counts **rows;               /* rows[physical][doall], then [ndoalls + array] */
static uint64_t host_bytes[2], host_calls[2]; /* scatter, gather */
static _Thread_local int current = -1;  /* the row being counted */

/* Entries per processor: the doalls', then each array's remaps. */
static size_t row_entries(void)
{
    size_t k = (size_t)ndoalls + (size_t)narrays;
    return k ? k : 1;
}

void hd__stats_start(int P, int doalls, int arrays)
{
    const char *path = getenv("HYPERDO_STATS");
    on = path && *path;
    if (!on)
        return;
    nprocs = P;
    ndoalls = doalls;
    narrays = arrays;
    if (!(rows = calloc((size_t)P, sizeof *rows)))
        hd__fatal("HYPERDO_STATS: out of memory");
}

static counts *row(int p)
{
    if (!rows[p] && !(rows[p] = calloc(row_entries(), sizeof(counts))))
        hd__fatal("HYPERDO_STATS: out of memory");
    return rows[p];
}

void hd__stats_doall(int doall, int entering)
{
    if (!on)
        return;
    current = entering ? doall : -1;
    if (entering && hd__tr_self() == 0)
        row(0)[doall].runs++;
}

void hd__stats_remap(int array, int entering)
{
    if (!on)
        return;
    current = entering ? ndoalls + array : -1;
    if (entering && hd__tr_self() == 0)
        row(0)[ndoalls + array].runs++;
}

void hd__stats_send(size_t bytes)
{
    if (!on || current < 0)
        return;
    counts *c = &row(hd__tr_self())[current];
    c->messages++;
    c->bytes += bytes;
}

void hd__stats_host(int gather, size_t bytes)
{
    if (!on)
        return;
    host_calls[gather]++;
    host_bytes[gather] += bytes;
}

/* MPI, a rank other than the host, at EXIT: its row to the host. */
void hd__stats_node_exit(void)
{
    if (!on || hd__tr_shared)
        return;
    hd__tr_send(0, row(hd__tr_self()), row_entries() * sizeof(counts));
    for (int p = 0; p < nprocs; p++)
        free(rows[p]);
    free(rows);
    rows = NULL;
    on = 0;
}

/* The host, after the EXIT commands: the other ranks' rows (MPI). */
void hd__stats_collect(void)
{
    if (!on || hd__tr_shared)
        return;
    size_t size = row_entries() * sizeof(counts);
    for (int p = 1; p < nprocs; p++)
        if (hd__tr_recv(p, row(p), size) != size)
            hd__fatal("HYPERDO_STATS: processor %d sent a short report", p);
}

/* The host, once the processors have stopped: the report. */
void hd__stats_write(const char *source)
{
    if (!on)
        return;
    const char *path = getenv("HYPERDO_STATS");
    FILE *f = strcmp(path, "-") == 0 ? stderr : fopen(path, "w");
    if (!f) {
        fprintf(stderr, "hyperdo: warning: HYPERDO_STATS: cannot write %s\n", path);
    } else {
        fprintf(f, "# hyperdo stats: %s, %d processors (%s)\n", source ? source : "?", nprocs,
                hd__tr_name);
        fprintf(f, "# doall runs messages bytes  (v_send of the node functions, every "
                   "processor, every run)\n");
        for (int d = 0; d < ndoalls; d++) {
            counts sum = { row(0)[d].runs, 0, 0 };
            for (int p = 0; p < nprocs; p++)
                if (rows[p]) {
                    sum.messages += rows[p][d].messages;
                    sum.bytes += rows[p][d].bytes;
                }
            fprintf(f, "%d %llu %llu %llu\n", d, (unsigned long long)sum.runs,
                    (unsigned long long)sum.messages, (unsigned long long)sum.bytes);
        }
        for (int a = 0; a < narrays; a++) {
            int k = ndoalls + a;
            counts sum = { row(0)[k].runs, 0, 0 };
            if (!sum.runs)
                continue;
            for (int p = 0; p < nprocs; p++)
                if (rows[p]) {
                    sum.messages += rows[p][k].messages;
                    sum.bytes += rows[p][k].bytes;
                }
            const hd_array_desc *x = hd__array_desc(a);
            fprintf(f, "remap %s %llu %llu %llu\n", x && x->name ? x->name : "?",
                    (unsigned long long)sum.runs, (unsigned long long)sum.messages,
                    (unsigned long long)sum.bytes);
        }
        fprintf(f, "# host: %llu scatters %llu bytes, %llu gathers %llu bytes\n",
                (unsigned long long)host_calls[0], (unsigned long long)host_bytes[0],
                (unsigned long long)host_calls[1], (unsigned long long)host_bytes[1]);
        if (f != stderr)
            fclose(f);
    }
    for (int p = 0; p < nprocs; p++)
        free(rows[p]);
    free(rows);
    rows = NULL;
    on = 0;
}
