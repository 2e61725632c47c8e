/*
 * transport_mpi.c — libhyperdo-mpi.a's transport: one MPI rank per
 * processor (physical p is rank p of a duplicate of MPI_COMM_WORLD).
 *
 * v_send copies the data and starts an MPI_Isend; the request and the
 * copy are kept until the send completes (every send and receive tests
 * the pending ones and frees the finished; hd__tr_finish waits for all).
 * No send ever waits for its receiver, so no exchange pattern of any
 * size deadlocks.  v_receive probes for the next message from the rank,
 * checks its size (MPI_Get_count), then receives it.
 */
#include "hd_internal.h"

#include <mpi.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char hd__tr_name[] = "MPI";
const int hd__tr_shared = 0;

#define TAG 0x4844

static MPI_Comm comm = MPI_COMM_NULL;
static int rank = -1;
static int we_initialised;

/* Pending sends: requests and the copies they send. */
static MPI_Request *reqs;
static void **bufs;
static size_t *sizes;
static int *done_idx;
/* Statuses, though unused: MPI_STATUSES_IGNORE trips GCC's access checks
 * on MPICH's annotated prototypes. */
static MPI_Status *stats;
static int npending, cap;

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(err, s, &len);
        hd__fatal("%s failed: %s", what, s);
    }
}

void hd__tr_start(int nprocs, int *argc, char ***argv, void (*node_main)(void))
{
    int initialised = 0, size = 0, r = -1;
    (void)node_main;
    MPI_Initialized(&initialised);
    if (!initialised) {
        MPI_Init(argc, argv);
        we_initialised = 1;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &r);
    if (size != nprocs) {
        /* rank stays -1, so the message names no processor. */
        if (r == 0) {
            int n = 0;
            while ((1 << n) < nprocs)
                n++;
            hd__fatal("started with %d MPI rank%s, but the program runs on 2^%d = %d "
                      "processors: run it with mpiexec -n %d",
                      size, size == 1 ? "" : "s", n, nprocs, nprocs);
        }
        /* The others wait for rank 0's abort, so that its message is shown. */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    rank = r;
}

int hd__tr_self(void)
{
    return rank;
}

/* Frees the copies of the sends that have completed. */
static void progress(void)
{
    int outcount = 0, k = 0;
    if (npending == 0)
        return;
    check(MPI_Testsome(npending, reqs, &outcount, done_idx, stats), "MPI_Testsome");
    if (outcount == 0 || outcount == MPI_UNDEFINED)
        return;
    for (int i = 0; i < outcount; i++) {
        hd__buf_put(bufs[done_idx[i]], sizes[done_idx[i]]);
        bufs[done_idx[i]] = NULL;
    }
    for (int i = 0; i < npending; i++) {
        if (reqs[i] != MPI_REQUEST_NULL) {
            reqs[k] = reqs[i];
            bufs[k] = bufs[i];
            sizes[k] = sizes[i];
            k++;
        }
    }
    npending = k;
}

void hd__tr_send(int p, const void *data, size_t size)
{
    void *copy = NULL;
    progress();
    if (npending == cap) {
        int ncap = cap ? 2 * cap : 64;
        MPI_Request *r = realloc(reqs, sizeof *r * (size_t)ncap);
        void **b = r ? realloc(bufs, sizeof *b * (size_t)ncap) : NULL;
        size_t *z = b ? realloc(sizes, sizeof *z * (size_t)ncap) : NULL;
        int *d = z ? realloc(done_idx, sizeof *d * (size_t)ncap) : NULL;
        MPI_Status *s = d ? realloc(stats, sizeof *s * (size_t)ncap) : NULL;
        if (r)
            reqs = r;
        if (b)
            bufs = b;
        if (z)
            sizes = z;
        if (d)
            done_idx = d;
        if (!s)
            hd__fatal("v_send: out of memory");
        stats = s;
        cap = ncap;
    }
    if (size > 0) {
        if (!(copy = hd__buf_get(size)))
            hd__fatal("v_send: out of memory for a message of %zu bytes", size);
        memcpy(copy, data, size);
    }
    sizes[npending] = size;
#if MPI_VERSION >= 4
    check(MPI_Isend_c(copy, (MPI_Count)size, MPI_BYTE, p, TAG, comm, &reqs[npending]),
          "MPI_Isend");
#else
    if (size > INT_MAX)
        hd__fatal("v_send: a message of %zu bytes needs an MPI 4 library", size);
    check(MPI_Isend(copy, (int)size, MPI_BYTE, p, TAG, comm, &reqs[npending]), "MPI_Isend");
#endif
    bufs[npending++] = copy;
}

size_t hd__tr_recv(int p, void *data, size_t size)
{
    MPI_Status st;
    size_t got;
    progress();
    check(MPI_Probe(p, TAG, comm, &st), "MPI_Probe");
#if MPI_VERSION >= 4
    {
        MPI_Count count = 0;
        check(MPI_Get_count_c(&st, MPI_BYTE, &count), "MPI_Get_count");
        got = (size_t)count;
    }
    if (got != size)
        return got;
    check(MPI_Recv_c(data, (MPI_Count)size, MPI_BYTE, p, TAG, comm, MPI_STATUS_IGNORE),
          "MPI_Recv");
#else
    {
        int count = 0;
        check(MPI_Get_count(&st, MPI_BYTE, &count), "MPI_Get_count");
        got = (size_t)count;
    }
    if (got != size)
        return got;
    check(MPI_Recv(data, (int)size, MPI_BYTE, p, TAG, comm, MPI_STATUS_IGNORE), "MPI_Recv");
#endif
    return got;
}

void hd__tr_barrier(void)
{
    progress();
    check(MPI_Barrier(comm), "MPI_Barrier");
}

void hd__tr_finish(void)
{
    if (npending > 0)
        check(MPI_Waitall(npending, reqs, stats), "MPI_Waitall");
    for (int i = 0; i < npending; i++)
        hd__buf_put(bufs[i], sizes[i]);
    npending = 0;
    hd__buf_flush();
    free(reqs);
    free(bufs);
    free(sizes);
    sizes = NULL;
    free(done_idx);
    free(stats);
    stats = NULL;
    reqs = NULL;
    bufs = NULL;
    done_idx = NULL;
    cap = 0;
    MPI_Comm_free(&comm);
    rank = -1;
    if (we_initialised)
        MPI_Finalize();
}

void hd__tr_coll(const void *sched, double bytes)
{
    (void)sched;
    (void)bytes;   /* only the sim back end times collectives */
}

void hd__tr_abort(void)
{
    int initialised = 0, finalised = 0;
    fflush(stdout);
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    if (initialised && !finalised) {
        /* mpiexec forwards a rank's stderr through a pipe, and on an abort
         * it may kill the job before it has read the message just written
         * (seen under load: status 1, empty stderr).  A moment first. */
        struct timespec pause = { 0, 200 * 1000 * 1000 };
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    _exit(1);
}
