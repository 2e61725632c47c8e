/*
 * common.c — the part of the run-time library shared by both back ends:
 * hd_run and its host/node protocol, hd_scatter/hd_gather, hd_local,
 * hd_exchange, and the v_* / hd_* calls of Fig. 1d with their checks.
 * The transport (hd_internal.h) only moves bytes between physical
 * processors.
 *
 * Protocol.  Every processor but the host (physical 0) loops on commands
 * from the host.  A command is one fixed-size message (hd_cmd); a DOALL
 * with a non-empty environment is followed by one message of env_size
 * bytes, a SCATTER by the processor's slice (host -> node), a GATHER is
 * answered by the slice (node -> host).  A RELAYOUT gives an array another
 * layout (its rows follow under MPI) and, when its elements move, starts
 * the remap's exchange, in which every processor takes part.  A BIND
 * gives a spread its number of elements (env_size), known only at run
 * time (hd_bind).  EXIT ends the loop with the host's status.  All of it goes over the same ordered channel as the
 * program's own v_send messages; the host only sends a command once its
 * own part of the previous doall is done, so the node functions' messages
 * from the host always come before the next command.
 */
#include "hyperdo.h"
#include "hd_internal.h"
#include "hyperdo/coll.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CMD_DOALL = 1, CMD_SCATTER, CMD_GATHER, CMD_EXIT, CMD_SYNC, CMD_RELAYOUT, CMD_BIND };

/* CMD_RELAYOUT's status bits. */
enum { RELAYOUT_MOVE = 1, RELAYOUT_WAS_ALIAS = 2, RELAYOUT_BIT_FIELD = 4 };

/* "HDcm": lets a node tell a command from a stray program message. */
#define CMD_MAGIC 0x6d634448u

typedef struct {
    uint32_t magic;
    int32_t op;
    int32_t id;     /* doall or array */
    int32_t status; /* EXIT: the host's status */
    uint64_t env_size;
} hd_cmd;

/* The running program.  One hd_run at a time per process; under threads
 * every processor reads these (written before the threads start). */
static const hd_program_desc *prog;
static int nprocs;
static int dim;
static volatile int running;
static int host_stopped;  /* the host has sent EXIT */
static int host_in_doall; /* the host is inside hd_doall's node function */
static _Thread_local int tl_node_code;   /* the same, for the host's thread only */
static void ***locals;    /* locals[p][array]: physical p's slices */
/* Host's view: aliased[a] when the slices of array a are runs of the
 * host's own copy, alias_base[a] (block layout, shared memory,
 * HD_ARRAY_HOST_STATIC); pending when some processor other than the host
 * may still be serving a command (a doall, or storing a scattered
 * slice). */
static unsigned char *aliased;
static const void **alias_base;
static int pending;

static char no_env; /* the environment of a doall without one */

/* ------------------------------------------------------- errors */

void hd__fatal(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    int p = running ? hd__tr_self() : -1;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (prog && prog->source && p >= 0)
        fprintf(stderr, "hyperdo: error: %s: processor %d (virtual %d): %s\n",
                prog->source, p, prog->to_virtual[p], msg);
    else if (p >= 0)
        fprintf(stderr, "hyperdo: error: processor %d (virtual %d): %s\n", p,
                prog->to_virtual[p], msg);
    else if (prog && prog->source)
        fprintf(stderr, "hyperdo: error: %s: %s\n", prog->source, msg);
    else
        fprintf(stderr, "hyperdo: error: %s\n", msg);
    fflush(stderr);
    hd__tr_abort();
}

/* The calling processor's physical id; aborts outside hd_run's processors. */
static int self(const char *fn)
{
    int p;
    if (!running)
        hd__fatal("%s called outside hd_run", fn);
    p = hd__tr_self();
    if (p < 0)
        hd__fatal("%s called from a thread that is not one of hd_run's processors", fn);
    return p;
}

static void check_vpid(const char *what, int vpid)
{
    if (vpid < 0 || vpid >= nprocs)
        hd__fatal("%s virtual processor %d: out of range 0 .. %d", what, vpid, nprocs - 1);
}

static const hd_array_desc *array_desc(const char *fn, int array)
{
    if (array < 0 || array >= prog->narrays)
        hd__fatal("%s: array %d out of range 0 .. %d", fn, array, prog->narrays - 1);
    return &prog->arrays[array];
}

const hd_array_desc *hd__array_desc(int array)
{
    if (!running || !prog || array < 0 || array >= prog->narrays)
        return NULL;
    return &prog->arrays[array];
}

void hd_index_error(const char *where, hd_index e, hd_index size)
{
    hd__fatal("%s: element %lld is outside the array's %lld elements", where ? where : "?",
              (long long)e, (long long)size);
}

static int host_only(const char *fn)
{
    int p = self(fn);
    if (p != 0)
        hd__fatal("%s called on a processor other than the host", fn);
    if (host_stopped)
        hd__fatal("%s called after the processors were stopped", fn);
    if (host_in_doall)
        hd__fatal("%s called inside a doall's node function", fn);
    return p;
}

/* ------------------------------------------------ Fig. 1d calls */

int hd_v_get_pid(void)
{
    return prog->to_virtual[self("v_get_pid")];
}

void hd_v_send(int vpid, const void *data, size_t size)
{
    self("v_send");
    check_vpid("v_send to", vpid);
    if (size > 0 && !data)
        hd__fatal("v_send to virtual processor %d: %zu bytes from a null pointer", vpid, size);
    hd__stats_send(size);
    hd__tr_send(prog->to_physical[vpid], data, size);
}

void hd_v_receive(int vpid, void *data, size_t size)
{
    size_t got;
    self("v_receive");
    check_vpid("v_receive from", vpid);
    if (size > 0 && !data)
        hd__fatal("v_receive from virtual processor %d: %zu bytes into a null pointer", vpid,
                  size);
    got = hd__tr_recv(prog->to_physical[vpid], data, size);
    if (got != size)
        hd__fatal("v_receive from virtual processor %d: the message has %zu bytes, %zu expected",
                  vpid, got, size);
}

void hd_v_barrier(void)
{
    self("v_barrier");
    hd__tr_barrier();
}

int hd_get_pid(void)
{
    return self("hd_get_pid");
}

int hd_nprocs(void)
{
    self("hd_nprocs");
    return nprocs;
}

int hd_dim(void)
{
    self("hd_dim");
    return dim;
}

int hd__in_node_code(void)
{
    /* The host's own flag, thread-local: the processors may ask while
     * the host sets host_in_doall. */
    return hd__tr_self() != 0 || tl_node_code;
}

int hd__virtual_of(int p)
{
    return prog->to_virtual[p];
}

int hd__physical_of(int v)
{
    return prog->to_physical[v];
}

/* -------------------------------------------- distributed arrays */

/* The elements of virtual processor v's slice: one count for all under
 * a power-of-two layout, the table's for each under a table (layout.c). */
static size_t local_count(int array, int v)
{
    return (size_t)hd__local_count(array, v);
}

static size_t local_bytes(int array, const hd_array_desc *a, int v)
{
    return local_count(array, v) * a->elem_size;
}

/* The most bytes of one slice of the array: a buffer that any
 * processor's fits. */
static size_t most_local_bytes(int array, const hd_array_desc *a)
{
    size_t most = 0;
    for (int v = 0; v < nprocs; v++)
        if (local_bytes(array, a, v) > most)
            most = local_bytes(array, a, v);
    return most;
}

static void *local_of(int p, int array, const hd_array_desc *a)
{
    void **slot;
    /* Each processor allocates its own row, so no lock is needed. */
    if (!locals[p] && !(locals[p] = calloc((size_t)prog->narrays, sizeof(void *))))
        hd__fatal("out of memory");
    slot = &locals[p][array];
    if (!*slot) {
        /* A processor that a table gives no element still has a slice
         * (an address to pass around), of one element's bytes. */
        size_t count = local_count(array, prog->to_virtual[p]);
        *slot = calloc(count ? count : 1, a->elem_size);
        if (!*slot)
            hd__fatal("array %s: out of memory for %zu bytes", a->name ? a->name : "?",
                      local_bytes(array, a, prog->to_virtual[p]));
    }
    return *slot;
}

void *hd_alloc(hd_index count, size_t size)
{
    if (count < 0 || (size && (uint64_t)count > SIZE_MAX / size))
        hd__fatal("hd_alloc: %lld elements of %zu bytes is too many",
                  (long long)count, size);
    void *p = malloc(count && size ? (size_t)count * size : 1);
    if (!p)
        hd__fatal("hd_alloc: out of memory for %lld elements of %zu bytes",
                  (long long)count, size);
    return p;
}

void **hd__slice_slot(int array)
{
    int p = hd__tr_self();
    if (!locals[p] && !(locals[p] = calloc((size_t)prog->narrays, sizeof(void *))))
        hd__fatal("out of memory");
    return &locals[p][array];
}

void *hd_local(int array)
{
    int p = self("hd_local");
    return local_of(p, array, array_desc("hd_local", array));
}

hd_index hd_local_count(int array)
{
    int p = self("hd_local_count");
    array_desc("hd_local_count", array);
    return hd__local_count(array, prog->to_virtual[p]);
}

hd_index hd_local_below(int array, hd_index e)
{
    int p = self("hd_local_below");
    array_desc("hd_local_below", array);
    int v = prog->to_virtual[p];
    hd_index lo = 0, hi = hd__local_count(array, v);   /* the answer is in lo .. hi */
    while (lo < hi) {
        hd_index mid = lo + (hi - lo) / 2;
        if (hd__element_at(array, v, mid) < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

hd_index hd_size_in(int array)
{
    self("hd_size_in");
    array_desc("hd_size_in", array);
    return hd__array_size(array);
}

/* Processor p's slice of the array is to be allocated again (its size
 * changed): a spread's slices are never runs of the host's copy. */
static void drop_slice(int p, int array)
{
    if (locals[p]) {
        free(locals[p][array]);
        locals[p][array] = NULL;
    }
}

/* Copies virtual processor v's elements between the host's full copy and
 * a slice in local-offset order, a run of consecutive elements at a time
 * (layout.c: 2^shift of them under a bit field, one under a general
 * layout, a block under a spread, whose last run may be shorter). */
static void slice_copy(int array, const hd_array_desc *a, int v, const char *full, char *slice,
                       int to_slice)
{
    size_t per_run = (size_t)hd__run_length(array);
    size_t count = local_count(array, v);
    for (size_t o = 0; o < count; o += per_run) {
        size_t run = (count - o < per_run ? count - o : per_run) * a->elem_size;
        size_t e0 = (size_t)hd__element_at(array, v, (hd_index)o);
        if (to_slice)
            memcpy(slice + o * a->elem_size, full + e0 * a->elem_size, run);
        else
            memcpy((char *)full + e0 * a->elem_size, slice + o * a->elem_size, run);
    }
}

/* Is every processor's slice of array a one run of the host's copy (the
 * bit field of a block distribution)?  Never under a general layout. */
static int slice_is_one_run(int array, const hd_array_desc *a)
{
    (void)a;
    return hd__layout_is_bit_field(array) &&
           (size_t)hd__run_length(array) == local_count(array, 0);
}

/* The slice of virtual processor v inside the host's copy when it is one
 * contiguous run (block distributions), else NULL. */
static const char *contiguous_slice(int array, const hd_array_desc *a, int v, const char *full)
{
    if (!slice_is_one_run(array, a))
        return NULL;
    return full + (size_t)hd__element_at(array, v, 0) * a->elem_size;
}

void *hd_whole(int array)
{
    int p = self("hd_whole");
    const hd_array_desc *a = array_desc("hd_whole", array);
    size_t count = local_count(array, prog->to_virtual[p]);
    for (int v = 0; v < nprocs; v++)
        if (local_count(array, v) != count)
            hd__fatal("hd_whole: array %s has %zu elements on processor %d and %zu on %d; "
                      "only arrays spread evenly are gathered whole", a->name ? a->name : "?",
                      local_count(array, v), v, count, prog->to_virtual[p]);
    size_t bytes = count * a->elem_size;
    char *all = hd_alloc((hd_index)nprocs * (hd_index)count, a->elem_size);
    char *whole = hd_alloc((hd_index)nprocs * (hd_index)count, a->elem_size);
    hd_coll_allgather(local_of(p, array, a), all, bytes);
    /* Block v of the all-gather is virtual processor v's slice. */
    for (int v = 0; v < nprocs; v++)
        slice_copy(array, a, v, whole, all + (size_t)v * bytes, 0);
    free(all);
    return whole;
}

static void send_cmd(int p, int op, int id, int status, size_t env_size)
{
    hd_cmd c;
    memset(&c, 0, sizeof c);
    c.magic = CMD_MAGIC;
    c.op = op;
    c.id = id;
    c.status = status;
    c.env_size = env_size;
    hd__tr_send(p, &c, sizeof c);
}

/* Waits until every processor has finished the doalls started so far:
 * each answers a SYNC command once it has (commands are served in
 * order), with an empty message. */
static void quiesce(void)
{
    if (!pending)
        return;
    for (int p = 1; p < nprocs; p++)
        send_cmd(p, CMD_SYNC, 0, 0, 0);
    for (int p = 1; p < nprocs; p++) {
        char none;
        if (hd__tr_recv(p, &none, 0) != 0)
            hd__fatal("processor %d answered a synchronisation with a message of the program "
                      "(a message sent in a doall was not received)", p);
    }
    pending = 0;
}

/* Can array a's slices be runs of the host's copy? */
static int aliasable(int array, const hd_array_desc *a)
{
    return hd__tr_shared && nprocs > 1 && (a->flags & HD_ARRAY_HOST_STATIC) &&
           slice_is_one_run(array, a);
}

/* Makes every processor's slice of array a the run of `host` it owns;
 * the processors are idle (quiesce), so their slices may change. */
static void alias(int array, const hd_array_desc *a, const void *host)
{
    quiesce();
    for (int v = 0; v < nprocs; v++) {
        int p = prog->to_physical[v];
        if (!locals[p] && !(locals[p] = calloc((size_t)prog->narrays, sizeof(void *))))
            hd__fatal("out of memory");
        if (!aliased[array])
            free(locals[p][array]);
        locals[p][array] = (char *)contiguous_slice(array, a, v, host);
    }
    aliased[array] = 1;
    alias_base[array] = host;
}

void hd_host_access(int array)
{
    host_only("hd_host_access");
    array_desc("hd_host_access", array);
    if (aliased[array])
        quiesce();
}

/* hd_scatter's and hd_gather's checks: the host calls, for an array of
 * the table, with its copy at `host` (the message says `from` or `into`
 * a null pointer); the array's description. */
static const hd_array_desc *host_copy_of(const char *fn, int array, const void *host,
                                         const char *direction)
{
    host_only(fn);
    const hd_array_desc *a = array_desc(fn, array);
    /* A pointer of no elements may be null (axpy(0, a, NULL, NULL)). */
    if (!host && hd__array_size(array) > 0)
        hd__fatal("%s of array %s %s a null pointer", fn, a->name ? a->name : "?", direction);
    return a;
}

void hd_scatter(int array, const void *host)
{
    const hd_array_desc *a = host_copy_of("hd_scatter", array, host, "from");
    size_t bytes;
    char *buf = NULL;

    if (aliasable(array, a)) {
        /* The slices are the host's copy: nothing moves. */
        if (!aliased[array] || alias_base[array] != host)
            alias(array, a, host);
        return;
    }
    for (int v = 0; v < nprocs; v++) {
        int p = prog->to_physical[v];
        const char *run;
        if (p == 0) {
            slice_copy(array, a, v, host, local_of(0, array, a), 1);
            continue;
        }
        /* Every processor gets its message, an empty one where a table
         * gives it nothing: the node waits for it after the command. */
        bytes = local_bytes(array, a, v);
        send_cmd(p, CMD_SCATTER, array, 0, 0);
        pending = 1;   /* p may still be storing its slice */
        hd__stats_host(0, bytes);
        run = contiguous_slice(array, a, v, host);
        if (!run) {
            size_t most = most_local_bytes(array, a);
            if (!buf && !(buf = malloc(most ? most : 1)))
                hd__fatal("hd_scatter: out of memory for %zu bytes", most);
            slice_copy(array, a, v, host, buf, 1);
            run = buf;
        }
        hd__tr_send(p, run, bytes);
    }
    free(buf);
}

void hd_gather(int array, void *host)
{
    const hd_array_desc *a = host_copy_of("hd_gather", array, host, "into");
    size_t bytes;
    char *buf = NULL;

    if (aliased[array] && alias_base[array] == host) {
        quiesce();   /* the elements are already here once the writers are done */
        return;
    }
    pending = 0;     /* every processor answers after its doalls */
    for (int p = 1; p < nprocs; p++)
        send_cmd(p, CMD_GATHER, array, 0, 0);
    for (int v = 0; v < nprocs; v++) {
        int p = prog->to_physical[v];
        size_t got;
        char *run;
        if (p == 0) {
            slice_copy(array, a, v, host, local_of(0, array, a), 0);
            continue;
        }
        bytes = local_bytes(array, a, v);
        run = (char *)contiguous_slice(array, a, v, host);
        if (!run) {
            size_t most = most_local_bytes(array, a);
            if (!buf && !(buf = malloc(most ? most : 1)))
                hd__fatal("hd_gather: out of memory for %zu bytes", most);
            run = buf;
        }
        got = hd__tr_recv(p, run, bytes);
        hd__stats_host(1, got);
        if (got != bytes)
            hd__fatal("hd_gather of array %s: processor %d answered %zu bytes, %zu expected "
                      "(a message of the program was not received)",
                      a->name ? a->name : "?", p, got, bytes);
        if (run == buf)
            slice_copy(array, a, v, host, buf, 0);
    }
    free(buf);
}

/*
 * A remap (Wu 1984, Chapter 3: the data mapping of an array changes
 * between two doalls): the array's layout becomes `to` on every
 * processor, and with `move` every processor sends its elements to their
 * new owners.  Under shared memory the layouts and the slices are one for
 * all, so the host first waits for the processors to be idle and changes
 * the layout itself; under MPI each rank changes its own when it serves
 * the command, which comes after the doalls before it.  A slice that was
 * a run of the host's copy (HD_ARRAY_HOST_STATIC) stops being one: a
 * general layout is never aliased, and the exchange writes new slices.
 */
static void remap(const char *fn, int array, const hd_layout_desc *to, int move)
{
    uint64_t words[66];
    size_t bytes = 0;
    host_only(fn);
    const hd_array_desc *a = array_desc(fn, array);
    if (hd__layout_is_table(array))
        hd__fatal("%s: array %s is distributed by a table (hd_run_tables); remaps of such "
                  "arrays are not supported", fn, a->name ? a->name : "?");
    if (hd__tr_shared)
        quiesce();
    int was_alias = aliased[array];
    aliased[array] = 0;
    alias_base[array] = NULL;
    hd__layout_change(fn, array, to);
    if (!hd__tr_shared && to) {
        hd__layout_pack(array, to, words);
        bytes = hd__layout_words(array) * sizeof *words;
    }
    int flags = (move ? RELAYOUT_MOVE : 0) | (was_alias ? RELAYOUT_WAS_ALIAS : 0) |
                (to ? 0 : RELAYOUT_BIT_FIELD);
    pending = nprocs > 1;
    for (int p = 1; p < nprocs; p++) {
        send_cmd(p, CMD_RELAYOUT, array, flags, bytes);
        if (bytes)
            hd__tr_send(p, words, bytes);
    }
    hd__relayout_here(array, move, was_alias);
}

void hd_relayout(int array, const hd_layout_desc *to)
{
    remap("hd_relayout", array, to, 1);
}

void hd_set_layout(int array, const hd_layout_desc *to)
{
    remap("hd_set_layout", array, to, 0);
}

/* A processor other than the host serves a RELAYOUT command. */
static void serve_relayout(const hd_cmd *c)
{
    uint64_t words[66];
    if (c->id < 0 || c->id >= prog->narrays ||
        c->env_size > sizeof words || c->env_size % sizeof *words)
        hd__fatal("a remap command for array %d with %llu bytes of layout", (int)c->id,
                  (unsigned long long)c->env_size);
    if (c->env_size && hd__tr_recv(0, words, c->env_size) != c->env_size)
        hd__fatal("a remap of array %d: no layout from the host", (int)c->id);
    if (!hd__tr_shared) {
        hd_layout_desc d = { 0 };
        if (!(c->status & RELAYOUT_BIT_FIELD)) {
            if (c->env_size != hd__layout_words(c->id) * sizeof *words)
                hd__fatal("a remap of array %d: a layout of %llu bytes", (int)c->id,
                          (unsigned long long)c->env_size);
            d = hd__layout_unpack(c->id, words);
        }
        hd__layout_change("hd_relayout", c->id,
                          (c->status & RELAYOUT_BIT_FIELD) ? NULL : &d);
    }
    hd__relayout_here(c->id, c->status & RELAYOUT_MOVE, (c->status & RELAYOUT_WAS_ALIAS) != 0);
}

/*
 * A spread whose extent the program knows only at run time (the elements
 * a pointer points to, extent(n)): before each doall that uses it the
 * host gives it its number of elements.  Nothing happens when that is
 * the number it has.  Otherwise every processor's slice is allocated
 * again at its new size (its contents undefined: the host scatters the
 * array next, unless the doall overwrites every element).  Under shared
 * memory the layouts and slices are one for all, so the host waits for
 * the processors to be idle and changes them itself; under MPI each rank
 * changes its own when it serves the command.
 */
void hd_bind(int array, hd_index size, const char *where)
{
    host_only("hd_bind");
    const hd_array_desc *a = array_desc("hd_bind", array);
    const char *name = a->name ? a->name : "?";
    hd_index N, block;
    if (!hd__spread_of(array, &N, &block))
        hd__fatal("hd_bind: array %s is no spread (an hd_table_desc without owners given to "
                  "hd_run_tables)", name);
    if (size < 0)
        hd__fatal("%s: the extent of '%s' is %lld: an array has 0 elements or more",
                  where ? where : "?", name, (long long)size);
    if ((uint64_t)size > SIZE_MAX / a->elem_size)
        hd__fatal("%s: the extent of '%s' is %lld elements of %zu bytes, more than memory holds",
                  where ? where : "?", name, (long long)size, a->elem_size);
    if (size == N)
        return;
    if (hd__tr_shared) {
        quiesce();
        for (int p = 0; p < nprocs; p++)
            drop_slice(p, array);
    } else {
        drop_slice(0, array);
        pending = nprocs > 1;
        for (int p = 1; p < nprocs; p++)
            send_cmd(p, CMD_BIND, array, 0, (size_t)size);
    }
    hd__spread_set("hd_bind", array, size, block);
}

/* Two arrays of a doall, one of them written, must not share memory:
 * the translation gives each its own elements on the processors, as the
 * analysis assumed (docs/annotations.md, "Pointers and the heap"). */
void hd_check_disjoint(int written, const void *w, int other, const void *o, const char *where)
{
    host_only("hd_check_disjoint");
    const hd_array_desc *aw = array_desc("hd_check_disjoint", written);
    const hd_array_desc *ao = array_desc("hd_check_disjoint", other);
    hd_index nw = hd__array_size(written), no = hd__array_size(other);
    uintptr_t wb = (uintptr_t)w, ob = (uintptr_t)o;
    uintptr_t we = wb + (uintptr_t)nw * aw->elem_size, oe = ob + (uintptr_t)no * ao->elem_size;
    if (nw == 0 || no == 0 || we <= ob || oe <= wb)
        return;
    char which[160] = "";
    uintptr_t at = wb > ob ? wb : ob;   /* the first byte they share */
    if ((at - wb) % aw->elem_size == 0 && (at - ob) % ao->elem_size == 0)
        snprintf(which, sizeof which, " (element %llu of '%s' is element %llu of '%s')",
                 (unsigned long long)((at - wb) / aw->elem_size), aw->name ? aw->name : "?",
                 (unsigned long long)((at - ob) / ao->elem_size), ao->name ? ao->name : "?");
    hd__fatal("%s: the doall writes '%s', whose %lld elements overlap the %lld of '%s' in "
              "memory%s: the translation runs its iterations on copies of the arrays on the "
              "processors, which is the sequential loop only for arrays that do not overlap",
              where ? where : "?", aw->name ? aw->name : "?", (long long)nw, (long long)no,
              ao->name ? ao->name : "?", which);
}

static void run_doall(int doall, const void *env)
{
    hd__stats_doall(doall, 1);
    prog->doalls[doall](env);
    hd__stats_doall(doall, 0);
}

/* Where every processor shares the host's memory, one copy of a doall's
 * environment serves them all: the host sends each the copy's address,
 * and the last to finish frees it.  (A replicated table of 128 KiB sent
 * to 255 threads was 32 MiB of copying per doall.) */
typedef struct {
    atomic_int users;
    _Alignas(max_align_t) unsigned char data[];
} shared_env;

static void *env_of(shared_env *e)
{
    return e->data;
}

static void done_with(shared_env *e)
{
    if (atomic_fetch_sub(&e->users, 1) == 1)
        free(e);
}

void hd_doall(int doall, const void *env, size_t env_size)
{
    void *copy;
    shared_env *shared = NULL;

    host_only("hd_doall");
    if (doall < 0 || doall >= prog->ndoalls)
        hd__fatal("hd_doall: doall %d out of range 0 .. %d", doall, prog->ndoalls - 1);
    if (env_size > 0 && !env)
        hd__fatal("hd_doall %d: %zu bytes of environment from a null pointer", doall, env_size);
    if (env_size > 0 && hd__tr_shared) {
        if (!(shared = malloc(sizeof *shared + env_size)))
            hd__fatal("hd_doall: out of memory for %zu bytes", env_size);
        atomic_init(&shared->users, nprocs);
        memcpy(env_of(shared), env, env_size);
    }
    pending = nprocs > 1;
    for (int p = 1; p < nprocs; p++) {
        send_cmd(p, CMD_DOALL, doall, 0, env_size);
        if (shared)
            hd__tr_send(p, &shared, sizeof shared);
        else if (env_size > 0)
            hd__tr_send(p, env, env_size);
    }
    copy = &no_env;
    if (shared) {
        copy = env_of(shared);
    } else if (env_size > 0) {
        if (!(copy = malloc(env_size)))
            hd__fatal("hd_doall: out of memory for %zu bytes", env_size);
        memcpy(copy, env, env_size);
    }
    host_in_doall = 1;
    tl_node_code = 1;
    run_doall(doall, copy);
    tl_node_code = 0;
    host_in_doall = 0;
    if (shared)
        done_with(shared);
    else if (copy != &no_env)
        free(copy);
}

/* ------------------------------------------------------ hd_run */

static void free_locals(int p)
{
    if (!locals || !locals[p])
        return;
    for (int a = 0; a < prog->narrays; a++)
        if (!aliased || !aliased[a])
            free(locals[p][a]);
    free(locals[p]);
    locals[p] = NULL;
}

/* The loop of every processor but the host; returns the EXIT status. */
static int node_loop(void)
{
    for (;;) {
        hd_cmd c;
        size_t got = hd__tr_recv(0, &c, sizeof c);
        if (got != sizeof c || c.magic != CMD_MAGIC)
            hd__fatal("between doalls, received a message of %zu bytes from the host that is "
                      "not a command (a message the host sent in a doall was not received)",
                      got);
        switch (c.op) {
        case CMD_DOALL: {
            void *env = &no_env;
            if (c.env_size > 0 && hd__tr_shared) {
                shared_env *shared;
                got = hd__tr_recv(0, &shared, sizeof shared);
                if (got != sizeof shared)
                    hd__fatal("doall %d: no environment from the host", (int)c.id);
                run_doall(c.id, env_of(shared));
                done_with(shared);
                break;
            }
            if (c.env_size > 0) {
                if (!(env = malloc(c.env_size)))
                    hd__fatal("doall %d: out of memory for %zu bytes of environment", (int)c.id,
                              (size_t)c.env_size);
                got = hd__tr_recv(0, env, c.env_size);
                if (got != c.env_size)
                    hd__fatal("doall %d: environment of %zu bytes, %zu expected", (int)c.id, got,
                              (size_t)c.env_size);
            }
            run_doall(c.id, env);
            if (env != &no_env)
                free(env);
            break;
        }
        case CMD_SCATTER: {
            const hd_array_desc *a = &prog->arrays[c.id];
            int p = hd__tr_self();
            size_t bytes = local_bytes(c.id, a, prog->to_virtual[p]);
            got = hd__tr_recv(0, local_of(p, c.id, a), bytes);
            if (got != bytes)
                hd__fatal("hd_scatter of array %s: %zu bytes, %zu expected",
                          a->name ? a->name : "?", got, bytes);
            break;
        }
        case CMD_GATHER: {
            const hd_array_desc *a = &prog->arrays[c.id];
            int p = hd__tr_self();
            hd__tr_send(0, local_of(p, c.id, a), local_bytes(c.id, a, prog->to_virtual[p]));
            break;
        }
        case CMD_SYNC:
            hd__tr_send(0, NULL, 0);
            break;
        case CMD_RELAYOUT:
            serve_relayout(&c);
            break;
        case CMD_BIND: {
            hd_index N, block;
            if (c.id < 0 || c.id >= prog->narrays || !hd__spread_of(c.id, &N, &block))
                hd__fatal("a bind command for array %d, which is no spread", (int)c.id);
            drop_slice(hd__tr_self(), c.id);
            hd__spread_set("hd_bind", c.id, (hd_index)c.env_size, block);
            break;
        }
        case CMD_EXIT:
            hd__stats_node_exit();
            return c.status;
        default:
            hd__fatal("unknown command %d from the host", (int)c.op);
        }
    }
}

static void node_main(void)
{
    node_loop();
    hd__requests_forget();
    free_locals(hd__tr_self());
    hd__buf_flush();
}

static void release(void)
{
    hd__requests_stop();
    hd__layouts_stop();
    free(locals);
    locals = NULL;
    free(aliased);
    free((void *)alias_base);
    aliased = NULL;
    alias_base = NULL;
    running = 0;
    prog = NULL;
}

/* The host's end: EXIT to everyone, then wait for them. */
static void host_stop(int status)
{
    if (host_stopped)
        return;
    host_stopped = 1;
    for (int p = 1; p < nprocs; p++)
        send_cmd(p, CMD_EXIT, 0, status, 0);
    hd__stats_collect();
    hd__requests_forget();
    free_locals(0);
    hd__buf_flush();
    hd__tr_finish();
    hd__buf_flush();   /* what the transport gave back while finishing */
    hd__stats_write(prog->source);
    release();
}

/* exit() in the host: stop the processors; exit() keeps its status. */
static void at_exit(void)
{
    if (running && !host_stopped && hd__tr_self() == 0)
        host_stop(0);
}

/* The program's tables; an array of a general layout (layouts[i]) has
 * its own checks (layout.c) instead of its shift's, and one distributed
 * by a table (tables[i]) has no log2_size or shift to check: its owners
 * are checked as the table is built (layout.c, table.c). */
static void check_program(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                          const hd_table_desc *const *tables)
{
    int P;
    if (!program)
        hd__fatal("hd_run: no program");
    if (program->dim < 0 || program->dim > 24)
        hd__fatal("hd_run: dim %d out of range 0 .. 24", program->dim);
    P = 1 << program->dim;
    if (!program->to_virtual || !program->to_physical)
        hd__fatal("hd_run: missing processor tables");
    for (int p = 0; p < P; p++) {
        int v = program->to_virtual[p];
        if (v < 0 || v >= P || program->to_physical[v] != p)
            hd__fatal("hd_run: to_virtual and to_physical are not inverse permutations of "
                      "0 .. %d (physical %d)",
                      P - 1, p);
    }
    if (program->narrays < 0 || (program->narrays > 0 && !program->arrays))
        hd__fatal("hd_run: bad array table");
    for (int i = 0; i < program->narrays; i++) {
        const hd_array_desc *a = &program->arrays[i];
        const char *name = a->name ? a->name : "?";
        if (a->elem_size == 0)
            hd__fatal("hd_run: array %s: element size 0", name);
        if (tables && tables[i]) {
            const hd_table_desc *t = tables[i];
            if (t->size < 0 || t->block < 0 || (t->owner && t->block))
                hd__fatal("hd_run: array %s: a table of %lld elements, block %lld%s", name,
                          (long long)t->size, (long long)t->block,
                          t->owner ? ", with owners" : "");
            if ((uint64_t)t->size > SIZE_MAX / a->elem_size)
                hd__fatal("hd_run: array %s: %lld elements are larger than memory", name,
                          (long long)t->size);
            continue;
        }
        if (a->log2_size < program->dim || a->log2_size > 62)
            hd__fatal("hd_run: array %s: 2^%d elements, but %d processors need 2^%d .. 2^62",
                      name, a->log2_size, P, program->dim);
        if (!(layouts && layouts[i]) && (a->shift < 0 || a->shift > a->log2_size - program->dim))
            hd__fatal("hd_run: array %s: shift %d out of range 0 .. %d", name, a->shift,
                      a->log2_size - program->dim);
        if (((size_t)1 << (a->log2_size - program->dim)) > SIZE_MAX / a->elem_size)
            hd__fatal("hd_run: array %s: a slice is larger than memory", name);
    }
    if (program->ndoalls < 0 || (program->ndoalls > 0 && !program->doalls))
        hd__fatal("hd_run: bad doall table");
    for (int i = 0; i < program->ndoalls; i++)
        if (!program->doalls[i])
            hd__fatal("hd_run: doall %d has no node function", i);
    if (!program->main)
        hd__fatal("hd_run: no main");
}

int hd_run(const hd_program_desc *program, int argc, char **argv)
{
    return hd_run_tables(program, NULL, NULL, argc, argv);
}

int hd_run_layouts(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                   int argc, char **argv)
{
    return hd_run_tables(program, layouts, NULL, argc, argv);
}

int hd_run_tables(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                  const hd_table_desc *const *tables, int argc, char **argv)
{
    static int registered;
    int status;

    if (running)
        hd__fatal("hd_run called while a program is running");
    check_program(program, layouts, tables);
    hd__layouts_start(program, layouts, tables);
    prog = program;
    dim = program->dim;
    nprocs = 1 << dim;
    host_stopped = 0;
    host_in_doall = 0;
    locals = calloc((size_t)nprocs, sizeof *locals);
    aliased = calloc((size_t)(program->narrays ? program->narrays : 1), 1);
    alias_base = calloc((size_t)(program->narrays ? program->narrays : 1), sizeof *alias_base);
    pending = 0;
    if (!locals || !aliased || !alias_base)
        hd__fatal("hd_run: out of memory");
    hd__stats_start(nprocs, program->ndoalls, program->narrays);
    hd__requests_start(nprocs);
    running = 1;
    hd__tr_start(nprocs, &argc, &argv, node_main);
    if (hd__tr_self() != 0) {
        /* MPI: this rank is one of the nodes. */
        status = node_loop();
        hd__requests_forget();
        free_locals(hd__tr_self());
        hd__tr_finish();
        release();
        return status;
    }
    if (!registered) {
        registered = 1;
        atexit(at_exit);
    }
    status = program->main(argc, argv);
    if (program->at_end)
        program->at_end();
    host_stop(status);
    return status;
}
