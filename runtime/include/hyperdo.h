/*
 * hyperdo.h — the run-time library of programs that `hyperdo translate`
 * writes.  One header, several back ends chosen at link time:
 *
 *     cc     prog.spmd.c $(pkg-config --cflags --libs hyperdo)      threads
 *     mpicc  prog.spmd.c $(pkg-config --cflags --libs hyperdo-mpi)  MPI
 *     cc     prog.spmd.c $(pkg-config --cflags --libs hyperdo-sim)  threads, with
 *            each doall's messages timed on a simulated wormhole hypercube
 *
 * The machine has P = 2^n processors.  Physical processor p (a thread, or
 * MPI rank p) plays virtual processor to_virtual[p]; the translator chooses
 * the two tables so that the program's communications have the least
 * channel contention under e-cube routing (Hou et al. 2001, Section 3, Fig. 1d:
 * v_send(v, ...) is send(to_physical[v], ...)).
 *
 * Execution model (docs/codegen.md): physical processor 0 is also the
 * host.  It runs the program's own main() exactly as written, so stdout
 * and the exit status are the sequential program's.  At each doall the
 * host ships the loop's environment (the outer scalars and replicated
 * arrays the body reads) to every processor and all P processors run the
 * loop's node function, each on the elements of the distributed arrays it
 * owns; the other processors wait for the host's next command between
 * doalls.  Distributed arrays move between the host's copy and the
 * processors' local slices only when the host asks (hd_scatter,
 * hd_gather).
 *
 * Messages: v_send never waits for the receiver (the message is copied
 * or sent without blocking), so any exchange pattern of any size is free
 * of deadlock; v_receive waits for the next message from that processor.
 * Messages between one ordered pair arrive in the order they were sent.
 *
 * Errors of use (a processor id out of range, a received message whose
 * size differs from the one expected, MPI started with the wrong number
 * of ranks) print "hyperdo: error: ..." on stderr and abort the whole
 * program with exit status 1 (MPI_Abort under MPI).
 */
#ifndef HYPERDO_H
#define HYPERDO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element indices of distributed arrays: arrays have up to 2^62 elements. */
typedef int64_t hd_index;

#if defined(__GNUC__)
#define HD_NORETURN_ __attribute__((noreturn))
#else
#define HD_NORETURN_
#endif

/* Every loop of the node code that walks iterations calls HD_VISIT(i)
 * once per iteration it looks at, before any test of who runs it, and a
 * packing loop once per element it sends.  It does nothing unless
 * defined before this header is included: a test can count what each
 * processor visits (docs/codegen.md). */
#ifndef HD_VISIT
#define HD_VISIT(i) ((void)(i))
#endif

/* ------------------------------------------------------ Fig. 1d */

/* The library defines Fig. 1d's calls under reserved names (hd_v_*), and
 * this header gives them the paper's names unless HD_NO_V_NAMES is
 * defined: a translated program whose own code declares v_send (say)
 * defines it and calls hd_v_send (docs/codegen.md, "Names"). */

/* The calling processor's virtual id: to_virtual[its physical id]. */
int hd_v_get_pid(void);

/* Sends `size` bytes to virtual processor `vpid` (physical
 * to_physical[vpid]).  Returns once `data` may be reused. */
void hd_v_send(int hd_vpid, const void *hd_data, size_t hd_size);

/* Receives the next message from virtual processor `vpid` into `data`;
 * the message must have exactly `size` bytes. */
void hd_v_receive(int hd_vpid, void *hd_data, size_t hd_size);

/* Returns when every processor has called it. */
void hd_v_barrier(void);

#ifndef HD_NO_V_NAMES
static inline int v_get_pid(void)
{
    return hd_v_get_pid();
}
static inline void v_send(int hd_vpid, const void *hd_data, size_t hd_size)
{
    hd_v_send(hd_vpid, hd_data, hd_size);
}
static inline void v_receive(int hd_vpid, void *hd_data, size_t hd_size)
{
    hd_v_receive(hd_vpid, hd_data, hd_size);
}
static inline void v_barrier(void)
{
    hd_v_barrier();
}
#endif

/* The calling processor's physical id, the number of processors 2^n, n. */
int hd_get_pid(void);
int hd_nprocs(void);
int hd_dim(void);

/* ------------------------------------- what the translator emits */

/* A distributed array: 2^log2_size elements of elem_size bytes, every
 * processor holding 2^(log2_size - n) of them.  Unless hd_run_layouts
 * gives it another layout, element e lives on virtual processor
 * hd_owner(e, shift, n) = (e >> shift) & (2^n - 1) at local offset
 * hd_local_offset(e, shift, n) (the element's index with those n bits
 * removed): the bit field at shift, which cyclic, block and block_cyclic
 * are. */
typedef struct {
    const char *name;
    size_t elem_size;
    int log2_size;
    int shift;          /* the bit field's; unused under a general layout */
    int flags;          /* HD_ARRAY_* below; 0 is always safe */
} hd_array_desc;

/* A layout whose owner is not a bit field (Lee and Aboelaze's templates:
 * owners such as xi(i) XOR j; HPF's 2-D (BLOCK, BLOCK) and (CYCLIC,
 * CYCLIC); Batcher's i XOR j): the owner and the local offset of element
 * e are GF(2)-affine maps of e's log2_size bits,
 *     bit t of owner(e)  = parity(owner_rows[t] & e)  ^ bit t of owner_c,
 *                          t < n,
 *     bit t of offset(e) = parity(offset_rows[t] & e) ^ bit t of offset_c,
 *                          t < log2_size - n,
 * together one-to-one (hd_run checks).  It mirrors the translator's
 * hd_layout.  The library places such an array's elements one by one: its
 * slices are never runs of the host's copy (HD_ARRAY_HOST_STATIC does not
 * alias them). */
typedef struct {
    const uint64_t *owner_rows;    /* n rows */
    uint64_t owner_c;
    const uint64_t *offset_rows;   /* log2_size - n rows */
    uint64_t offset_c;
} hd_layout_desc;

/* An array distributed by a table (Chung and Ranka 1990's mappings,
 * docs/meshes.md): N elements, any N, element e on virtual processor
 * owner[e] at local offset its rank among that processor's elements in
 * increasing e (hd_table_dist's placement), so slices differ in size.
 * The placement of a finite element graph's nodes that `hyperdo map`
 * writes is no function of e's bits.  Without owners it is a spread:
 * HPF's BLOCK and CYCLIC of an array whose extent is no power of two
 * (High Performance Fortran Forum 1993), whose owners are computed; its
 * element e is again on the processor at its rank among that
 * processor's elements, and hd_bind may give it its extent at run
 * time. */
typedef struct {
    hd_index size;        /* N, any number >= 0 of elements */
    const int *owner;     /* N virtual processor numbers, 0 .. 2^n - 1; or
                           * NULL: a spread, below */
    hd_index block;       /* a spread's block b: element e on virtual
                           * processor (e / b) mod P at offset
                           * (e / (b P)) b + e mod b, ScaLAPACK's
                           * block-cyclic distribution of any N; 0 for
                           * b = ceil(N / P), HPF's BLOCK (the last
                           * processors hold fewer, maybe none), 1 for
                           * HPF's CYCLIC.  0 when owner is given. */
} hd_table_desc;

/* The host's copy (the address given to hd_scatter and hd_gather) is the
 * same object for the whole run, and the host touches it only after
 * hd_host_access(array), hd_gather or hd_scatter for it.  Then, where all
 * processors share one address space (the threads and sim back ends) and
 * the layout gives each processor one contiguous run (block), the
 * processors' elements ARE the host's copy: hd_scatter and hd_gather copy
 * nothing (docs/runtime.md). */
#define HD_ARRAY_HOST_STATIC 1

/* A doall's node function: run by every processor with the environment
 * the host passed to hd_doall. */
typedef void (*hd_node_fn)(const void *env);

typedef struct {
    const char *source;          /* the translated file, for messages */
    int dim;                     /* n: the program runs on 2^n processors */
    const int *to_virtual;       /* 2^n entries each */
    const int *to_physical;
    int narrays;
    const hd_array_desc *arrays;
    int ndoalls;
    const hd_node_fn *doalls;
    int (*main)(int hd_argc, char **hd_argv);  /* the program's own main */
    /* Or NULL.  Called on the host when main returns, before the
     * processors stop: brings home the arrays that code running after main
     * (atexit handlers, destructors) may read. */
    void (*at_end)(void);
} hd_program_desc;

/* Starts the 2^n processors, runs program->main(argc, argv) on the host
 * (physical processor 0) and returns its status once every processor has
 * stopped.  A call of exit() in the host also stops the processors
 * cleanly and keeps its status. */
int hd_run(const hd_program_desc *program, int argc, char **argv);
/* The same with a layout per array: layouts[a] (program->narrays entries)
 * describes array a's, NULL the bit field at its shift (hd_run passes
 * NULL for every array).  The array table keeps its form, so a program
 * whose arrays are all bit fields is written as before. */
int hd_run_layouts(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                   int argc, char **argv);
/* hd_run_layouts with, per array, a table (tables[a] non-NULL: array a is
 * distributed by it; its hd_array_desc's log2_size and shift are then
 * ignored, its flags' HD_ARRAY_HOST_STATIC too) or NULL. tables may be NULL. Every processor
 * (every MPI rank) calls it with the same static data, so no table travels. Checked at start:
 * an owner outside 0..P-1 stops the program with a message naming the array and element.
 * Such an array's slices hold hd_local_count elements each (0 on a
 * processor that owns none); hd_relayout and hd_set_layout refuse it. */
int hd_run_tables(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                  const hd_table_desc *const *tables, int argc, char **argv);

/* Host only, between doalls: spread `array` (an hd_table_desc without
 * owners) now has `size` elements, in the blocks its descriptor gives:
 * the extent of the elements a pointer points to, known only at run time
 * (docs/annotations.md, "Pointers and the heap").  When the size changes,
 * every processor's slice is allocated again, its contents undefined.  A
 * negative size stops the program with "WHERE: the extent of 'x' is
 * ...". */
void hd_bind(int array, hd_index size, const char *where);
/* Host only, before a doall that writes array `written`, whose host copy
 * is at w, and uses array `other`, at o: stops the program with "WHERE:
 * the doall writes 'y', whose N elements overlap the M of 'x' in memory
 * ..." when the two copies share a byte (each of hd_size_in elements).
 * The processors hold each array on its own, which is the sequential
 * program only for arrays that do not overlap (pointer arguments may). */
void hd_check_disjoint(int written, const void *w, int other, const void *o,
                       const char *where);
/* Host only.  Sends every processor its elements of array `array` from
 * the host's full copy `host` (2^log2_size elements; NULL only for an
 * array of none). */
void hd_scatter(int array, const void *host);
/* Host only.  Collects every processor's elements into `host`. */
void hd_gather(int array, void *host);
/* Host only.  Before sequential code touches `array`'s copy on the host
 * when hd_gather is not needed (the host's elements are the newest): waits
 * for every processor to finish the doalls started so far if they may
 * still use that copy (HD_ARRAY_HOST_STATIC); otherwise does nothing. */
void hd_host_access(int array);
/* Host only, between doalls: array `array` changes layout to `to` (NULL:
 * the bit field at the array table's shift), a data mapping of Wu 1984,
 * Section 1.2, taking the place of another.  hd_relayout is the remap
 * as a communication phase of its own: every processor sends each of its
 * elements whose owner changes to the new owner, one message per pair
 * (counted by HYPERDO_STATS, timed by the sim back end as a phase), and
 * keeps the others, each at its new offset.  hd_set_layout moves nothing:
 * the processors' elements are then stale (the host's copy is the newest
 * and will be scattered, or the next doall overwrites every one).  After
 * either, hd_scatter, hd_gather, hd_request and hd_owner_in & co. follow
 * the new layout on every processor.  The descriptor is copied: `to` need
 * not outlive the call. */
void hd_relayout(int array, const hd_layout_desc *to);
void hd_set_layout(int array, const hd_layout_desc *to);
/* Host only.  Runs doall `doall` on all processors (the host included)
 * with a copy of the env_size bytes at env; returns when the host's own
 * part is done (the others finish theirs before serving the next
 * command, so no barrier is needed). */
void hd_doall(int doall, const void *env, size_t env_size);

/* This processor's elements of distributed array `array`. */
void *hd_local(int array);
/* Every processor, inside a doall: a new copy of all of array `array`,
 * element e at index e, from every processor's elements (an all-gather,
 * Stout and Wagar 1990); free it.  For an element the body chooses only
 * while it runs (docs/codegen.md, "Whole arrays").  Every processor must
 * call it, and hold as many elements as every other (the power-of-two
 * layouts); otherwise the program stops with a message. */
void *hd_whole(int array);
/* How many elements of array `array` this processor holds (any layout: 2^(log2_size-n) for the power-of-two ones). */
hd_index hd_local_count(int array);
/* How many of this processor's elements of array `array`, a table's or
 * a spread's (whose local offsets follow the elements' order), are below
 * element e: the local offset of its first element >= e.  A doall over a
 * table runs the offsets of lo .. hi - 1. */
hd_index hd_local_below(int array, hd_index e);
/* How many elements array `array` has: 2^log2_size, a table's N, or a
 * spread's as hd_bind last gave it.  On any processor. */
hd_index hd_size_in(int array);

/* malloc(count * size) that never returns NULL (a failure aborts with a
 * message), even for count 0: the node code's per-iteration tables. */
void *hd_alloc(hd_index count, size_t size);

/* Where element e of an array whose layout is the bit field at this shift
 * lives, and at which offset. */
static inline int hd_owner(hd_index hd_e, int hd_shift, int hd_n)
{
    return (int)((hd_e >> hd_shift) & (((hd_index)1 << hd_n) - 1));
}
static inline hd_index hd_local_offset(hd_index hd_e, int hd_shift, int hd_n)
{
    return ((hd_e >> (hd_shift + hd_n)) << hd_shift) | (hd_e & (((hd_index)1 << hd_shift) - 1));
}

/* The element at local offset o of virtual processor v: the inverse of
 * hd_owner and hd_local_offset. */
static inline hd_index hd_global_index(hd_index hd_o, int hd_v, int hd_shift, int hd_n)
{
    return ((hd_o >> hd_shift) << (hd_shift + hd_n)) | ((hd_index)hd_v << hd_shift) |
           (hd_o & (((hd_index)1 << hd_shift) - 1));
}

/* The same for array `array` (its index in the program's table) under
 * any layout, the general ones of hd_run_layouts included (Lee and
 * Aboelaze's skew, the 2-D layouts, xor): the node code of an array whose owner is no bit
 * field calls these.  Valid on every processor once hd_run has started. */
int hd_owner_in(int array, hd_index e);
hd_index hd_offset_in(int array, hd_index e);
hd_index hd_element_in(int array, int v, hd_index o);

/* Stops the program with "hyperdo: error: WHERE: element E is outside
 * the array's SIZE elements": a subscript that the translator could not
 * check (it depends on data or on variables) went out of bounds. */
HD_NORETURN_ void hd_index_error(const char *where, hd_index e, hd_index size);
/* v < 0, for a value of any integer type (a doall's start): written
 * inline, the test is "always false" for an unsigned type, which
 * -Wtype-limits says. */
static inline int hd_negative(long long hd_v)
{
    return hd_v < 0;
}
static inline hd_index hd_checked(hd_index hd_e, hd_index hd_size, const char *hd_where)
{
    if ((uint64_t)hd_e >= (uint64_t)hd_size)
        hd_index_error(hd_where, hd_e, hd_size);
    return hd_e;
}

/* The GF(2) systems of the node code (docs/codegen.md): whether
 * parity(checks[c] & y) = 0 for every c < n (the system has a solution
 * for the right-hand side y), and the sum of cols[r] over the set bits r
 * of y (its first solution).  (Local names start with hd_, as every name
 * of this header does: a program's own globals must not be shadowed.) */
static inline int hd_solvable(const uint64_t *hd_checks, int hd_n, uint64_t hd_y)
{
    for (int hd_c = 0; hd_c < hd_n; hd_c++)
        if (__builtin_parityll(hd_checks[hd_c] & hd_y))
            return 0;
    return 1;
}
/* e without its components on the leading bits of the subspace whose
 * reduced basis (coset.c) is basis[0 .. dim): the first element, in
 * increasing order, of e's coset. */
static inline hd_index hd_reduce(const hd_index *hd_basis, int hd_dim, hd_index hd_e)
{
    for (int hd_t = hd_dim - 1; hd_t >= 0; hd_t--)
        if ((hd_e >> (63 - __builtin_clzll((unsigned long long)hd_basis[hd_t]))) & 1)
            hd_e ^= hd_basis[hd_t];
    return hd_e;
}
static inline hd_index hd_combine(const hd_index *hd_cols, int hd_n, uint64_t hd_y)
{
    hd_index hd_x = 0;
    for (int hd_r = 0; hd_r < hd_n; hd_r++)
        if ((hd_y >> hd_r) & 1)
            hd_x ^= hd_cols[hd_r];
    return hd_x;
}

/* ---------------------------------------- batched exchanges */

/* One doall's messages, batched so that each ordered pair of processors
 * exchanges at most one message (v_send/v_receive underneath).  Use:
 * hd_put the values for each destination and hd_expect the byte count
 * of each value from each source, in the same order on both sides;
 * hd_exchange_run sends and receives everything; then hd_take copies the
 * values from each source, in the order they were put, into `value` and
 * returns `value`.  A processor may put to itself (the values are then
 * copied, not sent).  Taking more than was expected aborts. */
typedef struct hd_exchange hd_exchange;

hd_exchange *hd_exchange_new(void);
void hd_put(hd_exchange *x, int vpid, const void *value, size_t size);
void hd_expect(hd_exchange *x, int vpid, size_t size);
void hd_exchange_run(hd_exchange *x);
void *hd_take(hd_exchange *x, int vpid, void *value, size_t size);

/* The same exchange with the messages in the caller's hands, as the
 * translator writes it (Fig. 1d's v_send and v_receive in the node
 * code): hd_batch gives the bytes put for vpid (NULL and *size 0 when
 * none), for one v_send; hd_inbox gives where the one message expected
 * from vpid goes (NULL and *size 0 when none), for one v_receive.  The
 * first hd_inbox ends the putting; hd_take follows the receives.
 * hd_exchange_run is hd_batch + v_send for every other processor, then
 * hd_inbox + v_receive for every other processor. */
const void *hd_batch(hd_exchange *x, int vpid, size_t *size);
void *hd_inbox(hd_exchange *x, int vpid, size_t *size);
/* Once every expected message is in: where what came from each virtual
 * processor starts (P entries; NULL where nothing was expected), for a
 * reader that keeps its own positions instead of hd_take. */
const unsigned char *const *hd_inboxes(hd_exchange *x);
void hd_exchange_free(hd_exchange *x);
/* In place of hd_exchange_run (or hd_batch + v_send, hd_inbox +
 * v_receive): every message moved by Stout and Wagar 1990's COMPLETE
 * EXCHANGE (hyperdo/coll.h, hd_coll_alltoallv), what translate writes when
 * the cost model prefers it for a doall's all-to-all. */
void hd_exchange_run_alltoall(hd_exchange *x);
/* The same by one of the collectives of one processor to all or all to
 * one (alg an hd_coll_alg of hyperdo/coll.h), what translate writes when
 * the cost model prefers it, in the whole cube (dims 0) or in each coset
 * of the subcube that the physical dimensions dims span (root: the
 * virtual id of the caller's coset's root), for an exchange whose
 * messages are, within the coset (none outside it):
 *   HD_COLL_BCAST1/2/3A/3B/4: root's, the same bytes to every processor;
 *   HD_COLL_DISTRIBUTE1/2: root's, a block of one size to every processor;
 *   HD_COLL_COLLECT: every processor's, a block of one size to root;
 *   HD_COLL_ALLGATHER: every processor's, the same bytes to every other,
 *       one size for all.
 * Messages of another shape stop the program (they would move wrongly). */
void hd_exchange_run_collective(hd_exchange *x, int alg, int root, uint64_t dims);

/* ------------------------------------ LCC exchanges, one slot per element */

/* The references of a doall that read other processors' elements by a
 * linear-complement communication, grouped so that each group reads one
 * array through one index map.  From a processor p to another q a group
 * carries nothing or exactly 2^log2_slots elements, each at its slot (a
 * number 0 .. 2^log2_slots - 1 that both sides compute from the element's
 * index alone), so every element q needs from p travels once and no
 * counting pass is needed.  p sends group g to q exactly when
 * parity(checks[c] & y) = 0 for every c < nchecks, with
 *     y = ((q ^ home_c) & (2^n - 1)) | ((p ^ src_c) & (2^n - 1)) << n
 * (the translator solves the pair's linear system; docs/codegen.md). */
typedef struct {
    size_t elem_size;
    size_t align;            /* _Alignof the element type: a power of two */
    int log2_slots;
    uint64_t home_c, src_c;
    int nchecks;
    const uint64_t *checks;
} hd_lcc_group;

/* An exchange whose message from each processor to each other is the
 * groups that pair carries, in group order, each starting at a multiple
 * of its alignment.  Both sides know every size: send and receive with
 * hd_batch / hd_inbox as above (nothing to hd_put or hd_expect). */
hd_exchange *hd_exchange_groups(int ngroups, const hd_lcc_group *groups);
/* Where group g's 2^log2_slots elements start in the message to each
 * virtual processor (P entries; NULL where the pair carries none). */
void *const *hd_group_out(hd_exchange *x, int g);
/* The same in the message from each virtual processor, once received. */
const void *const *hd_group_in(hd_exchange *x, int g);

/* ------------------------------- requests: ask the owner for an element */

/* For references whose element only the iteration's processor can name (a
 * subscript read from a distributed array, a guard that depends on data):
 * each processor asks the owners for the elements its iterations read
 * (the inspector), then every processor runs hd_requests_run together,
 * which sends the requests, answers the others' from its own elements and
 * receives the answers (the executor then reads them).  An element asked
 * for twice travels once. */
typedef struct hd_requests hd_requests;

hd_requests *hd_requests_new(void);
/* A ticket for element e of distributed array `array`, which lives on
 * virtual processor `from` (not the caller): the same element gives the
 * same ticket. */
hd_index hd_request(hd_requests *r, int array, int from, hd_index e);
/* Once per set, or again on a set of hd_requests_keep that has run: then
 * only the answers move (the same elements, their current values). */
void hd_requests_run(hd_requests *r);
/* After the run (each run of a kept set): the address of each ticket's
 * element. */
const void *const *hd_requests_values(const hd_requests *r);
void hd_requests_free(hd_requests *r);

/* The request set this processor keeps under `key` (any int >= 0 chosen by the
 * caller, one per doall and round) across executions.  When it exists and `same` is
 * nonzero, *q is set to it and 1 is returned: the caller skips its inspector and calls
 * hd_requests_run(*q) again, which then runs only the answers exchange.  Otherwise the kept
 * set (if any) is freed, *q is a new empty set kept under key, 0 is returned, and the caller
 * inspects (hd_request ...) and runs as usual.  Every processor of the doall must pass the
 * same `same` (the caller decides from data every processor has identically). Kept sets are
 * never passed to hd_requests_free; the library frees them when the run ends.
 * (Chung and Ranka 1990: the inspector runs once per mapping and index
 * contents; each later execution costs only the c_kl words of the
 * answers, one message per pair with a nonzero count.) */
int hd_requests_keep(int key, int same, hd_requests **q);
/* A buffer of `bytes` owned by request set q, freed with it: the same buffer (and contents)
 * on every later call with the same size for a kept set, so the caller can keep its
 * per-iteration tickets with the set.  A different size reallocates it. */
void *hd_requests_scratch(hd_requests *q, size_t bytes);


/* ------------------ Table distributions (Chung and Ranka 1990) */

/* An array of any size N whose element e lives on virtual processor
 * owner[e]: the mapping of a finite element graph's nodes onto the cube
 * that `hyperdo map` writes (docs/meshes.md), not a bit field of e.
 * Element e's local index on its owner is its rank among that owner's
 * elements in increasing e.  Every processor holds the same table (node
 * code builds its own copy: under MPI the host's is not the others').
 * Valid once hd_run has started; the table is copied and checked (an
 * owner outside 0 .. P-1 stops the program). */
typedef struct hd_table_dist hd_table_dist;

hd_table_dist *hd_table_dist_new(hd_index hd_N, const int *hd_owner);
void hd_table_dist_free(hd_table_dist *hd_d);
hd_index hd_table_size(const hd_table_dist *hd_d);
int hd_table_owner(const hd_table_dist *hd_d, hd_index hd_e);
hd_index hd_table_local_index(const hd_table_dist *hd_d, hd_index hd_e);
/* How many elements virtual processor vpid owns, and the global index of
 * its local index i (the inverse of hd_table_local_index). */
hd_index hd_table_local_count(const hd_table_dist *hd_d, int hd_vpid);
hd_index hd_table_global_index(const hd_table_dist *hd_d, int hd_vpid, hd_index hd_i);

/* The inspector/executor for indirect references x[i] = f(y[refs...])
 * over a table distribution, priced as Chung and Ranka's c_kl: each
 * needed element travels once per pair.  The inspector,
 * hd_gather_plan_new, is collective (every processor calls it in the same
 * doall): refs are the global indices this processor's iterations read
 * (repeats allowed, any order); it finds the distinct elements it needs
 * from each other processor (sorted by index), and two rounds of
 * messages tell each owner what to send (the count, to every processor;
 * then the list, to those asked anything).  When refs are the NB neighbours of a
 * processor's nodes, what k sends to l is c_kl of the paper.
 *
 * The executor, hd_gather_run, also collective: every processor sends
 * each other exactly the elements that one asked for (one message per
 * pair with a nonzero count, elem_size bytes each, in the asker's order;
 * no message where the count is 0) from its slice hd_slice
 * (hd_table_local_count elements, by local index), and fills values[i]
 * (nrefs x elem_size bytes) with element refs[i]'s value. */
typedef struct hd_gather_plan hd_gather_plan;

hd_gather_plan *hd_gather_plan_new(const hd_table_dist *hd_d, const hd_index *hd_refs,
                                   size_t hd_nrefs);
void hd_gather_run(const hd_gather_plan *hd_p, const void *hd_slice, size_t hd_elem_size,
                   void *hd_values);
/* The plan for (d, refs): old itself when old was built for the same d
 * (the same object of hd_table_dist_new, not an equal one) and refs of
 * the same contents (compared with old's copy, O(nrefs)),
 * otherwise a new plan (old is freed).  Collective: the processors agree
 * on rebuilding (a rebuild sends messages) by an all-reduce of their
 * "changed" flags, so one processor's new refs rebuild every plan.  old
 * may be NULL (then every processor builds). */
hd_gather_plan *hd_gather_plan_reuse(hd_gather_plan *hd_old, const hd_table_dist *hd_d,
                                     const hd_index *hd_refs, size_t hd_nrefs);
void hd_gather_plan_free(hd_gather_plan *hd_p);
/* How many times the inspector ran for this plan and those it replaced
 * (1 for a plan of hd_gather_plan_new): a reuse that kept it adds none. */
long hd_gather_plan_builds(const hd_gather_plan *hd_p);
/* How many elements this processor sends to / receives from vpid in one
 * run of the executor. */
size_t hd_gather_plan_words_to(const hd_gather_plan *hd_p, int hd_vpid);
size_t hd_gather_plan_words_from(const hd_gather_plan *hd_p, int hd_vpid);

#ifdef __cplusplus
}
#endif
#endif
