/*
 * testutil.h — helpers shared by the unit tests of analysis/.
 *
 * Everything here is deliberately written without calling the library it
 * checks: matrices are handled entry by entry (one int per entry), ranks are
 * found by a separate elimination or by enumerating spans, and contention is
 * found by counting e-cube paths with a closed-form channel formula.  The
 * tests compare the library against these, never against its own output.
 *
 * Random cases come from splitmix64.  The base seed is fixed, or taken from
 * the environment variable HYPERDO_TEST_SEED; every test mixes its own name
 * into it, so one test's cases do not depend on which tests ran before.  A
 * failed check prints the seed and the case at hand.
 */
#ifndef HYPERDO_TESTUTIL_H
#define HYPERDO_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis.h"

/* ------------------------------------------------------------- checks */

/* Called by TU_CHECK on failure: prints the expression, the seed, the case
 * registered with tu_case, and a printf-style explanation. */
void tu_report(const char *expr, const char *file, int line,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define TU_CHECK(cond, ...)                                            \
    do {                                                               \
        if (!(cond)) {                                                 \
            tu_report(#cond, __FILE__, __LINE__, __VA_ARGS__);         \
            _fail(__FILE__, __LINE__);                                 \
        }                                                              \
    } while (0)

/* Two unsigned values that must be equal; both are printed on failure. */
#define TU_CHECK_EQ(a, b, what)                                        \
    do {                                                               \
        unsigned long long tu_a_ = (unsigned long long)(a);            \
        unsigned long long tu_b_ = (unsigned long long)(b);            \
        TU_CHECK(tu_a_ == tu_b_, "%s: %llu != %llu", (what), tu_a_,    \
                 tu_b_);                                               \
    } while (0)

/* The case being checked, printed by tu_report: an index and optionally a
 * set of m LCCs and an ordering (pointers are kept, not copied). */
void tu_case(long index, const hd_lcc *c, int m, const hd_order *o);

/* ---------------------------------------------------------------- PRNG */

/* Seeds the generator for one test from the base seed and `test_name`. */
void tu_rng_init(const char *test_name);
uint64_t tu_base_seed(void);
uint64_t tu_rand(void);
uint64_t tu_below(uint64_t bound);        /* uniform in 0 .. bound-1 */
uint64_t tu_bits(int n);                  /* uniform n-bit value */
bool tu_chance(int num, int den);         /* true with probability num/den */

/* Number of random cases scaled by HYPERDO_TEST_SCALE (a positive integer
 * percentage, default 100), at least 1. */
long tu_cases(long base);

/* ----------------------------------------------- naive matrix algebra */

/* Matrix from the paper's printed rows: rows[i][j] == '1' is a_ij. */
hd_matrix tu_matrix_from_rows(int n, const char *const rows[]);
/* Vector from the paper's printed [b_0 b_1 ... b_{n-1}]: s[i] is b_i. */
uint64_t tu_vector_from_string(const char *s);

int tu_entry(const hd_matrix *a, int i, int j);  /* a_ij as 0 / 1 */
uint64_t tu_naive_apply(const hd_matrix *a, uint64_t x);
hd_matrix tu_naive_mul(const hd_matrix *a, const hd_matrix *b);

/* Rank of A_{R,C} by Gaussian elimination on a plain int array. */
int tu_gauss_rank_sub(const hd_matrix *a, uint64_t rows, uint64_t cols);
/* Rank of the span of k vectors, found by listing all 2^k sums (k <= 12). */
int tu_span_rank(const uint64_t *v, int k);
/* Rank of A_{R,C} through tu_span_rank of the selected rows (|R| <= 12). */
int tu_span_rank_sub(const hd_matrix *a, uint64_t rows, uint64_t cols);

hd_matrix tu_random_matrix(int n);
hd_matrix tu_random_nonsingular(int n);
/* A random matrix of rank exactly r: P diag(1..1, 0..0) S with P and S
 * random nonsingular, so the rank is known without computing it. */
hd_matrix tu_random_matrix_of_rank(int n, int r);
/* Each entry 1 with probability num/den. */
hd_matrix tu_random_sparse(int n, int num, int den);
hd_order tu_random_order(int n);
/* Next ordering in lexicographic order; false after the last. */
bool tu_next_order(hd_order *o);

/* ---------------------------------------------------------- LCC cases */

typedef enum {
    TU_LCP,           /* gather, A nonsingular, random b */
    TU_LCG,           /* gather, rank(A) uniform in 0 .. n-1 */
    TU_LCS,           /* scatter, rank(A) uniform in 0 .. n-1 */
    TU_FIXED,         /* some rows e_i with b_i = 0, either direction */
    TU_IDENTITY,      /* A = I, either direction, b random (maybe 0) */
    TU_BPC,           /* A a permutation matrix, either direction */
    TU_SCATTER_PERM,  /* scatter with A nonsingular */
    TU_SPARSE,        /* sparse random A, either direction */
    TU_KIND_COUNT
} tu_kind;

const char *tu_kind_name(tu_kind k);
/* A random LCC of the kind; *rank receives rank(A), computed by
 * construction or by tu_gauss_rank_sub. */
hd_lcc tu_random_lcc(tu_kind kind, int n, int *rank);
/* Any kind, chosen at random. */
hd_lcc tu_random_any_lcc(int n, int *rank);

/* ------------------------------------------------ e-cube path counting */

/* My own message list for c: for a gather (t, A t + b), for a scatter
 * (A t + b, t), t = 0 .. 2^n - 1, with tu_naive_apply. */
void tu_messages(const hd_lcc *c, uint64_t *src, uint64_t *dst);

/*
 * Contention per dimension of an arbitrary message list on the n-cube with
 * e-cube routing.  E-cube routing corrects bits in ascending order, so the
 * path from s to d crosses dimension k (for each bit k where they differ)
 * at the node whose bits below k are d's and whose other bits are s's.
 * Counts every (node, dimension) channel in an array and returns the
 * per-dimension maximum.  n <= 20.
 */
void tu_path_loads(int n, const uint64_t *src, const uint64_t *dst,
                   uint64_t count, uint64_t T[]);
/* tu_path_loads of the messages of c relabelled by o: (Q s, Q d) with Q
 * given by hd_order_apply, i.e. the communication between physical
 * processors after the reordering mapping (Fig. 2). */
void tu_relabelled_loads(const hd_lcc *c, const hd_order *o, uint64_t T[]);

uint64_t tu_max(const uint64_t T[], int n);

/* ------------------------------------- the library on the e-cube target */

/* The e-cube wormhole hypercube of dimension n, the target the formulas
 * under test are for (hd_target_ecube), as a pointer to pass. */
#define TU_CUBE(n) \
    (&(const hd_target){ HD_TARGET_ECUBE_HYPERCUBE, (n), HD_COST_MODEL_NCUBE2 })

/* hd_contention, hd_contention_after and hd_objective_cost on TU_CUBE of
 * the LCC's (the order's) dimension; a status other than HD_OK fails the
 * test. */
void tu_contention(const hd_lcc *c, uint64_t T[]);
void tu_contention_after(const hd_lcc *c, const hd_order *o, uint64_t T[]);
uint64_t tu_objective_cost(hd_objective obj, const hd_lcc *set, int m, const hd_order *o);

/* ------------------------------- Wu 1984: AGL(n, 2) and the omega network */

/* The inverse of a nonsingular matrix, by the test's own elimination
 * (fails the test for a singular one); second after first, p^-1, p q^-1,
 * entry by entry. */
hd_matrix tu_matrix_inverse(const hd_matrix *a);
hd_agl tu_agl_compose(const hd_agl *second, const hd_agl *first);
hd_agl tu_agl_inverse(const hd_agl *p);
hd_agl tu_agl_div(const hd_agl *p, const hd_agl *q);
/* Corollary 2.1 in Hyperdo's order (omega: every trailing principal block
 * nonsingular), or its mirror for the butterfly (Lemma 5.1: leading
 * blocks), by tu_gauss_rank_sub; D: 0 for the identity, 1, or 2. */
bool tu_one_pass(const hd_matrix *a, bool butterfly);
int tu_agl_passes(const hd_agl *p, bool butterfly);

#endif
