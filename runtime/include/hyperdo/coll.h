/*
 * hyperdo/coll.h — collective communications of the run-time library:
 * the link-bound hypercube algorithms of Stout and Wagar 1990
 * ("Intensive hypercube communication: prearranged communication in
 * link-bound machines", Sections 2-8), executed over the program's
 * transport (threads, MPI or sim).  docs/collectives.md gives each
 * algorithm, its time and where it pays; docs/runtime.md the calls.
 *
 * Every processor of the program calls a collective with the same
 * arguments (except the buffers), from node code: a doall's node
 * function, or the node functions of a hand-written hd_run program.
 * Processors are named by VIRTUAL id (v_get_pid()), and buffers that hold
 * one block per processor are ordered by virtual id, as v_send is; the
 * packets themselves travel on the links of the physical hypercube
 * (to_physical), where the algorithms are defined.
 *
 * One generator (runtime/coll/schedule.c) gives every algorithm's packets
 * per node and stage; the same schedule is executed here and timed by the
 * link-bound simulator (`hyperdo sim --model linkbound`), so what is
 * simulated is what runs.  A schedule is built once per process and
 * shape and then reused.
 *
 * Element counts are in elements of `size` bytes (the blocking
 * collectives) or of `type` (the reductions).  Results are byte-identical
 * to a sequential reference for the data collectives and for integer and
 * bitwise reductions; floating-point reductions are reassociated (summed
 * in the order HISTOGRAM's stages give, which depends only on the number
 * of processors), so they are deterministic for one cube size but may
 * differ in the last bits from a sequential loop (docs/annotations.md).
 *
 * send and recv may overlap (in place): the sent data are copied first.
 * Collectives run in node code only: called by the host outside a doall
 * they stop the program with the reason.
 *
 * Errors of use (an unknown algorithm, an operator the type has no, a
 * root out of range, a transpose on an odd dimension) stop the program
 * with "hyperdo: error: ..." as the rest of the library does.
 */
#ifndef HYPERDO_COLL_H
#define HYPERDO_COLL_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The algorithms, by their names in Stout and Wagar 1990 (the names in
 * brackets are `hyperdo sim --coll`'s). */
typedef enum {
    HD_COLL_BCAST1,        /* [bcast1] BROADCAST 1, recursive doubling, Sec. 2 */
    HD_COLL_BCAST2,        /* [bcast2] BROADCAST 2, symmetrized */
    HD_COLL_BCAST3A,       /* [bcast3a] BROADCAST 3A, systolic wave */
    HD_COLL_BCAST3B,       /* [bcast3b] BROADCAST 3B, two waves */
    HD_COLL_BCAST4,        /* [bcast4] BROADCAST 4, 3A pipelined in g groups */
    HD_COLL_OCSEND1,       /* [ocsend1] O.C. SEND 1..4, Sec. 3: root to root ^ (P-1) */
    HD_COLL_OCSEND2,       /* [ocsend2] */
    HD_COLL_OCSEND3,       /* [ocsend3] */
    HD_COLL_OCSEND4,       /* [ocsend4] */
    HD_COLL_ARBSEND1,      /* [arbsend1] ARBITRARY SEND 1..3, Sec. 4: root to root ^ (2^n - 1) */
    HD_COLL_ARBSEND2,      /* [arbsend2] */
    HD_COLL_ARBSEND3,      /* [arbsend3] */
    HD_COLL_XOCSEND1,      /* [xocsend1] X.O.C. SEND 1..2, Sec. 4: through the subcube at bit n */
    HD_COLL_XOCSEND2,      /* [xocsend2] */
    HD_COLL_DISTRIBUTE1,   /* [distribute1] DISTRIBUTE 1, Sec. 5 (scatter) */
    HD_COLL_DISTRIBUTE2,   /* [distribute2] DISTRIBUTE 2, waves of growing size */
    HD_COLL_COLLECT,       /* [collect] COLLECT: DISTRIBUTE 1 run backwards (gather) */
    HD_COLL_ALLGATHER,     /* [allgather] COMPLETE BROADCAST, Sec. 6 */
    HD_COLL_INVERSION,     /* [inversion] INVERSION: x sends to x ^ (P-1) */
    HD_COLL_ALLTOALL,      /* [alltoall] COMPLETE EXCHANGE */
    HD_COLL_PERMUTED,      /* [permuted] PERMUTED SEND: two complete exchanges */
    HD_COLL_TRANSPOSE_ROWS,   /* [transpose-rows] Sec. 7.1: a complete exchange */
    HD_COLL_TRANSPOSE_BLOCKS, /* [transpose-blocks] Sec. 7.2 by PERMUTED SEND */
    HD_COLL_TRANSPOSE_LC,     /* [transpose-lc] Sec. 7.2 by L.C. INVERSION */
    HD_COLL_HISTOGRAM,     /* [histogram] HISTOGRAM, Sec. 8 (reduce-scatter) */
    HD_COLL_NALGS
} hd_coll_alg;

/* The reduction operators (OpenMP's reduction identifiers). */
typedef enum {
    HD_OP_SUM, HD_OP_PROD, HD_OP_MIN, HD_OP_MAX, HD_OP_BAND, HD_OP_BOR, HD_OP_BXOR,
    HD_NOPS
} hd_coll_op;

/* The element types of reductions.  min and max are refused for the
 * complex types, & | ^ for the floating ones. */
typedef enum {
    HD_T_INT8, HD_T_INT16, HD_T_INT32, HD_T_INT64,
    HD_T_UINT8, HD_T_UINT16, HD_T_UINT32, HD_T_UINT64,
    HD_T_FLOAT, HD_T_DOUBLE, HD_T_LDOUBLE,
    HD_T_CFLOAT, HD_T_CDOUBLE, HD_T_CLDOUBLE,
    HD_NTYPES
} hd_coll_type;

/* The algorithm's name as `hyperdo sim --coll` spells it, and back (-1
 * for an unknown name). */
const char *hd_coll_alg_name(hd_coll_alg alg);
int hd_coll_alg_from_name(const char *name);
size_t hd_coll_type_size(hd_coll_type type);

/* Everything one collective needs; the convenience calls below fill it.
 * Fields an algorithm does not use are ignored. */
typedef struct {
    hd_coll_alg alg;
    int root;             /* virtual id of the broadcasting / sending / distributing node */
    int g;                /* groups of a pipelined algorithm (0: the paper's optimum for m) */
    int q;                /* packets per physical link of L.C. INVERSION (0: the least valid) */
    int n;                /* distance of an ARBITRARY SEND, subcube of an X.O.C. SEND */
    const void *send;
    void *recv;
    size_t count;         /* elements per message (per block for the per-node collectives) */
    size_t size;          /* bytes per element */
    const int *dest;      /* PERMUTED SEND: dest[v] is where virtual v's message goes */
    hd_coll_type type;    /* HISTOGRAM */
    hd_coll_op op;
    uint64_t dims;        /* 0: the whole cube.  Else physical dimensions: the
                           * algorithm (BCAST*, DISTRIBUTE*, COLLECT,
                           * ALLGATHER) runs in every coset of the subcube
                           * they span at once, on disjoint links; root is
                           * the virtual id of the root of the caller's own
                           * coset, and block j of send or recv belongs to
                           * the member whose physical number has j in
                           * those bits (hd_coll_subcube_index) */
} hd_coll_args;

/* Runs one algorithm on every processor.  What send and recv hold:
 *   BCAST*, OCSEND*, ARBSEND*, XOCSEND*: recv (count elements) on the root
 *       is the message, and where it arrives (every node for a broadcast,
 *       the one destination for a send) recv receives it; send is unused;
 *   DISTRIBUTE*: the root's send holds P blocks, block v for virtual v;
 *       every node's recv gets its block;
 *   COLLECT: every node's send (one block) lands in block v of the root's recv;
 *   ALLGATHER: every node's send (one block) lands in block v of every recv;
 *   ALLTOALL, TRANSPOSE_ROWS: block w of v's send lands in block v of w's recv;
 *   INVERSION: v's send lands in the recv of the virtual processor on the
 *       physical node opposite v's;
 *   PERMUTED: v's send lands in dest[v]'s recv (dest a permutation);
 *   TRANSPOSE_BLOCKS, TRANSPOSE_LC: the send of the node at physical
 *       a 2^c + b lands in the recv of the node at b 2^c + a (d = 2c);
 *   HISTOGRAM: every send holds P * count elements of `type`; the
 *       op-combination over all nodes of block v lands in v's recv. */
void hd_coll_run(const hd_coll_args *args);
/* Virtual processor v's block in a collective over the subcube `dims`
 * (hd_coll_args.dims): its physical number's bits at those dimensions. */
int hd_coll_subcube_index(int v, uint64_t dims);

/* The everyday calls, each with the algorithm whose time has the optimal
 * highest-order term (Stout and Wagar 1990, Section 9). */
void hd_coll_bcast(void *buf, size_t bytes, int root);
void hd_coll_scatter(const void *send, void *recv, size_t bytes, int root);
void hd_coll_gather(const void *send, void *recv, size_t bytes, int root);
void hd_coll_allgather(const void *send, void *recv, size_t bytes);
void hd_coll_alltoall(const void *send, void *recv, size_t bytes);
/* dest: a permutation of the virtual ids. */
void hd_coll_permute(const void *send, void *recv, size_t bytes, const int *dest);
/* The linear-complement permutation y = A x + b over GF(2) of the
 * virtual ids (Hou et al. 2001, Def. 2: rows[t] holds row t of A, bit 0
 * the least significant); A must be nonsingular. */
void hd_coll_permute_lc(const void *send, void *recv, size_t bytes, const uint64_t *rows,
                        uint64_t b);
/* An N x N matrix of `elem` bytes stored in 2^d = 2^(2c) square blocks
 * of (N/2^c)^2 elements, block (x, y) in virtual x 2^c + y, row-major
 * inside a block: afterwards recv holds block (x, y) of the transpose.
 * By L.C. INVERSION (Section 7.2); d must be even. */
void hd_coll_transpose(const void *send, void *recv, size_t n, size_t elem);
/* What translate writes for a doall whose communication is a
 * permutation when the cost model prefers a collective (docs/
 * collectives.md): every node sends its nsend bytes to dest[its virtual
 * id] and receives nrecv bytes, by INVERSION, L.C. INVERSION
 * (HD_COLL_TRANSPOSE_LC), the block transposition by PERMUTED SEND or
 * PERMUTED SEND (alg).  The sizes may differ between nodes (they are
 * exchanged first); dest must be a permutation. */
void hd_coll_exchange(hd_coll_alg alg, const void *send, size_t nsend, void *recv, size_t nrecv,
                      const int *dest);
/* The same when the receiver does not know the size: the message comes in
 * a new buffer (free it), its size in *nrecv. */
void *hd_coll_exchange_new(hd_coll_alg alg, const void *send, size_t nsend, size_t *nrecv,
                           const int *dest);
/* Every processor's message to every other, each of its own size, known
 * at both of its ends (send[v], nsend[v] to virtual v; recv[v], nrecv[v]
 * from v), by COMPLETE EXCHANGE after the sizes' COMPLETE BROADCAST; a
 * processor's message to itself is not moved. */
void hd_coll_alltoallv(const void *const *send, const size_t *nsend, void *const *recv,
                       const size_t *nrecv);
/* Stops the program unless got == expected (the translated code's check
 * that a collective brought what the doall's own count expects). */
void hd_coll_check_size(size_t got, size_t expected);
/* Reductions over count elements of `type` per node. */
void hd_coll_reduce_scatter(const void *send, void *recv, size_t count_per_node,
                            hd_coll_type type, hd_coll_op op);
void hd_coll_reduce(const void *send, void *recv, size_t count, hd_coll_type type,
                    hd_coll_op op, int root);
void hd_coll_allreduce(const void *send, void *recv, size_t count, hd_coll_type type,
                       hd_coll_op op);

#ifdef __cplusplus
}
#endif
#endif
