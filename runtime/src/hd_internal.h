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

/* The running program's description of distributed array `array`, or NULL
 * when there is no such array. */
const hd_array_desc *hd__array_desc(int array);

/* ------------------------------- layout.c: where each element lives */

/* At hd_run, after the program's checks: each array's layout, the bit
 * field at its shift or layouts[array] when that is not NULL (layouts
 * itself may be NULL); a general layout is checked (rows within the
 * array's bits, one-to-one) and inverted, or the program stops with the
 * reason.  hd__layouts_stop releases them. */
void hd__layouts_start(const hd_program_desc *program, const hd_layout_desc *const *layouts);
void hd__layouts_stop(void);
/* The owner (virtual processor) and the local offset of element e of
 * array `array`, and the element at offset o of virtual processor v: the
 * one place the library computes them, whatever the layout. */
int hd__owner_of(int array, hd_index e);
hd_index hd__offset_of(int array, hd_index e);
hd_index hd__element_at(int array, int v, hd_index o);
/* Is the array's owner the bit field at shift? */
int hd__layout_is_bit_field(int array);
/* How many consecutive local offsets, from each multiple of it, hold
 * consecutive elements: 2^shift for the bit field, 1 for a general
 * layout (whose runs the library does not look for). */
hd_index hd__run_length(int array);

/* ----------------------------------- buffers.c: reused message buffers */

/* Like malloc (NULL when out of memory) and free, but large blocks are
 * kept for the next request of their size class by the calling thread;
 * hd__buf_put takes the size the block was asked with.  hd__buf_flush
 * frees the calling thread's kept blocks (at its end). */
void *hd__buf_get(size_t size);
void hd__buf_put(void *p, size_t size);
void hd__buf_flush(void);

/* ------------------------------------------- stats.c (HYPERDO_STATS) */

void hd__stats_start(int nprocs, int ndoalls);
void hd__stats_doall(int doall, int entering);  /* the caller enters / leaves */
void hd__stats_send(size_t bytes);              /* a v_send of the caller */
void hd__stats_host(int gather, size_t bytes);  /* hd_scatter (0), hd_gather (1) */
void hd__stats_node_exit(void);                 /* MPI rank at EXIT */
void hd__stats_collect(void);                   /* host, after EXIT (MPI) */
void hd__stats_write(const char *source);       /* host, at the end */

#endif
