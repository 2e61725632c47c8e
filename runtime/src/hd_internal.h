/*
 * hd_internal.h — what the common part of the run-time library
 * (common.c: hd_run's host/node protocol, scatter/gather, hd_local,
 * hd_exchange, the v_* range checks) needs from a transport, and what a
 * transport may call back; and the functions the library's files share
 * (layout.c: where elements live; buffers.c; stats.c).  Two transports implement it:
 * transport_threads.c (libhyperdo.a: every processor a pthread of one
 * process) and transport_mpi.c (libhyperdo-mpi.a: one MPI rank each).
 *
 * Transports address processors by PHYSICAL id (0 .. P-1); the common
 * part translates virtual ids with the program's tables.
 */
#ifndef HD_INTERNAL_H
#define HD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hyperdo.h"

#if defined(__GNUC__)
#define HD_NORETURN __attribute__((noreturn))
#define HD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HD_NORETURN
#define HD_PRINTF(f, a)
#endif

/* ---------------------------------------------- the transport */

#include "transport.h"

/* ---------------------------------------- from the common part */

/* Prints "hyperdo: error: SOURCE: processor P (virtual V): MESSAGE" on
 * stderr and aborts the whole program with status 1. */
HD_NORETURN HD_PRINTF(1, 2) void hd__fatal(const char *fmt, ...);

/* The virtual processor physical processor p plays (hd_run has started). */
int hd__virtual_of(int p);
/* Whether the caller runs node code: a processor other than the host, or
 * the host inside hd_doall's node function. */
int hd__in_node_code(void);
int hd__physical_of(int v);

/* The running program's description of distributed array `array`, or NULL
 * when there is no such array. */
const hd_array_desc *hd__array_desc(int array);

/* ------------------------------- layout.c: where each element lives */

/* At hd_run, after the program's checks: each array's layout, the bit
 * field at its shift or layouts[array] when that is not NULL (layouts
 * itself may be NULL), or the table tables[array] (hd_run_tables; tables
 * may be NULL); a general layout is checked (rows within the array's
 * bits, one-to-one) and inverted, a table checked (owners in 0 .. P-1)
 * and counted, or the program stops with the reason.  hd__layouts_stop
 * releases them. */
void hd__layouts_start(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                       const hd_table_desc *const *tables);
void hd__layouts_stop(void);
/* The owner (virtual processor) and the local offset of element e of
 * array `array`, and the element at offset o of virtual processor v: the
 * one place the library computes them, whatever the layout. */
int hd__owner_of(int array, hd_index e);
hd_index hd__offset_of(int array, hd_index e);
hd_index hd__element_at(int array, int v, hd_index o);
/* A layout as the library keeps it (layout.c); NULL is the bit field at
 * the array table's shift. */
typedef struct hd__layout hd__layout;
/* Array `array` takes layout `to` (NULL: the bit field), checked; the one
 * it had stays hd__layout_before until its next change (a remap's
 * exchange reads both).  Whoever calls it makes sure that no processor
 * is using the array's layouts: under shared memory the host, once the
 * processors are idle; under MPI each rank for itself.  `fn` names the
 * caller in a message. */
void hd__layout_change(const char *fn, int array, const hd_layout_desc *to);
const hd__layout *hd__layout_now(int array);
const hd__layout *hd__layout_before(int array);
/* Where element e lives, and the element at (v, o), under layout g. */
int hd__owner_by(const hd__layout *g, int array, hd_index e);
hd_index hd__offset_by(const hd__layout *g, int array, hd_index e);
hd_index hd__element_by(const hd__layout *g, int array, int v, hd_index o);
/* A descriptor as words (log2_size + 2 of them: the owner rows, its
 * constant, the offset rows, its constant), for a message; unpack points
 * into w. */
size_t hd__layout_words(int array);
void hd__layout_pack(int array, const hd_layout_desc *l, uint64_t *w);
hd_layout_desc hd__layout_unpack(int array, const uint64_t *w);
/* Array `array` becomes a spread (hd_table_desc without owners) of N
 * elements in blocks of `block` (0: ceil(N/P), HPF's BLOCK), checked
 * (`fn` names the caller in a message); hd__spread_of gives them back,
 * or 0 when the array is no spread.  Whoever changes a spread makes
 * sure no processor is using the array (as for hd__layout_change). */
void hd__spread_set(const char *fn, int array, hd_index N, hd_index block);
int hd__spread_of(int array, hd_index *N, hd_index *block);
/* Is the array's owner the bit field at shift?  Is it a table's (given
 * or a spread)? */
int hd__layout_is_bit_field(int array);
int hd__layout_is_table(int array);
/* The array's element count (N under a table, else 2^log2_size) and how
 * many of them virtual processor v holds (2^(log2_size - n) unless a
 * table says otherwise). */
hd_index hd__array_size(int array);
hd_index hd__local_count(int array, int v);
/* How many consecutive local offsets, from each multiple of it, hold
 * consecutive elements: 2^shift for the bit field, 1 for a general
 * layout (whose runs the library does not look for). */
hd_index hd__run_length(int array);

/* --------------------------------- table.c: table distributions */

/* hd_table_dist_new for P processors, callable before the processors
 * start (hd_run_tables builds its arrays' tables with it): the table
 * copied and checked, an owner outside 0 .. P-1 stopping the program with
 * a message that names `fn` and, when not NULL, the array `name`. */
hd_table_dist *hd__table_dist_make(hd_index N, const int *owner, int P, const char *fn,
                                   const char *name);

/* ------------------------- requests.c: kept request sets */

/* hd_run's start and end: room for each physical processor's kept
 * request sets (hd_requests_keep), and their release.  Each processor
 * frees its own with hd__requests_forget when it stops (threads share
 * the address space, and a set is one processor's). */
void hd__requests_start(int nprocs);
void hd__requests_forget(void);
void hd__requests_stop(void);

/* ------------------------- relayout.c: a remap's exchange (Wu 1984) */

/* The calling processor's part of a remap of array `array`, whose layout
 * has just changed (hd__layout_before -> hd__layout_now): with `move`,
 * each of its elements whose owner changes goes to the new owner (one
 * message per pair, v_send / v_receive) and the others to their new
 * offsets, in a new slice; without, the slice is kept as it is (stale).
 * was_alias: the slice was a run of the host's copy (not to be freed). */
void hd__relayout_here(int array, int move, int was_alias);
/* The calling processor's slot for its slice of array `array` (common.c):
 * NULL until first used. */
void **hd__slice_slot(int array);

/* ----------------------------------- buffers.c: reused message buffers */

/* Like malloc (NULL when out of memory) and free, but large blocks are
 * kept for the next request of their size class by the calling thread;
 * hd__buf_put takes the size the block was asked with.  hd__buf_flush
 * frees the calling thread's kept blocks (at its end). */
void *hd__buf_get(size_t size);
void hd__buf_put(void *p, size_t size);
void hd__buf_flush(void);

/* ------------------------------------------- stats.c (HYPERDO_STATS) */

void hd__stats_start(int nprocs, int ndoalls, int narrays);
void hd__stats_doall(int doall, int entering);  /* the caller enters / leaves */
void hd__stats_remap(int array, int entering);  /* ... a remap's exchange */
void hd__stats_send(size_t bytes);              /* a v_send of the caller */
void hd__stats_host(int gather, size_t bytes);  /* hd_scatter (0), hd_gather (1) */
void hd__stats_node_exit(void);                 /* MPI rank at EXIT */
void hd__stats_collect(void);                   /* host, after EXIT (MPI) */
void hd__stats_write(const char *source);       /* host, at the end */

#endif
