/*
 * analysis.h — Hyperdo's analysis: the contention of LCCs on the target
 * network and the mapping optimizers (the algebra they use is gf2.h).
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
#ifndef HYPERDO_ANALYSIS_H
#define HYPERDO_ANALYSIS_H

#include <stdio.h>

#include "gf2.h"
#include "hd_alloc.h"
#include "hyperdo/cost.h"
#include "model.h"


/* ----------------------------------------------------------- contention */

/* The target: the network the program runs on and the time model of its
 * messages.  The contention, objective-cost and set-optimizer functions
 * below take it and dispatch on its kind, so that another network (Wu
 * 1984's omega network, whose cost is counted in passes) adds a case to
 * each rather than edits across the stages.  Only the e-cube
 * wormhole-routed hypercube of Section 2.3 exists today: Theorems 1 and 2
 * and Section 5's dynamic program are its implementation. */
typedef enum {
    HD_TARGET_ECUBE_HYPERCUBE,
    HD_TARGET_OMEGA,       /* Wu 1984, Chapter 2: cost in passes */
    HD_TARGET_BUTTERFLY,   /* the indirect binary n-cube, Wu 1984 Chapter 5 */
} hd_target_kind;
typedef struct {
    hd_target_kind kind;
    int n;                  /* 2^n nodes */
    hd_cost_model cost;     /* hyperdo/cost.h, shared with the runtime */
} hd_target;

/* The n-cube with e-cube routing and the nCUBE-2's costs (Section 6.2). */
hd_target hd_target_ecube(int n);
/* Wu 1984's 2^n x 2^n omega network and the indirect binary n-cube (the
 * butterfly of R = bit reversal, Wu's Chapter 5); their cost is counted
 * in passes (omega.c), their time model is the e-cube target's. */
hd_target hd_target_omega(int n);
hd_target hd_target_butterfly(int n);
/* "ecube", "omega", "butterfly" (the --network words): the target of
 * that kind on the n-cube; false for another word. */
bool hd_target_parse(const char *word, int n, hd_target *t);
const char *hd_target_word(hd_target_kind k);
/* "ncube2" (one-port wormhole, the default) or "linkbound" (all-port
 * store-and-forward, Stout and Wagar 1990), the --cost words; false for
 * another word. */
bool hd_cost_model_parse(const char *word, hd_cost_model *out);
const char *hd_target_name(const hd_target *t);
/* The dimension of the next channel from node `at` towards `dst`, or -1 when
 * at == dst.  E-cube routing takes the lowest differing dimension. */
int hd_target_next_hop(const hd_target *t, uint64_t at, uint64_t dst);

/* T_i for i = 0 .. t->n - 1, the largest number of c's paths sharing one
 * channel of dimension i (on the e-cube hypercube: Theorem 1 for gathers,
 * its mirror image for scatters; see contention.c for the proof of the
 * latter).  HD_OK; HD_EINVAL when c->A.n is not t->n or t is of a kind
 * without a contention formula (T is then untouched). */
int hd_contention(const hd_target *t, const hd_lcc *c, uint64_t T[]);
/* The same after the reordering o (on the e-cube hypercube: Theorem 2). */
int hd_contention_after(const hd_target *t, const hd_lcc *c, const hd_order *o,
                        uint64_t T[]);
uint64_t hd_contention_degree(const uint64_t T[], int n); /* Definition 6 */

/* Independent check of the formulas: routes every message of c hop by hop
 * through `net` and returns, per dimension, the largest number of paths
 * sharing one channel.  HD_ETOOBIG above HD_BRUTE_MAX_DIM. */
int hd_channel_loads(const hd_target *net, const hd_lcc *c, uint64_t T[]);

/* ------------------------------------------------------------ mapping */

/* Section 5's three objectives for a set of m LCCs:
 *   HD_OBJ_MAX     max over LCCs of max over dimensions of T_i,
 *   HD_OBJ_MAXSUM  max over dimensions of the sum over LCCs of T_i,
 *   HD_OBJ_SUM     the sum over both. */
typedef enum { HD_OBJ_MAX, HD_OBJ_MAXSUM, HD_OBJ_SUM } hd_objective;

const char *hd_objective_name(hd_objective obj);   /* "max", ...; "?" if invalid */
bool hd_objective_parse(const char *s, hd_objective *obj);
/* *cost = the objective's value for the set of m LCCs on t under the
 * reordering o (on the e-cube hypercube: from Theorems 1 and 2 directly).
 * Sums are exact while they fit in 64 bits, which holds for every n the
 * set optimizers accept.  HD_OK; HD_EINVAL when o->n or an LCC's
 * dimension is not t->n, or t is of a kind without a cost. */
int hd_objective_cost(const hd_target *t, hd_objective obj, const hd_lcc *c, int m,
                      const hd_order *o, uint64_t *cost);

/* Fig. 3, LCP_Optimizer, O(n^3): for a nonsingular gather, an ordering with
 * T_i <= 1 for all i (Theorem 3, Corollary 1).  Given a singular matrix it
 * returns hd_lcg_optimizer's ordering for the gather y = A x. */
hd_order hd_lcp_optimizer(const hd_matrix *a);
/* Theorem 4's construction for a singular A: an ordering with
 * T_i <= 2^((n-1) - rank(A)) for all i of the gather y = A x + b.  Given a
 * nonsingular A it returns hd_lcp_optimizer's ordering. */
hd_order hd_lcg_optimizer(const hd_lcc *c);
/* The optimum for one LCC of any class and direction (Corollaries 1, 2):
 * the e-cube hypercube's. */
hd_order hd_optimize_alone(const hd_lcc *c);
/* The best ordering for the LCC c alone on t (c->A.n == t->n): on the
 * e-cube hypercube hd_optimize_alone's.  HD_OK, or HD_EINVAL for a kind or
 * dimension it has no optimizer for. */
int hd_optimize_one(const hd_target *t, const hd_lcc *c, hd_order *order);

/* An ordering of the n = t->n address bits minimising obj over the set of
 * m LCCs on t; on the e-cube hypercube, Section 5's (Theorem 5's dynamic
 * program over subsets of address bits).  Among optimal orderings for max
 * and maxsum it returns one of least total contention (the sum
 * objective).  Every c[r].A.n must equal n, and n <= HD_DP_MAX_DIM; m may
 * be 0.  Time O(m n 2^n), memory (9 + 5m) 2^n bytes.  HD_OK; HD_EINVAL
 * for those conditions or a target of a kind without an optimizer;
 * HD_ETOOBIG above HD_DP_MAX_DIM. */
int hd_optimize_set(const hd_target *t, const hd_lcc *c, int m, hd_objective obj,
                    hd_order *order, uint64_t *cost);
/* The same for m LCCs given once each, the r-th counted weight[r] times
 * (as if it appeared weight[r] times in c of hd_optimize_set): the plan
 * passes each distinct LCC of a program once. */
int hd_optimize_weighted(const hd_target *t, const hd_lcc *const *c, const uint64_t *weight,
                         int m, hd_objective obj, hd_order *order, uint64_t *cost);
/* The same optimum by trying all n! orderings (n <= HD_EXHAUSTIVE_MAX_DIM);
 * a reference for tests and benchmarks. */
int hd_optimize_exhaustive(const hd_target *t, const hd_lcc *c, int m, hd_objective obj,
                           hd_order *order, uint64_t *cost);

/* ------------------------------------- omega-class networks (Wu 1984) */

/* Wu, "Minimization of interprocessor communication for parallel
 * computations on an SIMD multicomputer", PhD thesis, Univ. of Michigan,
 * 1984 (omega.c, wu_mapping.c, docs/omega.md).  The thesis writes bit
 * vectors most significant bit first; Hyperdo's rows read bit 0 first, so
 * a thesis matrix is J A J here (J the anti-identity) and its lower and
 * upper triangles swap: the omega network passes x -> A x + b in one pass
 * iff A = U L here (Corollary 2.1's L U), the butterfly iff A = L U (U, L
 * unit upper and lower triangular).  The complement b never matters once
 * A is not the identity (Theorem 2.1: y_i = x_i XOR f_i, f_i may be 1). */

/* An element of AGL(n, 2): the permutation x -> A x + b of the 2^n
 * processors (Wu's Delta, Definition 2.3), A nonsingular. */
typedef struct {
    hd_matrix A;
    uint64_t b;
} hd_agl;

hd_agl hd_agl_identity(int n);
uint64_t hd_agl_apply(const hd_agl *p, uint64_t x);
hd_agl hd_agl_compose(const hd_agl *second, const hd_agl *first); /* second after first */
/* false when p->A is singular. */
bool hd_agl_inverse(const hd_agl *p, hd_agl *inv);
bool hd_agl_equal(const hd_agl *p, const hd_agl *q);
/* p as a map of n bits (what a map pragma's F is), and back. */
hd_affine hd_agl_affine(const hd_agl *p);
hd_agl hd_affine_agl(const hd_affine *F, int n);

/* A = U L (U unit upper, L unit lower triangular; every trailing
 * principal submatrix nonsingular), O(n^2) row operations; U and L may
 * be NULL.  false when A has no such factors. */
bool hd_ul_factor(const hd_matrix *A, hd_matrix *U, hd_matrix *L);
/* A = L U (every leading principal submatrix nonsingular). */
bool hd_lu_factor(const hd_matrix *A, hd_matrix *L, hd_matrix *U);
/* Bit reversal: Wu's R for the butterfly (Chapter 5) and J above. */
hd_matrix hd_bit_reversal(int n);

/* One pass of t (omega or butterfly) realises p: Theorem 2.1, Corollary
 * 2.1 in Hyperdo's bit order. */
bool hd_one_pass(const hd_target *t, const hd_agl *p);
/* D(P): 0 for the identity, 1 in one pass, else 2 (every element of
 * Delta is U L U here, Pease 1977), O(n^3).  -1 (HD_EINVAL) for a target
 * not of the omega class or A singular. */
int hd_passes(const hd_target *t, const hd_agl *p);
/* p = second after first, each realisable in one pass of t (the
 * constructive two-pass factorisation the thesis does not give: omega.c
 * proves it always succeeds).  For D(p) <= 1, first is the identity.
 * HD_OK or HD_EINVAL as hd_passes. */
int hd_two_pass(const hd_target *t, const hd_agl *p, hd_agl *first, hd_agl *second);

/* What an LCC costs on an omega-class network.  A permutation (LCP) is
 * the element of AGL(n, 2) its data move by (a scatter's inverse), priced
 * by D.  An LCG or LCS of rank r is Hyperdo's extension (the thesis has
 * bijections only): no switch broadcasts or combines, so it needs at
 * least 2^(n-r) passes (`lower`; one fewer when every destination is
 * one of its own sources, whose message stays home); its messages are split into 2^(n-r)
 * partial permutations by the values of n - r kernel coordinates, each
 * completed to an element of AGL(n, 2) and routed by its D (`passes`,
 * the sum; docs/omega.md). */
typedef struct {
    uint64_t passes;        /* D for a permutation; the schedule's total */
    uint64_t lower;         /* a lower bound: 2^(n-r) or 2^(n-r) - 1 for a
                             * non-permutation; D otherwise */
    bool permutation;
    hd_agl moves;           /* a permutation: source -> destination */
    hd_agl first, second;   /* a permutation: hd_two_pass's factors */
} hd_omega_price;

/* The element of AGL(n, 2) a permutation LCC moves data by, source to
 * destination: (A, b) for a gather, its inverse for a scatter x = A y + b
 * (y = A^-1 (x + b)).  c->A nonsingular. */
hd_agl hd_lcc_moves(const hd_lcc *c);

/* HD_OK; HD_EINVAL for a target not of the omega class or an LCC not of
 * its dimension.  Counts saturate at 2^64 - 1 (a rank r <= n - 63). */
int hd_omega_price_lcc(const hd_target *t, const hd_lcc *c, hd_omega_price *out);

/* One processor mapping for a whole program on an omega-class target:
 * F in GL(n, 2) minimising the sum over the m LCCs, each counted
 * weight[r] times, of their passes between physical processors, F P F^-1
 * (omega_map.c).  This is the static problem of Kung and Stevenson 1977
 * as Wu 1984 (Section 1.3) states it, one F for every vector; Wu's own
 * per-vector mappings are below.  Exact over all of GL(n, 2) for
 * n <= HD_OMEGA_EXACT_MAX_DIM, a deterministic descent over elementary
 * transvections beyond (documented in docs/omega.md).  HD_OK, or
 * HD_EINVAL for a target not of the omega class or an LCC of another
 * dimension. */
int hd_omega_choose_mapping(const hd_target *t, const hd_lcc *const *c,
                            const uint64_t *weight, int m, hd_matrix *F, uint64_t *passes);
/* The sum of weight[r] times the passes of c[r] under F (as above). */
uint64_t hd_omega_mapped_passes(const hd_target *t, const hd_lcc *const *c,
                                const uint64_t *weight, int m, const hd_matrix *F);

/* -------------------- Wu 1984, Chapters 2-3 and 5: data mappings (wu_mapping.c) */

/* Wu's model (Sections 1.2, 2.2 and the start of Chapter 3).  A vector v
 * is moved by logical transfers P_1 .. P_k, elements of AGL(n, 2) (Wu's
 * Delta, Definition 2.3), each into an identity-mapped vector; under the
 * data mapping F (logical element i of v on processor F(i)) transfer h is
 * the physical permutation P_h F^-1 and costs D(P_h F^-1) passes
 * (hd_passes, the direction the data move in), and remapping v from F to
 * G costs D(G F^-1).  A mapping sequence F_1 .. F_k costs Wu's D_{1,k}
 * (Notation 3.2): sum_h D(P_h F_h^-1) + sum_{h>=2} D(F_h F_{h-1}^-1).
 *
 * Bit order: everything is in Hyperdo's order (omega.c), where the omega
 * network's one-pass class is W = {x -> U L x + b} and the thesis's L and
 * U trade places.  So the mappings that make P one pass are Theorem 3.3's
 * {U L P} read here as L U P: {x -> L U P x + c}, L unit lower, U unit
 * upper, 2^(n^2) of them (the thesis counts augmented (n+1) x (n+1)
 * matrices: complements included).  docs/omega-mapping.md has the
 * translation of every statement used, the misprints, and the budgets.
 *
 * Targets: HD_TARGET_OMEGA, and HD_TARGET_BUTTERFLY through Chapter 5 (R
 * = bit reversal); HD_EINVAL for another kind or agl values of another
 * dimension. */

/* The exact sequence optimizers (hd_wu_dp, hd_wu_algorithm1 and those
 * built on it) index tables by the 2^(n^2+n) bit patterns of an element
 * of AGL(n, 2) (|AGL(4, 2)| = 322 560 in 2^20 slots): n above this is
 * HD_ETOOBIG.  bench/bench_wu_mapping.c measures what each does in 10 s. */
#define HD_WU_EXACT_MAX_DIM 4

/* D(P F^-1), D(G F^-1) and D_{1,k}; negative: hd_passes's HD_EINVAL. */
int hd_wu_transfer_cost(const hd_target *t, const hd_agl *P, const hd_agl *F);
int hd_wu_remap_cost(const hd_target *t, const hd_agl *from, const hd_agl *to);
int hd_wu_sequence_cost(const hd_target *t, const hd_agl *P, const hd_agl *F, int k);

/* Definitions 2.1 and 2.2 in Hyperdo's order (n >= 1): the perfect
 * shuffle x -> x rotated left one place (y_i = x_{i-1}, y_0 = x_{n-1};
 * Table I calls this "Unshuffle", a misprint), the bit reversal. */
hd_agl hd_wu_perfect_shuffle(int n);
hd_agl hd_wu_bit_reversal(int n);
/* Theorem 2.2's F (n >= 2), J F_thesis J: both the shuffle and the bit
 * reversal pass in one pass under it, for every n (checked to n = 64). */
hd_agl hd_wu_theorem22(int n);

/* ------- static mapping (Section 2.2): one F for all of v's transfers */

/* What a static search found. */
typedef struct {
    hd_agl F;
    int cost;          /* sum_j D(P_j F^-1) */
    int one_pass;      /* transfers with D(P_j F^-1) <= 1 */
    long nodes;        /* search nodes visited (partial flags) */
} hd_wu_static;

/* An F with D(P_j F^-1) <= 1 for j < m (the thesis sets up nonlinear
 * equations and gives no way to solve them; this is a search).  F^-1's linear
 * part M is built a column at a time from the right: P_j M is one pass
 * iff every trailing principal block is nonsingular, i.e. iff the span
 * V_k of M's last k columns meets A_j^-1 <e_0 .. e_{n-k-1}> only in 0;
 * given V_{k-1}, the next column must avoid one hyperplane per transfer,
 * i.e. solve m linear equations lambda_{j,k}(v) = 1 — an affine space,
 * tried a coset of V_{k-1} at a time, depth first, with the subspaces
 * that led nowhere remembered.  O(m n^3) a node; at most
 * sum_k [n choose k]_2 nodes (about 2^(n^2/4)), far fewer in practice.
 * 1 (found, *out set), 0 (none exists), HD_ETOOBIG (more than `budget`
 * nodes, budget > 0), HD_EINVAL (m < 1, a singular or ill-sized P_j). */
int hd_wu_static_feasible(const hd_target *t, const hd_agl *P, int m, long budget,
                          hd_wu_static *out);
/* The least sum_j D(P_j F^-1) over all F (D = 0 only for F = P_j): the
 * better of F = each P_i, and of the largest subset of transfers that one
 * F makes one pass (subsets by decreasing size, each a feasibility
 * search).  HD_OK, HD_ETOOBIG (the searches together passed `budget`
 * nodes), HD_EINVAL (m < 1 or m > 30, or a bad P_j). */
int hd_wu_static_best(const hd_target *t, const hd_agl *P, int m, long budget,
                      hd_wu_static *out);

/* -------------- mapping sequences (Chapter 3; Chapter 5 for butterfly) */

/* A sequence of data mappings for one vector's k transfers. */
typedef struct {
    int k;
    hd_agl *F;         /* k mappings (owned) */
    int cost;          /* hd_wu_sequence_cost of them */
    int claimed;       /* what the algorithm believed it cost (differs
                        * from cost only for a pseudo-code variant) */
    long work;         /* candidates formed (Algorithm I), table entries
                        * updated (DP), search nodes (hd_wu_runs) */
    int stopped;       /* hd_wu_runs: runs ended by the search budget
                        * rather than by a proof that none is longer */
} hd_wu_plan;
void hd_wu_plan_free(hd_wu_plan *p);

/* The exact optimum by dynamic programming over AGL(n, 2), the tests'
 * oracle: best_h(F) = D(P_h F^-1) + min(best_{h-1}(F), c + 1 if F is one
 * pass from some G with best_{h-1}(G) = c = min best_{h-1}, else c + 2),
 * the middle set found by closing {G : best = c} under the generators of
 * the one-pass class's two triangular groups (translations in the upper
 * one here), not by pairs.  O(k |AGL(n,2)| n^2) time, k 2^(n^2+n) bytes.
 * `first` non-NULL fixes F_1.  HD_OK, HD_ETOOBIG (n >
 * HD_WU_EXACT_MAX_DIM), HD_EINVAL (k < 1 or k > 4096, bad arguments). */
int hd_wu_dp(const hd_target *t, const hd_agl *P, int k, const hd_agl *first,
             hd_wu_plan *out);

/* Where Algorithm I's printed pseudo-code (Section 3.3) differs from the
 * corrected one run by default; each bit runs that part as printed, to
 * show by computation what it breaks (tests/analysis/test_wu_mapping.c):
 *   APPEND:  Form_Subsequence appends U_j F_0 where F_0 F^-1 = U_j (or
 *            = U_j L_r U_t), at a cost without a remap: the function whose
 *            remap from F is one pass is U_j^-1 F_0 (Observations 3, 4);
 *   OBS1:    "NOT(Min(SET) + D(P_h F_0^-1) + 1 >= C + 1)" drops
 *            candidates of cost C + 1, which Observation 1 keeps (">");
 *   NO_PH:   the block "IF t = 0", which appends P_h itself, never runs
 *            as called (t >= 1, Notation 3.4 numbers L_1 = I). */
enum {
    HD_WU_PRINTED_APPEND = 1,
    HD_WU_PRINTED_OBS1 = 2,
    HD_WU_PRINTED_NO_PH = 4,
};
typedef struct {
    unsigned printed;      /* HD_WU_PRINTED_* bits; 0 for the corrected */
    long max_candidates;   /* > 0: HD_ETOOBIG once more candidate
                            * subsequences than this are kept */
} hd_wu_alg1_options;

/* Algorithm I (Section 3.3) on the omega network: Wu's partial
 * enumeration, candidates of cost Min and Min + 1 only (Theorem 3.6), one
 * per last mapping (3.7), those one pass from a cheaper one dropped
 * (3.8), appended mappings from F_all,h and the previous one (3.9, 3.10),
 * F_all,h taken a coset U L_t P_h (here L U_t P_h) at a time.  An
 * optimum; opt NULL for the corrected algorithm.  Up to Wu's k C (4C + 3)
 * candidates, C = 2^(n^2).  HD_OK, HD_ETOOBIG (n > HD_WU_EXACT_MAX_DIM or
 * past max_candidates), HD_EINVAL (not the omega network, k < 1, ...). */
int hd_wu_algorithm1(const hd_target *t, const hd_agl *P, int k,
                     const hd_wu_alg1_options *opt, hd_wu_plan *out);
/* Its optimum sequences, up to `limit` (>= 1) of them with pairwise
 * different first mappings, taken from the final candidates of cost Min
 * (one per last mapping, Theorem 3.7, so not every optimum); *count set.
 * On HD_OK release each with hd_wu_plan_free and the array with free();
 * otherwise *out is NULL. */
int hd_wu_algorithm1_optima(const hd_target *t, const hd_agl *P, int k,
                            const hd_wu_alg1_options *opt, int limit,
                            hd_wu_plan **out, int *count);
/* Algorithm V (Section 5.1) on the butterfly, R = bit reversal: Algorithm
 * I on R P_h, then F_h = R F'_h (Theorems 5.1-5.2).  As Algorithm I. */
int hd_wu_algorithm5(const hd_target *t, const hd_agl *P, int k,
                     const hd_wu_alg1_options *opt, hd_wu_plan *out);

/* Lemma 3.3: one F under which both P and Q pass in one pass (from
 * P Q^-1's U L U factors, hd_two_pass).  Theorem 3.4: G' = L G, L unit
 * lower (unit upper on the butterfly), so that every transfer one pass
 * under G stays so (Theorem 3.2), with D(G' from^-1) <= 1 (from G from^-1's
 * L U L factors).  HD_OK or HD_EINVAL; any n, O(n^3). */
int hd_wu_common_mapping(const hd_target *t, const hd_agl *P, const hd_agl *Q, hd_agl *F);
int hd_wu_cheap_remap(const hd_target *t, const hd_agl *from, const hd_agl *G, hd_agl *out);

/* Heuristics for any n.  Pairs: Theorem 3.5's construction (consecutive
 * pairs by Lemma 3.3, remaps made one pass by Theorem 3.4), with the lone
 * transfer of an odd k first, on itself: cost <= 3k/2 - 1 (k even),
 * 3(k-1)/2 (k odd; Theorem 3.5 prints (3k-1)/2); O(k n^3).  Runs: the
 * longest runs of consecutive transfers one static search makes one pass
 * (hd_wu_static_feasible, `budget` nodes each, 0 for none: proving that
 * a run cannot grow is the exponential part), F = P_h where that is one
 * of them, remaps by Theorem 3.4.  A search stopped by the budget ends
 * its run (counted in `stopped`); any two transfers share a mapping, so
 * there are at most ceil(k/2) runs and cost <= 3k/2 - 1 (k even),
 * (3k-1)/2 (k odd).  HD_OK or HD_EINVAL. */
int hd_wu_pairs(const hd_target *t, const hd_agl *P, int k, hd_wu_plan *out);
int hd_wu_runs(const hd_target *t, const hd_agl *P, int k, long budget, hd_wu_plan *out);

/* ------ many vectors with precedence: Algorithms II (omega), VI (butterfly) */

/* One logical transfer of a vector, into the expression tree whose result
 * is vector `into` (< the vector's own index: Wu's order v_1 .. v_z, step
 * 2 of Algorithm II), or -1 for an identity-mapped result.  The transfer
 * the vector's mapping sees is F_into,1 P, the result's first mapping
 * after P (Section 3.4.1: "due to the initial data mapping function P_b
 * for F, the sequence ... for C is P_b theta_4 P_a, ...").  Step 1 of
 * Algorithm II (a new vector for a result that depends on its old value)
 * is the caller's. */
typedef struct {
    hd_agl P;
    int into;
} hd_wu_use;
typedef struct {
    int k;
    const hd_wu_use *use;  /* k >= 1 transfers in program order */
} hd_wu_vector;

typedef enum {
    HD_WU_INNER_EXACT,     /* Algorithm I (V on the butterfly): n <= 4 */
    HD_WU_INNER_RUNS,      /* hd_wu_runs: any n, one sequence (limit 1) */
} hd_wu_inner;
typedef struct {
    int limit;             /* Wu's `limit` (>= 1): how many optimum
                            * sequences of v_j are tried, each with the
                            * later vectors optimised after it */
    hd_wu_inner inner;
    long budget;           /* RUNS: nodes per static search (hd_wu_runs) */
} hd_wu_alg2_options;

typedef struct {
    int z;
    hd_wu_plan *plan;      /* one per vector, mappings for its k uses */
    int cost;              /* the program's total (Chapter 3's cost) */
    int identity_cost;     /* every vector identity-mapped */
    long runs;             /* inner optimizer calls */
} hd_wu_program_plan;
void hd_wu_program_plan_free(hd_wu_program_plan *p);

/* Algorithm II (Section 3.3) on the omega network, Algorithm VI (Section
 * 5.1) on the butterfly; a heuristic (not an optimum): O(limit z^2)
 * inner runs for limit > 1, O(z) for limit 1.  HD_OK, HD_EINVAL (a use into a later vector, limit < 1,
 * a target of the other kind, ...), or the inner optimizer's status. */
int hd_wu_algorithm2(const hd_target *t, const hd_wu_vector *v, int z,
                     const hd_wu_alg2_options *opt, hd_wu_program_plan *out);
int hd_wu_algorithm6(const hd_target *t, const hd_wu_vector *v, int z,
                     const hd_wu_alg2_options *opt, hd_wu_program_plan *out);
/* The program's cost under given mappings (plan[j].F for vector j). */
int hd_wu_program_cost(const hd_target *t, const hd_wu_vector *v, int z,
                       const hd_wu_plan *plan);

/* -------------------------- Wu 1984, Chapters 4-5: operand alignment (wu_align.c) */

/* Where each operation of an expression tree is computed (Wu 1984,
 * Chapter 4; docs/omega-align.md).  A leaf v reads its vector through a
 * logical transfer P_v, an element of AGL(n, 2) (Section 1.2; when the
 * vector's data mapping F_v is not the identity, Section 4's P_v F_v^-1);
 * an internal node w computes its result at processor A_w(i), A_w its
 * alignment function.  The cost is (1.1) with identity data mappings
 * (Section 4.1): D(A_w P_v) for an edge from leaf v to its parent w,
 * D(A_wj A_wi^-1) for an edge from internal node w_i to its parent w_j,
 * D the passes of the target (hd_passes, omega or butterfly).
 *
 * The root is where Hyperdo differs from the thesis.  The thesis leaves
 * the root's alignment free: the result stays where it was computed.
 * Hyperdo computes by owner computes: the statement's result must land
 * where the left-hand side's layout puts it, so its root's alignment is
 * fixed (to the identity for a left-hand side laid out by the identity,
 * or to the given element).  Every function below takes `fixed_root`:
 * NULL is the thesis's free root.  A tree that is one leaf (a copy) costs
 * 0 with a free root (its result stays at P^-1) and D(R P) with the root
 * fixed to R. */

/* Group tables, the reference dynamic program and the exact optimum of a
 * program enumerate all of AGL(n, 2): 1344 elements and a 3.6 MB product
 * table for n = 3; n = 4 would be 322560 elements and a 208 GB table.
 * HD_ETOOBIG beyond. */
#define HD_ALIGN_GROUP_MAX_DIM 3
/* Algorithm III keeps, per node, candidates of about 1.1 KB each; the
 * intermediate candidates one node may form (64 K, about 70 MB).  The
 * cosets of All(A_l, A_r) grow like 2^(n^2/2 - n) (Theorem 4.16's t), so
 * this is what stops large n: HD_ETOOBIG, never a partial answer. */
#define HD_ALIGN_MAX_CANDIDATES (1 << 16)

/* A node of an expression tree.  Nodes are numbered in postorder
 * (Section 4.2): children before their parent, the root last. */
typedef struct {
    int left, right;   /* children, -1 for none: a leaf has none, a unary
                        * operation only `left` */
    int reads;         /* a leaf in a program (hd_align_program): the
                        * statement whose result it reads, or -1 for a
                        * vector laid out by the identity.  -1 for trees
                        * aligned on their own */
    hd_agl P;          /* a leaf's logical transfer (nonsingular) */
} hd_align_node;

typedef struct {
    int n;                  /* the cube's dimension */
    int count, cap;
    hd_align_node *node;    /* owned */
} hd_align_tree;

void hd_align_tree_init(hd_align_tree *t, int n);
void hd_align_tree_free(hd_align_tree *t);
/* Appends a leaf (reads = -1) or an operation on earlier nodes (right = -1
 * for a unary one); returns its index. */
int hd_align_leaf(hd_align_tree *t, const hd_agl *P);
int hd_align_op(hd_align_tree *t, int left, int right);

/* An alignment of a tree: A[i] for every node, the leaves' entries their
 * P^-1 (Section 4.2's convention, which makes every edge cost
 * D(A_parent A_child^-1)).  What the search did, for Section 4.3's
 * complexity (Theorems 4.16-4.17): */
typedef struct {
    int cost;           /* (1.1) */
    int count;
    hd_agl *A;          /* count entries, owned */
    long formed;        /* intermediate candidates evaluated */
    long kept;          /* candidates kept, over all nodes */
    int widest;         /* the most kept at one node */
    int singles;        /* the root's optimal alignments: single
                         * elements (1 for a fixed root or a copy) ... */
    int cosets;         /* ... and cosets Uc X of 2^((n^2+n)/2) elements
                         * each (Uc = {x -> U x + c}, U unit upper) */
    int all_cosets;     /* the most cosets in one All(A_l, A_r) */
} hd_alignment;

void hd_alignment_free(hd_alignment *a);

/* (1.1) for the alignment A (count entries; the leaves' entries are not
 * read) of tree on t.  HD_OK; HD_EINVAL for a target not of the omega
 * class, a tree not valid (postorder, nonsingular transfers of t->n
 * bits, reads = -1), a singular alignment, or A's root not at fixed_root. */
int hd_align_cost(const hd_target *t, const hd_align_tree *tree, const hd_agl *fixed_root,
                  const hd_agl *A, int *cost);

/* The least (1.1) and an alignment that has it: Algorithm III on the
 * omega network, Algorithm VII on the butterfly (leaves P -> P R, III,
 * alignments A -> R A; R the bit reversal).  Exact.  HD_OK; HD_EINVAL as
 * hd_align_cost; HD_ETOOBIG past HD_ALIGN_MAX_CANDIDATES at one node. */
int hd_align_optimal(const hd_target *t, const hd_align_tree *tree, const hd_agl *fixed_root,
                     hd_alignment *out);

/* All of AGL(n, 2), n <= HD_ALIGN_GROUP_MAX_DIM, numbered, with its
 * product, inverses and D on both networks tabulated (owned; about
 * 3.7 MB for n = 3). */
typedef struct hd_agl_group hd_agl_group;
int hd_agl_group_new(int n, hd_agl_group **out);    /* HD_OK, HD_EINVAL, HD_ETOOBIG */
void hd_agl_group_free(hd_agl_group *g);
int hd_agl_group_size(const hd_agl_group *g);
const hd_agl *hd_agl_group_element(const hd_agl_group *g, int i);
/* -1 when p is not an element (singular, or of another dimension). */
int hd_agl_group_index(const hd_agl_group *g, const hd_agl *p);

/* The reference: a plain dynamic program over all of AGL(n, 2) per node
 * (cost tables of |AGL(n,2)| entries, each edge minimised over every
 * element), on t's own D, not Algorithm III's cosets nor VII's transform.
 * root_cost, when not NULL, receives for every element X (group order)
 * the least cost with the root fixed to X.  HD_OK; HD_EINVAL as
 * hd_align_cost or for a group of another dimension. */
int hd_align_dp(const hd_agl_group *g, const hd_target *t, const hd_align_tree *tree,
                const hd_agl *fixed_root, hd_alignment *out, int *root_cost);

/* A program: statements in order, each a tree whose leaves may read the
 * results of earlier statements (Section 4.3's precedence).  A leaf that
 * reads statement k with transfer P costs as the transfer P A_k^-1, A_k
 * the alignment of k's result (its data mapping for every later read:
 * Section 4.1's replacement).  A statement's result is at its root's
 * alignment; a copy's may be put at any X for D(X P), as if its root
 * were fixed there. */
typedef struct {
    const hd_align_tree *tree;     /* borrowed */
    const hd_agl *fixed_root;      /* NULL: free (Wu 1984); else owner computes */
} hd_align_stmt;

typedef struct {
    int cost;                /* the sum of the statements' (1.1) */
    int m;                   /* statements */
    hd_alignment *stmt;      /* m, owned: leaves' entries the effective P^-1 */
    hd_agl *root;            /* m, owned: where each result is (its alignment) */
    int *tried;              /* m, owned: the root alignments Algorithm IV
                              * tried for each statement (<= limit; the
                              * exact optimum: |AGL(n,2)|) */
} hd_align_program_result;

void hd_align_program_free(hd_align_program_result *r);

/* Algorithm IV (omega) and VIII (butterfly), a heuristic: statement by
 * statement, the `limit` first optimal alignments of its result (single
 * elements first, then the cosets' elements in turn) are each completed
 * greedily (every later statement solved exactly given the earlier
 * results, its first optimal root taken); the one of least total is kept.
 * limit >= 1.  HD_OK; HD_EINVAL for an invalid program (a leaf reading a
 * statement that is not earlier) or limit < 1; HD_ETOOBIG as
 * hd_align_optimal. */
int hd_align_program(const hd_target *t, const hd_align_stmt *s, int m, int limit,
                     hd_align_program_result *out);

/* The exact optimum of a chain (each statement's leaves read inputs or
 * the statement just before it: Table III's design), n <= 3: a dynamic
 * program over the result alignment of each statement, |AGL(n,2)| exact
 * solves per statement.  HD_OK; HD_EINVAL for a program that is no chain
 * or a group of another dimension. */
int hd_align_program_exact(const hd_agl_group *g, const hd_target *t, const hd_align_stmt *s,
                           int m, hd_align_program_result *out);

/* ------------------------------------------------ owner computes */

/* One value of the variables of the stage loops a reference reads (an LCC
 * family read per value; analysis/stages.c): what the reference makes
 * processors exchange at it. */
typedef struct {
    const long long *value;   /* one per variable (hd_ref_analysis.stage_var) */
    hd_comm comm;             /* local, or an LCC with this value's b */
    bool outside;             /* a subscript is outside its extent there (or
                               * undefined in C): the doall cannot run at
                               * this value, and it makes no message */
} hd_ref_stage;

/* What the analysis found of one reference of the program. */
typedef struct {
    const hd_affine *map;     /* its index as a GF(2)-affine map of the loop
                               * variable (Hou et al. 2001, Section 3), or
                               * NULL when it is not one */
    const char *not_affine;   /* why not, when map is NULL */
    const hd_affine *family;  /* when map is NULL for outer variables only:
                               * the index is A i + b for every value of
                               * them, A in these rows, b's known bits in
                               * its constant (an LCC family, b computed
                               * when the loop runs; docs/layouts.md) */
    uint64_t family_unknown;  /* the bits of b that depend on them */
    hd_comm comm;             /* what a read of a distributed array makes
                               * processors exchange; local otherwise */
    long long conflict;       /* distributed arrays: the most iterations
                               * whose element lies on one processor
                               * (docs/layouts.md); -1 when not known when
                               * translating, 0 for replicated arrays */
    bool all_to_all;          /* a general communication in which every
                               * processor reads the same number of elements
                               * from every processor (its owners' maps
                               * together have rank 2n): a complete exchange */
    bool same_data;           /* GF(2)-affine index and owners: every sender
                               * sends every processor that reads from it the
                               * same elements (a broadcast when one
                               * processor sends, or one per coset of
                               * readers; an all-gather when all_to_all) */
    int pair_log2;            /* then: log2 of the elements one sender sends
                               * one reader; -1 when not known */
    /* An LCC family whose outer variables are all variables of stage loops
     * around its doall (docs/annotations.md, "Stage loops") is read once
     * per value of them: nstage_vars of hd_loop.stages (stage_var), and
     * nstages values, in the loops' order (the innermost varying
     * fastest).  comm stays the family's, which the node code follows.
     * A read in inner loops of the body whose index is an LCC at each
     * value of their variables (inner_refs.c) is read the same way:
     * stage_var -1 - v names hd_loop.inners[v], comm stays general. */
    int nstage_vars;
    const int *stage_var;
    int nstages;
    const hd_ref_stage *stages;
    const char *stage_note;   /* a family not read per value: why (NULL
                               * when it reads no outer variable a note
                               * could help with) */
} hd_ref_analysis;

/* The analysis's results for a program, one entry per reference (indexed
 * by hd_ref.id).  The model holds what the source says; this holds what
 * was worked out from it.  Maps, LCCs and reasons are stored once each
 * however many references share them (a program repeats its index forms:
 * the 1000-loop benchmark has 10,836 references, 911 distinct maps and 910
 * distinct LCCs), in an arena, so a reference costs 40 bytes here instead
 * of the 1.1 KB its two 64-row GF(2) maps by value cost in hd_ref. */
typedef struct hd_analysis_kept hd_analysis_kept;
typedef struct hd_analysis hd_analysis;
struct hd_analysis {
    int nrefs;
    hd_ref_analysis *refs;
    hd_arena store;           /* what the entries point to */
    hd_analysis_kept *kept;   /* tables of what store holds, for sharing */
};

static inline const hd_ref_analysis *hd_ref_result(const hd_analysis *a, const hd_ref *ref)
{
    return &a->refs[ref->id];
}
void hd_analysis_free(hd_analysis *a);

/* An entry for each reference of p (numbered by hd_ref.id, 0 .. the
 * number of references - 1), each as yet with no map and local; release
 * with hd_analysis_free. */
void hd_analysis_init(hd_analysis *a, const hd_program *p);
/* Each doall of p (whose n and array layouts are set) read without
 * errors: its references' index maps, bounds, write conflicts, owners and
 * communications (owners.c), reported into d, the results in *out
 * (hd_analysis_init'ed for p). */
void hd_analyse_loops(hd_program *p, hd_diags *d, hd_analysis *out);
/* A doall over a table distribution or a spread (l->on_table;
 * table_loops.c): its writes name element i, its reads of arrays
 * distributed by a table (or of GF(2) layouts) at other elements are
 * general (gathered by an inspector/executor), and no read names an
 * element another iteration writes.  hd_table_refused reports, for a
 * doall that is not over a table, each write of an array distributed by
 * one (true if any); its reads are general (owners.c). */
void hd_analyse_table_loop(const hd_program *p, hd_diags *d, hd_analysis *out, hd_loop *l);
/* A reference of doall l whose index reads inner loop variables
 * (inner_refs.c): its bounds, owners and, for a write, that its owner is
 * the iteration's and no other iteration writes its elements, checked
 * over every iteration and value; res->comm local or general (the node
 * code then gathers the array whole).  home_result: the home's analysis
 * (its map, at the first values of its own inner variables). */
void hd_analyse_inner_ref(const hd_program *p, hd_diags *d, const hd_loop *l, hd_ref *ref,
                          const hd_layout *layouts, const hd_ref_analysis *home_result,
                          hd_ref_analysis *res, hd_analysis *results);
/* The inner variables e reads, a mask over l->inners; their first
 * values (each lo); the next combination of those in mask, an odometer
 * over their ranges (false after the last, vals back at the first). */
uint32_t hd_inner_mask(const hd_expr *e);
void hd_inner_first(const hd_loop *l, int64_t *vals);
bool hd_inner_next(const hd_loop *l, uint32_t mask, int64_t *vals);
/* The headers of the loops inside l's body: an error for each that reads
 * a distributed array (directly or through a variable of the body). */
void hd_check_inner_headers(const hd_program *p, hd_diags *d, const hd_loop *l);
bool hd_table_refused(const hd_program *p, hd_diags *d, const hd_loop *l);
/* The analysis of a program the C reader filled (hd_c_read), into the
 * reader's sink d: *out initialised for p and, when the reader accepted
 * the cube, every loop analysed.  Returns d's errors so far (the reader's
 * and the analysis's); release *out with hd_analysis_free. */
int hd_analyse_program(hd_program *p, hd_diags *d, hd_analysis *out);

/* A read of an LCC family ref (its result's family set, comm an LCC) in
 * doall l, whose elements lie on `lay`'s owners and whose iterations run
 * on dst(i): read once per value of the stage loops' variables where
 * they are all it reads (analysis/stages.c), else a note saying why not;
 * into ref's entry of a. */
void hd_read_stages(const hd_program *p, hd_analysis *a, const hd_loop *l, const hd_ref *ref,
                    const hd_layout *lay, const hd_affine *dst);

/* The name and the line of the loop of variable sv of a reference read
 * per value (hd_ref_analysis.stage_var): a stage loop's, or an inner
 * loop's for sv < 0. */
const char *hd_stage_var_name(const hd_loop *l, int sv);
int hd_stage_var_line(const hd_loop *l, int sv);

/* Storing a result in a (results.c): a pointer to the one stored copy of
 * a value equal to *map, *lcc or the string why. */
const hd_affine *hd_analysis_keep_map(hd_analysis *a, const hd_affine *map);
const hd_lcc *hd_analysis_keep_lcc(hd_analysis *a, const hd_lcc *lcc);
const char *hd_analysis_keep_reason(hd_analysis *a, const char *why);

/* The communications of the program as a spec: one entry per read
 * reference that makes processors exchange data, in source order.  The
 * entries' LCCs and reasons are a's (the spec must not outlive it). */
int hd_program_spec(const hd_program *p, const hd_analysis *a, hd_spec *out);

/* Reports every read of doall l that may see an element an earlier
 * iteration writes (the loop is then not a doall): decided exactly by rank
 * where the index maps are GF(2)-affine, by enumeration up to 2^22
 * iterations otherwise, refused beyond (dependences.c). */
void hd_check_dependences(const hd_program *p, const hd_analysis *a, const hd_loop *l,
                          hd_diags *d);
/* Does doall l write every element of array arr (so the host need not send
 * its old elements first)?  false when it cannot tell. */
bool hd_loop_writes_all(const hd_program *p, const hd_analysis *a, const hd_loop *l, int arr);

/* ------------------------------------------------------------ the plan */

/* How virtual processors are placed on physical ones. */
typedef enum {
    HD_MAPPING_OPTIMAL,    /* Section 5's dynamic program over the set */
    HD_MAPPING_IDENTITY,   /* virtual processor v on physical processor v */
} hd_mapping_choice;

/* What one LCC costs, as given and mapped.  A C file repeats patterns, so
 * the plan works each distinct LCC out once and its entries share it. */
typedef struct {
    hd_lcc_class class;
    bool bpc;
    int rank;
    uint64_t before[HD_MAX_DIM];   /* T_i as given (Theorem 1) */
    hd_order alone_order;          /* Section 4's optimum for it alone */
    uint64_t alone[HD_MAX_DIM];    /* T_i under that */
    hd_lcc mapped;                 /* under the plan's mapping (Theorem 2
                                    * for a reordering) */
    uint64_t after[HD_MAX_DIM];
    /* Passes on the two omega-class networks (Wu 1984), as given: */
    hd_omega_price omega, butterfly;
    int passes_after;              /* on the plan's target, when it is of
                                    * the omega class, under its mapping */
} hd_plan_price;

/* A mapping: virtual processor v runs on physical processor apply(v).
 * Hou et al. 2001 map by reordering address bits (Definition 8, the
 * plan's choice today); Wu 1984's linear mappings are affine maps
 * x' = Q x + c with Q nonsingular; a graph mapper (Chung and Ranka 1990)
 * gives a table.  The generated program and the runtime take any of them
 * as its two tables (hd_to_physical, hd_to_virtual). */
typedef enum { HD_MAP_REORDER, HD_MAP_AFFINE, HD_MAP_TABLE } hd_mapping_kind;
typedef struct {
    hd_mapping_kind kind;
    int n;
    hd_order order;                /* REORDER */
    hd_matrix Q;                   /* AFFINE: nonsingular */
    uint64_t c;                    /* AFFINE */
    const uint32_t *table;         /* TABLE: 2^n entries, a permutation;
                                    * borrowed */
} hd_mapping;

hd_mapping hd_mapping_reorder(const hd_order *o);
/* c between physical processors under m: (Q A Q^-1, Q A Q^-1 c' + Q b + c')
 * for m = (Q, c'), a gather or a scatter alike (Theorem 2 when m is a
 * reordering).  m must not be a table. */
hd_lcc hd_lcc_mapped(const hd_lcc *c, const hd_mapping *m);
/* Q nonsingular; false otherwise. */
bool hd_mapping_affine(const hd_matrix *Q, uint64_t c, hd_mapping *out);
uint64_t hd_mapping_apply(const hd_mapping *m, uint64_t v);

/* ----------------------- collectives against direct messages (collectives.c) */

/* The pattern of a communication between physical processors that a
 * collective of Stout and Wagar 1990 moves as well. */
typedef enum {
    HD_PATTERN_NONE,
    HD_PATTERN_BROADCAST,     /* every reader's element on one processor */
    HD_PATTERN_INVERSION,     /* x -> x + (2^n - 1) (Section 6) */
    HD_PATTERN_TRANSPOSE,     /* x's halves swapped (Section 7.2) */
    HD_PATTERN_PERMUTATION,   /* any other LCP (PERMUTED SEND, Section 6) */
    HD_PATTERN_ALLTOALL,      /* every processor to every one alike, e.g. block
                               * <-> cyclic (COMPLETE EXCHANGE, Section 6) */
    HD_PATTERN_DISTRIBUTE,    /* one processor holds every reader's elements,
                               * each reader its own (DISTRIBUTE, Section 5) */
    HD_PATTERN_COLLECT,       /* one reader reads from every processor
                               * (COLLECT, Section 5) */
    HD_PATTERN_ALLGATHER,     /* every processor reads the same elements of
                               * every processor (COMPLETE BROADCAST,
                               * Section 6) */
} hd_comm_pattern;
const char *hd_comm_pattern_name(hd_comm_pattern p);
/* Whether translate writes the collective for the pattern (else the choice
 * stays with direct messages, and analyze says so). */
bool hd_coll_emitted(hd_comm_pattern p);

#define HD_COLL_MAX_OPTIONS 4
typedef struct {
    int alg;                  /* an hd_coll_alg (hyperdo/coll.h) */
    double us;                /* its predicted time; < 0: not priced */
} hd_coll_option;
typedef struct {
    hd_comm_pattern pattern;
    long long bytes;          /* one processor's message */
    double direct_us;         /* direct messages under the plan's mapping */
    int nopts;
    hd_coll_option opt[HD_COLL_MAX_OPTIONS];
    int chosen;               /* index into opt; -1: direct messages (what
                               * translate writes) */
    int best;                 /* the cheapest, emitted or not; -1: direct */
    int root;                 /* BROADCAST, DISTRIBUTE, COLLECT: the physical
                               * processor that sends or gathers; -1: one
                               * per coset (dims) */
    uint64_t dims;            /* 0: the whole cube; else the physical
                               * dimensions of the subcube in each of whose
                               * cosets the collective runs at once
                               * (disjoint links: each coset's time) */
    const char *why;          /* pattern NONE: why (static) */
} hd_comm_choice;

/* The choice for one LCC between physical processors (`mapped`), whose
 * busiest channel carries `share` paths, with messages of `bytes` per
 * processor, on t's cost model (hyperdo/cost.h: ports 0 is the link-bound
 * all-port model).  With collectives false every option is priced and
 * direct messages are kept. */
void hd_choose_comm(const hd_target *t, const hd_lcc *mapped, uint64_t share, uint64_t b_runtime,
                    long long bytes, bool collectives, hd_comm_choice *out);
/* The same, knowing the elements: when one processor holds them all
 * (mapped x = b), `same_data` (hd_ref_analysis) tells a BROADCAST from a
 * DISTRIBUTE, whose blocks are `pair_bytes` (0: `bytes`). */
void hd_choose_comm_msgs(const hd_target *t, const hd_lcc *mapped, uint64_t share,
                         uint64_t b_runtime, long long bytes, bool same_data,
                         long long pair_bytes, bool collectives, hd_comm_choice *out);

/* One communication of the plan (an entry of its hd_spec). */
typedef struct {
    const hd_named_lcc *in;        /* borrowed; in->comm says which kind */
    const hd_plan_price *price;    /* NULL for a general communication */
    int first;                     /* the first entry with this LCC */
    hd_comm_choice choice;         /* hd_plan_choose_collectives; zero before */
} hd_plan_comm;

/* The plan: every communication priced, and the mapping chosen once
 * for all of them; translate, analyze and sim read it. */
typedef struct {
    int n, m;                      /* cube dimension; communications */
    hd_target target;
    hd_objective objective;
    hd_mapping_choice choice;
    hd_order order;                /* physical = Q virtual; order.n = 0
                                    * for a program without loops; the
                                    * identity on an omega-class target */
    hd_mapping mapping;            /* the same order, as a mapping; on an
                                    * omega-class target the affine map
                                    * hd_omega_choose_mapping chose */
    uint64_t cost;                 /* the objective under order */
    hd_plan_comm *comm;            /* m entries, in the spec's order */
    hd_plan_price *prices;         /* nprices distinct LCCs, which comm
                                    * entries point into */
    int nprices;
    int nlccs;                     /* entries that are LCCs */
    uint64_t worst_before;         /* the largest contention degree of any */
    uint64_t worst_after;          /* the same under the mapping */
    uint64_t passes_before;        /* omega-class target: the sum of D over */
    uint64_t passes_after;         /* the LCC entries, as given and mapped */
} hd_plan;

/* Builds the plan of the communications `comms` (borrowed: it must outlive
 * the plan) on `target`.  HD_OK; HD_EINVAL for a target of another
 * dimension than the communications', or of a kind the contention and
 * optimizer functions refuse; or the set optimizer's status (n above
 * HD_DP_MAX_DIM: HD_ETOOBIG). */
int hd_plan_build(const hd_spec *comms, const hd_target *target, hd_objective objective,
                  hd_mapping_choice choice, hd_plan *out);
void hd_plan_free(hd_plan *p);
/* Fills every entry's choice between direct messages and a collective
 * (hd_choose_comm) from the spec's message sizes (known for C programs
 * only: a spec's entries get none and keep direct messages). */
void hd_plan_choose_collectives(hd_plan *p, const hd_spec *spec, bool collectives);


/* ------------------------------------------------ layout advisor */

/* One layout an array could have, and the program under it (advisor.c). */
typedef struct {
    hd_dist_kind dist;
    int block_log2;            /* BLOCK_CYCLIC: log2 B */
    bool accepted;             /* the program is accepted under it */
    char *why_not;             /* otherwise the first error (owned) */
    long long conflict;        /* the largest conflict degree of the array's
                                * references; -1 when one is not known */
    long long conflict_sum;    /* their sum; -1 likewise */
    int general;               /* communications that are not LCCs */
    uint64_t cost;             /* the plan's objective after its mapping */
    uint64_t worst_before;     /* the largest contention degree of an LCC */
    uint64_t worst_after;      /* the same after the mapping */
} hd_layout_candidate;

typedef struct {
    char *array;
    int ncand;
    hd_layout_candidate *cand; /* cyclic, block_cyclic(2^b) ..., block,
                                * skew (or skew_rot), block, block and
                                * cyclic, cyclic, xor where they apply */
    int declared, best;        /* indices into cand */
    char *reason;              /* why best (owned) */
} hd_array_advice;

typedef struct {
    int narrays;
    hd_array_advice *arrays;   /* each distributed array, in program order */
} hd_layout_advice;

/* The advice for every distributed array of p (read without errors, n
 * set): p is analysed again under each candidate layout of one array at a
 * time, the others as declared, and left as it was.  Release with
 * hd_layout_advice_free. */
void hd_advise_layouts(hd_program *p, const hd_target *t, hd_objective obj,
                       hd_layout_advice *out);
void hd_layout_advice_free(hd_layout_advice *a);
/* "cyclic", "block_cyclic(4)", "skew": the pragma's words for c. */
void hd_layout_candidate_name(const hd_layout_candidate *c, char *buf, size_t size);

/* ----------------------- Wu 1984's programs: both approaches (wu_program.c) */

/* A program in Wu 1984's terms (Section 1.2): statements in program
 * order, each giving a vector (its left-hand side) the value of an
 * expression tree whose leaves read vectors through logical transfers,
 * elements of AGL(n, 2).  Read from a spec (hd_wu_prog_from_spec: its
 * statements as written) or from a C program (hd_wu_prog_from_c: one
 * statement per doall, in the order of the text, its home array on the
 * left and the other arrays it writes in `also`, a leaf for each read of
 * a distributed array whose communication is a permutation, the leaves
 * joined by binary operations: Chapter 3 needs only the transfers, and
 * owner computes fixes where a doall's operations run, so Chapter 4 is
 * not run on C). */
typedef struct {
    int lhs;              /* the vector it assigns */
    int nalso;            /* C: the other vectors the doall writes */
    int *also;            /* owned */
    int line;             /* of the stmt line, or of the doall's for */
    int loop;             /* C: the doall's index in hd_program.loops; -1 */
    hd_align_tree tree;   /* leaves: P the transfer, reads -1 */
    int *leaf_vector;     /* per node: the vector a leaf reads, -1 for an
                           * operation (owned) */
    char **leaf_text;     /* per node: a leaf as written ("A[s]", the C
                           * reference), NULL for an operation (owned) */
    unsigned func_begin;  /* C: the doall's function (hd_loop.func_begin) */
    int unpriced;         /* C: reads of distributed arrays that are no
                           * permutation (LCG, LCS, general): outside Wu's
                           * model, left out */
    int nwhole;           /* C: the vectors it writes every element of,
                           * which need no remap before it */
    int *whole;           /* owned */
} hd_wu_stmt;

typedef struct {
    int n;
    int nvectors;
    char **vectors;       /* their names (owned) */
    int *array;           /* C: each vector's index in hd_program.arrays */
    hd_agl *own;          /* C: the program's own mapping of each vector
                           * at each statement (map pragmas; the
                           * identity without), own[s * nvectors + v];
                           * the transfers are the logical ones, these
                           * undone (owned) */
    int nstmts;
    hd_wu_stmt *stmts;
    bool from_c;
} hd_wu_prog;

void hd_wu_prog_free(hd_wu_prog *w);
/* HD_OK; HD_EINVAL for a spec without statements. */
int hd_wu_prog_from_spec(const hd_spec *s, hd_wu_prog *out);
/* Every doall of p that writes (a home) with the analysis a; HD_OK, or
 * HD_EINVAL when p has no cube (n < 1).  A program without such doalls
 * gives no statements. */
int hd_wu_prog_from_c(const hd_program *p, const hd_analysis *a, hd_wu_prog *out);

/* One use of a vector (Chapter 3): a read in a statement, or (C) the copy
 * of a doall's result into another array the doall writes (node -1,
 * P the identity), which Hyperdo makes as Wu's remap of that array. */
typedef struct {
    int stmt;
    int node;             /* its leaf, -1 for a copy */
    hd_agl P;             /* the logical transfer */
    int into;             /* the version it goes into, -1 when that is
                           * never read again (identity-mapped) */
    hd_agl F;             /* the vector's mapping for it */
    int passes;           /* D(F_into,1 P F^-1) */
    int remap;            /* D(F F_previous^-1); 0 for the first use */
} hd_wu_prog_use;

/* A vector between two assignments (Algorithm II, step 1). */
typedef struct {
    int vector;
    int defined_by;       /* the statement that assigns it, -1: the input */
    int nuses;
    hd_wu_prog_use *uses; /* owned, in program order */
} hd_wu_prog_version;

/* What Wu 1984's two approaches make of a program on an omega-class
 * target, in passes (Chapter 6: "one may choose to use only one of the
 * approaches"; both are reported beside the cost with nothing done). */
typedef struct {
    /* Chapter 3 (5 for the butterfly), data mappings, alignments the
     * identity: Algorithm II (VI), each vector's sequences by Algorithm I
     * (V) when exact, else by the runs heuristic (hd_wu_runs). */
    int map_status;       /* HD_OK; HD_ETOOBIG: more versions than
                           * HD_WU_PROGRAM_MAX_VERSIONS; the inner status */
    bool map_exact;       /* n <= HD_WU_PROGRAM_EXACT_MAX_DIM */
    int map_limit;        /* Wu's `limit` used */
    int map_identity;     /* every mapping the identity */
    int map_cost;         /* Algorithm II's mappings */
    int nversions;        /* the versions with uses, Wu's v_z .. v_1 */
    hd_wu_prog_version *versions;   /* owned, in program order */
    /* C: the mapping of each vector at each doall, Hyperdo's way (one per
     * array and doall, the arrays a doall writes under one): at[s *
     * nvectors + v] where used[...]; the cost of the same transfers and
     * remaps (hd_wu_prog_remaps) under Algorithm II's mappings projected
     * onto that rule, under one mapping F for everything (the static
     * problem), under the better of the two after a descent (Hyperdo's,
     * not Wu's: at holds it), under the program's own map pragmas, and
     * whether the descent's beats the identity. */
    hd_agl *at;           /* owned */
    bool *used;           /* owned */
    int projected;
    int static_cost;
    int realized;
    int realized_transfers;   /* realized without its remaps */
    int program_own;      /* the program's map pragmas (identity: none) */
    bool improves;        /* realized < map_identity */
    /* Chapter 4 (Algorithms IV and VIII), data mappings the identity;
     * specs only: */
    int align_status;     /* HD_OK; HD_ETOOBIG past Algorithm III's limit;
                           * HD_EINVAL: not run (a C program) */
    int align_identity;   /* every operation where its result goes */
    int align_free;       /* roots free (the thesis) */
    int align_fixed;      /* roots fixed to the left-hand side (owner
                           * computes) */
    hd_agl *root_free;    /* owned, nstmts: where each result is */
    int *cost_free, *cost_fixed;    /* owned, nstmts */
} hd_wu_prog_result;

void hd_wu_prog_result_free(hd_wu_prog_result *r);

/* HD_OK, the statuses inside *out; HD_EINVAL for a target not of the
 * omega class or a program without statements. */
int hd_wu_prog_analyse(const hd_target *t, const hd_wu_prog *w, hd_wu_prog_result *out);

/* The map pragmas that put a C program's arrays under r->at (hd_map_at's
 * rule: a pragma right before a doall holds from it on in its function,
 * an array starts each function under the identity): one entry wherever
 * an array's mapping at a doall differs from the one the text leaves it
 * under there, in the order of the text.  The count; *out malloc'ed
 * (NULL for none). */
typedef struct {
    int stmt;
    int vector;
    hd_agl F;
} hd_wu_map;
int hd_wu_prog_maps(const hd_wu_prog *w, const hd_wu_prog_result *r, hd_wu_map **out);
/* The passes of a C program's remaps when vector v is under at[s *
 * nvectors + v] at statement s and processors are renamed by Q (NULL:
 * not renamed): D(Q G F^-1 Q^-1) for each change of a vector's mapping
 * between two statements that use it, in the order of the text, except
 * before a statement that writes every element without reading it (the
 * runtime moves nothing then, nor when the host's copy is the newer:
 * an upper bound on a straight run). */
int hd_wu_prog_remaps(const hd_target *t, const hd_wu_prog *w, const hd_agl *at,
                      const hd_mapping *Q);

/* ---------------------------- finite element graphs (Chung and Ranka 1990) */

/* The machine of Section 5 (from Saad and Schultz): a task, a message's
 * start-up and one word, in microseconds. */
typedef struct {
    double task_us, setup_us, word_us;
} hd_fem_times;
#define HD_FEM_TIMES_DEFAULT { 1190, 1150, 10 }

/* Section 2.3's two channel models: both directions of a link in a step,
 * or one. */
typedef enum { HD_FEM_BI, HD_FEM_UNI } hd_fem_channels;

#define HD_FEM_MAX_DIST 64
/* A mapping of the N nodes of an NB graph onto the n-cube, costed as
 * Section 2.3 says (fem_cost.c; the corrections in docs/meshes.md). */
typedef struct {
    int n, N;
    int max_load;              /* nodes on the busiest processor */
    bool lbc;                  /* max_load = ceil(N / 2^n) */
    bool neighbour_mapping;    /* every NB edge within 2 bits (Definition 7) */
    long long dilation[HD_FEM_MAX_DIST + 1];  /* NB edges by the Hamming
                                               * distance of their processors */
    long long words;           /* sum of c_kl: distinct (node, processor) needs */
    long long word_hops;       /* sum of c_kl H(k, l): the words times the hops
                                * e-cube routing takes them (the channel load
                                * summed over all steps) */
    long long edge_cut;        /* NB edges between nodes on two processors */
    int steps[2];              /* [HD_FEM_BI], [HD_FEM_UNI] */
    long long *step_max[2];    /* per step: the most words on one directed channel */
    double c_us[2];            /* Eq. 3 */
    double tpar_us[2];         /* Eq. 2 */
    double speedup[2];         /* Eq. 4, T_seq = N T_task */
    double eubs[2], elbs[2];   /* Eqs. 8.1, 8.2 (bi), 9.1, 9.2 (uni) */
    double elbs_bi_printed;    /* what the paper's tables print for ELBS_bi:
                                * Eq. 8.2 with 200 us more (docs/meshes.md) */
} hd_fem_report;

/* proc[v] in 0 .. 2^n - 1 for each node v of nb.  HD_OK, HD_EINVAL (a
 * processor out of range, n outside 0 .. 30), HD_ENOMEM. */
int hd_fem_cost(const hd_graph *nb, int n, const int *proc, const hd_fem_times *t,
                hd_fem_report *out);
void hd_fem_report_free(hd_fem_report *r);

/* The 2-way stripes partition mapping (Section 3, fem_map.c): for each of
 * the log M + 1 mesh shapes 2^x x 2^y, BFS stripes from nodes 0 and
 * floor(N/2), merged to 2^x and 2^y, placed by the binary reflected Gray
 * code (Eqs. 5-7), balanced by load_transfer; the shape of least C under
 * `ch` is kept.  *shape_x: its x.  progress: NULL or a stream for a line
 * per shape.  HD_OK or HD_ENOMEM. */
int hd_fem_stripes(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                   int *proc, int *shape_x, FILE *progress);
/* Section 3.1's merge of L stripes (count[b] nodes in stripe b) into
 * `want` groups of adjacent stripes: while more remain, the adjacent pair
 * of least total becomes one (ties: the lowest pair); into[b] = the group
 * of stripe b, 0 .. want - 1 (fewer when L < want).  O(L log L), the
 * paper's rescan being O(L^2).  HD_OK or HD_ENOMEM. */
int hd_fem_merge_stripes(const long long *count, int L, int want, int *into);
/* The greedy assignment (Section 4): HD_OK, or HD_EINVAL when the
 * neighbour mapping is impossible its way (the tables' "-"); proc is then
 * partial (-1 where unassigned). */
int hd_fem_greedy(const hd_graph *nb, const hd_graph *adj, int n, int *proc);

/* Hou et al. 2001's bit reordering applied to a finite element mapping
 * (fem_map.c): the permutation of the address bits (all n! of them, n <=
 * 7) that makes proc cheapest under `ch` (C, then the other model's C),
 * applied to proc.  Renaming the bits keeps every distance, so the load,
 * the neighbour mapping and the words stay; only e-cube routing's order
 * of dimensions changes.  HD_OK, HD_ETOOBIG above n = 7, HD_ENOMEM. */
int hd_fem_reorder_bits(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                        int *proc);

/* Baselines from Debian's libraries (fem_baselines.c): Scotch's mapping
 * onto its hypercube target (hcub), and METIS's k-way partition into 2^n
 * parts followed by the relabelling of the parts onto the cube of least
 * C under `ch`.  HD_OK, or an error with err saying why. */
int hd_fem_scotch(const hd_graph *nb, int n, int *proc, char *err, size_t errlen);
int hd_fem_metis(const hd_graph *nb, int n, hd_fem_channels ch, const hd_fem_times *t,
                 int *proc, char *err, size_t errlen);

#endif
