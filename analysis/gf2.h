/*
 * gf2.h — the algebra under Hyperdo's communication model: matrices and
 * affine maps over GF(2), reorderings of address bits, linear-complement
 * communications (LCCs), subspaces, cosets and linear systems, and the
 * classification of a pair of owner maps.
 *
 * Everything here follows Hou et al. 2001 (Hou, Wang, Ku, Hsu, "Optimal processor
 * mapping for linear-complement communication on hypercubes", IEEE TPDS
 * 2001); section, definition and theorem numbers below are that paper's.
 *
 * Conventions (the paper's, used throughout Hyperdo):
 *   - node x = sum x_i 2^i, so bit 0 is the least significant address bit;
 *   - a matrix row i is stored as one uint64_t whose bit j is a_ij, so
 *     row i is printed left to right as a_i0 a_i1 ... a_i,n-1;
 *   - all arithmetic is over GF(2); dimensions n are 1 .. HD_MAX_DIM.
 *
 * Every type here is a plain value: nothing returned needs freeing, except
 * where a function says so.
 */
#ifndef HYPERDO_GF2_H
#define HYPERDO_GF2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hd_alloc.h"
#include "hd_limits.h"

/* Status codes of the functions that can fail. */
enum {
    HD_OK = 0,
    HD_EINVAL = -1,   /* argument outside the documented domain */
    HD_ETOOBIG = -2,  /* n above the algorithm's limit */
    HD_ENOMEM = -3,   /* allocation failed */
};

/* ---------------------------------------------------------------- GF(2) */

/* An n x n binary matrix; rows n .. HD_MAX_DIM-1 and bits >= n are zero. */
typedef struct {
    int n;
    uint64_t row[HD_MAX_DIM];
} hd_matrix;

uint64_t hd_mask(int n);                       /* the low n bits set */
hd_matrix hd_matrix_zero(int n);
hd_matrix hd_matrix_identity(int n);
bool hd_matrix_equal(const hd_matrix *a, const hd_matrix *b);
uint64_t hd_matrix_apply(const hd_matrix *a, uint64_t x);   /* A x */
hd_matrix hd_matrix_mul(const hd_matrix *a, const hd_matrix *b);
hd_matrix hd_matrix_transpose(const hd_matrix *a);
uint64_t hd_matrix_column(const hd_matrix *a, int j); /* bit i = a_ij */
int hd_rank(const hd_matrix *a);
/* The rank of nrows rows of 64 bits (an affine map's 64 output rows, two
 * owner maps stacked). */
int hd_rank_rows(const uint64_t *rows, int nrows);
/* Rank of the submatrix A_{R,C} of Definition 5: rows in the set `rows`,
 * columns in the set `cols` (bit masks). */
int hd_rank_sub(const hd_matrix *a, uint64_t rows, uint64_t cols);
/* The columns j of A_{R,C} that are linear combinations of the other
 * columns of A_{R,C}: the union of the supports of its null space. */
uint64_t hd_dependent_columns(const hd_matrix *a, uint64_t rows,
                              uint64_t cols);
/* Inverse over GF(2); false (and *inv untouched) when A is singular. */
bool hd_matrix_inverse(const hd_matrix *a, hd_matrix *inv);
/* True when every row and column holds exactly one 1. */
bool hd_matrix_is_permutation(const hd_matrix *a);

/* ------------------------------------------------------------ orderings */

/* A reordering mapping (Definition 8) given as the paper's R(L_n) of
 * Section 5: new address bit k takes old bit r[k], so the permutation
 * matrix Q has its row k's 1 in column r[k] and x' = Q x. */
typedef struct {
    int n;
    uint8_t r[HD_MAX_DIM];
} hd_order;

hd_order hd_order_identity(int n);
bool hd_order_is_valid(const hd_order *o);     /* a permutation of 0..n-1 */
hd_order hd_order_reversed(const hd_order *o); /* (r_{n-1}, ..., r_0) */
hd_order hd_order_inverse(const hd_order *o);
hd_matrix hd_order_matrix(const hd_order *o);  /* Q */
uint64_t hd_order_apply(const hd_order *o, uint64_t x); /* Q x */

/* ------------------------------------------------------------ the model */

/* Which way messages go.  A gather (or permutation) sends from every source
 * x to y = A x + b (Definitions 1-3); a scatter sends to every destination
 * y from x = A y + b (Definition 4). */
typedef enum { HD_GATHER, HD_SCATTER } hd_direction;

/* Definitions 2-4.  A scatter whose A is nonsingular is a permutation and
 * classified LCP. */
typedef enum { HD_LCP, HD_LCG, HD_LCS } hd_lcc_class;

typedef struct {
    hd_direction dir;
    hd_matrix A;
    uint64_t b;
} hd_lcc;

hd_lcc_class hd_lcc_classify(const hd_lcc *c);
/* Equal direction, A and b; and a hash that equal LCCs share (a program
 * repeats its communications: the plan and the analysis store each once). */
bool hd_lcc_equal(const hd_lcc *a, const hd_lcc *b);
size_t hd_lcc_hash(const hd_lcc *c);
const char *hd_lcc_class_name(hd_lcc_class k);  /* "LCP", "LCG", "LCS" */
/* Bit-permute-complement: A is a permutation matrix. */
bool hd_lcc_is_bpc(const hd_lcc *c);
/* Dimension i carries no message: y_i = x_i for every message, i.e. row i
 * of A is the unit row e_i and b_i = 0 (Section 4, before Theorem 3). */
bool hd_lcc_dim_is_fixed(const hd_lcc *c, int i);
/* Theorem 2: the same communication between physical processors after the
 * reordering o (o->n must equal c->A.n), (Q A Q^-1, Q b).  Holds for scatters too, since
 * x' = Q x = Q A Q^-1 y' + Q b. */
hd_lcc hd_lcc_reorder(const hd_lcc *c, const hd_order *o);
/* The (source, destination) pair of message number t, 0 <= t < 2^n: for a
 * gather the message from source t, for a scatter the one to destination t. */
void hd_lcc_message(const hd_lcc *c, uint64_t t, uint64_t *src, uint64_t *dst);

/* ------------------------------------------- affine maps of an index */

/* A GF(2)-affine map from the k bits of a loop variable i (0 <= i < 2^k) to
 * the 64 bits of an integer: bit t of the value is
 * parity(row[t] & i) ^ (bit t of c).  The front end describes index
 * expressions this way; owner maps are the same with only the low n output
 * bits kept. */
typedef struct {
    int in;                 /* k, 0 .. 64 */
    uint64_t row[64];
    uint64_t c;
} hd_affine;

hd_affine hd_affine_constant(int in, uint64_t value);
hd_affine hd_affine_identity(int in);    /* the loop variable itself */
uint64_t hd_affine_apply(const hd_affine *f, uint64_t i);
/* Output bits that are 0 for every i. */
uint64_t hd_affine_zero_bits(const hd_affine *f);
/* g after f: i -> g(f(i)), with `out` output bits (g's row t reads f's
 * output bits; g->in is f's output width). */
hd_affine hd_affine_compose(const hd_affine *g, const hd_affine *f, int out);
bool hd_affine_is_constant(const hd_affine *f);
/* A nonzero v such that the low `bits` output bits of f(i) and f(i ^ v) agree
 * for every i, or 0 when those bits of f are one-to-one. */
uint64_t hd_affine_collision(const hd_affine *f, int bits);

/* ------------------------------------------- subspaces and cosets */

/* A linear subspace of GF(2)^k (k <= 64) in reduced echelon form by
 * highest bit: v[0 .. dim) are a basis, each v[t] has a highest bit (its
 * leading bit) that no other v[t'] has, and the leading bits increase
 * with t.  The form is unique for a given subspace (coset.c says why it
 * is the useful one). */
typedef struct {
    int k;
    int dim;
    uint64_t v[64];
} hd_space;

hd_space hd_space_zero(int k);
/* Adds x to the span (keeping the form); false when it was already in. */
bool hd_space_add(hd_space *s, uint64_t x);
uint64_t hd_space_leads(const hd_space *s);          /* the leading bits */
/* x minus its components on the leading bits: linear, 0 exactly on S, and
 * the same for every element of the coset x + S (its canonical element). */
uint64_t hd_space_reduce(const hd_space *s, uint64_t x);
bool hd_space_contains(const hd_space *s, uint64_t x);
/* sum of v[t] over the set bits t of j; x0 + this is increasing in j for a
 * reduced x0 (hd_space_reduce(s, x0) == x0). */
uint64_t hd_space_element(const hd_space *s, uint64_t j);
/* Spanned by single bits: its elements are the values of a bit field. */
bool hd_space_is_coordinate(const hd_space *s);
/* The image of S under the linear part of f, in GF(2)^out_bits. */
hd_space hd_space_image(const hd_space *s, const hd_affine *f, int out_bits);
/* A complement of sub (a subspace of whole) inside whole. */
hd_space hd_space_complement(const hd_space *whole, const hd_space *sub);
/* {i in GF(2)^k : parity(rows[r] & i) = 0 for r < m}, any m >= 0. */
hd_space hd_null_space(const uint64_t *rows, int m, int k);

/* The solutions of parity(rows[r] & i) = y_r for r < m (m, k <= 64), for
 * every right-hand side y at once: the system is consistent for y exactly
 * when parity(check[c] & y) = 0 for every c < nchecks, and then its
 * solutions are x0 + null with x0 = sum of part[r] over the set bits r of
 * y, reduced modulo null, so that hd_space_element enumerates them in
 * increasing order. */
typedef struct {
    int m, k;
    hd_space null;
    int nchecks;
    uint64_t check[64];
    uint64_t part[64];
} hd_system;

int hd_system_solve(const uint64_t *rows, int m, int k, hd_system *out);
/* One solution x of parity(rows[r] & x) = rhs[r] for r < m (any m), or
 * false when there is none. */
bool hd_solve_one(const uint64_t *rows, const uint8_t *rhs, int m, int k, uint64_t *x);
/* Flow dependence of a doall: iterations iw < ir (of w.in = r.in = k bits)
 * where the element w writes at iw is the one r reads at ir (their low
 * `bits` output bits agree).  1 with an example in *iw, *ir; 0 when there
 * is none; HD_EINVAL when w is not one-to-one on those bits. */
int hd_affine_flow_conflict(const hd_affine *w, const hd_affine *r, int bits,
                            uint64_t *iw, uint64_t *ir);
bool hd_system_consistent(const hd_system *s, uint64_t y);
uint64_t hd_system_particular(const hd_system *s, uint64_t y);

/* What one array reference makes processors exchange under owner computes:
 * iteration i runs on dst(i), the element it reads lives on src(i) (both
 * given by their low n output bits). */
typedef enum {
    HD_COMM_LOCAL,    /* src(i) = dst(i) for every i: no message */
    HD_COMM_LCC,      /* an LCC on the n-cube */
    HD_COMM_GENERAL,  /* some other pattern; the reason says why */
    /* Room for the patterns later papers bring; nothing produces them
     * yet, and consumers would carry them as general communications: */
    HD_COMM_GRAPH,    /* messages given by data, e.g. a mesh's adjacency
                       * (Chung and Ranka 1990) */
    HD_COMM_COLLECTIVE, /* a broadcast, reduction or all-to-all, priced as
                       * a link-bound collective (Stout and Wagar 1990) */
} hd_comm_kind;

/* A communication as a value: its kind, the linear-complement
 * communication when it is one (Hou et al. 2001, Definitions 1-4: a gather
 * y = A x + b or a scatter x = A y + b) and, when it is general, why it is
 * not one.  Small and copied freely: the LCC and the reason are borrowed
 * from whoever made them (the analysis's per-reference results,
 * hd_analysis, or a spec).  A graph (Chung and Ranka 1990) or a collective
 * (Stout and Wagar 1990) will carry their own description here when a
 * producer of them exists; none does yet. */
typedef struct {
    hd_comm_kind kind;
    const hd_lcc *lcc;      /* HD_COMM_LCC: the communication; else NULL */
    const char *reason;     /* HD_COMM_GENERAL: why; else NULL */
    uint64_t b_runtime;     /* HD_COMM_LCC: the bits of b that depend on
                             * values known only at run time (an LCC family:
                             * A fixed, b computed when the loop runs); b
                             * has them set, the worst case for contention
                             * (Theorem 1's T_i is 0 only where no message
                             * changes bit i) */
} hd_comm;

/* The communication of a read whose element lives on src(i) when
 * iteration i runs on dst(i).  An LCC is written into *lcc, which the
 * result then points to: a gather y = A x + b when every processor is a
 * source and a source's address determines its destination's (the rows of
 * dst lie in the row space of src, which has rank n), a scatter
 * x = A y + b in the mirror case; a permutation is given as a gather.
 * A general result's reason is a static string. */
hd_comm hd_comm_from_owners(int n, const hd_affine *src, const hd_affine *dst,
                            hd_lcc *lcc);
/* The same when the bits `unknown` of src's constant are known only at
 * run time (an LCC family): local only when no value of them makes it
 * otherwise; an LCC whose b has every bit that some value of them can set
 * (b_runtime); general when the linear parts make it so. */
hd_comm hd_comm_family(int n, const hd_affine *src, uint64_t unknown,
                       const hd_affine *dst, hd_lcc *lcc);

#endif
