/*
 * transport.h — the functions a transport implements, for the common
 * part of the library (hd_internal.h, which includes it).
 *
 * No include guard: transport_sim.c builds the threads transport a second
 * time under other names (hd__tr_* defined as hd__thr_*) and includes
 * this file again under those names to declare it.
 */
#include <stddef.h>

/* The back end's name, for messages ("threads", "MPI"). */
extern const char hd__tr_name[];
/* 1 when every processor is a thread of one process (what one writes in
 * memory the others can read after hd__tr_finish), 0 for MPI. */
extern const int hd__tr_shared;

/* Starts nprocs processors.  Threads: the calling thread becomes physical
 * processor 0 and nprocs - 1 new threads run node_main() (each with its own
 * physical id), then the call returns in processor 0.  MPI: initialises MPI
 * (which may remove its own arguments from argc/argv), checks that there
 * are exactly nprocs ranks (otherwise prints the error and aborts) and
 * returns in every rank; node_main is unused (common.c runs the node loop
 * itself when hd__tr_self() != 0). */
void hd__tr_start(int nprocs, int *argc, char ***argv, void (*node_main)(void));

/* The calling processor's physical id, or -1 outside the processors. */
int hd__tr_self(void);

/* Sends size bytes to physical processor p without waiting for p: the
 * data are copied (or handed to a non-blocking send), so `data` may be
 * reused when the call returns.  Messages of one ordered pair stay in
 * order. */
void hd__tr_send(int p, const void *data, size_t size);

/* Takes the next message from physical processor p, waiting for it, and
 * returns its size.  If that is `size`, the bytes are in `data`;
 * otherwise `data` is untouched (the caller reports the error). */
size_t hd__tr_recv(int p, void *data, size_t size);

/* Returns when every processor has called it.  Does not wait for sent
 * messages to be received (that could deadlock a send-barrier-receive
 * pattern). */
void hd__tr_barrier(void);

/* Called by the host at shutdown, after the EXIT commands are sent, and
 * (MPI) by every other rank when its node loop has ended: waits for the
 * other processors (threads: joins them) or for the pending sends (MPI),
 * then releases everything (MPI_Finalize). */
void hd__tr_finish(void);

/* A collective of hyperdo/coll.h begins (sched: its hd_coll_sched, the
 * same on every processor; bytes: one message's) or ends (sched NULL) on
 * the calling processor.  The sim back end's link-bound model times each
 * collective as a phase of its own; the others do nothing. */
void hd__tr_coll(const void *sched, double bytes);

/* Stops the whole program with status 1, at once (stdout is flushed
 * first when that is safe).  Threads: _exit(1).  MPI: MPI_Abort. */
HD_NORETURN void hd__tr_abort(void);
